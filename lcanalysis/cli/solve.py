"""``lcanalysis solve POSITION``: every turn's value by exact search, the score difference you can
expect, for a full position (both hands known) or your view (averaged over every split of the
unseen cards, or over 400 sampled when there are more than 20,000: an estimate); bounded by
``--max-stalls``, ``--max-turns`` or ``--time``.

Prints the object of docs/spec/interchange.md: ``{"value", "exact", "moves": [{"move", "value",
"stderr"}], "nodes", "seconds"}`` with the moves best first, plus the labelled extras of
``Analysis.to_json`` (kind, bounds, method, splits, notes). The question (bounds, leaf, the
mover's view, a round not over) is checked by the search's own checks (``search.common.check_bounds``
and the rest, gathered in ``search.view_value.check_question``), before anything is printed about
it; their ``SearchError`` is printed as ``error: ...``.

``--time S`` deepens the stall budget (or, with ``--max-turns``, keeps that horizon) within S
seconds and answers with the deepest exact level reached, plus, for a full position, the bracket
``W_me <= V <= W_opp`` around the unbounded value when the budget allows; where the bracket pins
every turn no deeper stall budget can differ, so the deepening stops there and the answer names no
stall cap (``solve_deepening``). A search that runs
longer than a second says so on standard error about once a second (the nodes searched of
``--max-nodes``; for a view, the samples, splits or fills done of their total): the compiled search
runs without the interpreter's lock, so a watcher thread can speak while it works. Ctrl-C stops it
where it stands (``search.common.abort_at``), saying so (``STOPPED``), exit status 130.

Every solve is bounded: ``--max-nodes N`` search nodes (default ``DEFAULT_MAX_NODES``, a
billion, about 12 minutes here; when they run out: ``error: ...``, exit status 2, or with
``--time`` the deepest level that finished, and ``error: the time ran out ...`` when not even the
first did) and ``--max-memory GB`` of address space (default:
the machine's memory; tables that cannot fit are refused before they are made, an allocation
that fails is ``error: ...``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from lcanalysis.analysis import HEURISTIC_REASON, bounds_in_words, seconds_in_words
from lcanalysis.cli.common import (
    NODES_PER_SECOND,
    STAGE_SILENCE,
    add_budget_options,
    describe,
    emit,
    load,
    memory_ceiling,
    progress_line,
)
from lcanalysis.options import (
    MAX_SAMPLES,
    MAX_SEED,
    MAX_STALLS,
    MAX_TL,
    MAX_WORKERS,
    SOLVE_MAX_SPLITS,
    SOLVE_SAMPLES,
    OptionError,
    UsageError,
    nonneg,
    seconds,
)

#: what ``solve`` does for a view without ``--samples`` (``search.view_value.DEFAULT_MAX_SPLITS`` and
#: ``DEFAULT_SAMPLES``, written out here so that ``--help`` loads no search; tests/test_cli.py holds them equal): every
#: split up to this many distinct ones, else this many sampled with seed 0
DEFAULT_SPLITS, DEFAULT_SAMPLED = SOLVE_MAX_SPLITS, SOLVE_SAMPLES  # the search's, without loading it

LEAF_HELP = ("value at the horizon of --max-turns: as-is (exact: the table as it stands), heuristic or its "
             "other name evaluator (the hand evaluator's estimate), simple (a cruder count, kept for comparison)")


def add_parser(sub: argparse._SubParsersAction, pos_help: str) -> None:
    p = sub.add_parser("solve", help="exact endgame values of every turn (docs/spec/interchange.md)",
                       description=describe(__doc__))
    p.add_argument("position", help=pos_help)
    p.add_argument("--max-stalls", type=nonneg("--max-stalls", MAX_STALLS), default=None,
                   help="discard-pile draws each player may still make (0: only the draw pile from now on; "
                        "default: no cap, so give it, --max-turns or --time: pile draws could go on forever)")
    p.add_argument("--max-turns", type=nonneg("--max-turns", MAX_TL, 1), default=None,
                   help="a horizon: stop after this many turns and score the table (see --leaf; default: none)")
    p.add_argument("--leaf", default=None, help=LEAF_HELP + " (default as-is)")
    p.add_argument("--time", type=seconds(24 * 3600, "seconds (a day)"), default=None, metavar="S",
                   help="deepen within S seconds: the deepest exact stall budget reached (up to --max-stalls, "
                        "if given), and the bracket around the unbounded value when there is time "
                        "(default: no clock, one search at the bounds given)")
    p.add_argument("--samples", type=nonneg("--samples", MAX_SAMPLES, 2), default=None,
                   help="for a view: sample this many splits instead of enumerating them all (an estimate; default: "
                        f"every split, exact, when there are at most {DEFAULT_SPLITS:,} distinct ones, else "
                        f"{DEFAULT_SAMPLED} sampled with seed 0, an estimate, as the answer's method line says)")
    p.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=None,
                   help=f"the seed of --samples (default 0; for another seed of the {DEFAULT_SAMPLED} splits sampled "
                        f"by default: --samples {DEFAULT_SAMPLED} --seed N)")
    p.add_argument("--workers", type=nonneg("--workers", MAX_WORKERS), default=None,
                   help="for a view: solve the splits on this many threads (0: one per core; default 1, so that a node "
                        "budget gives the same node count on every run)")
    add_budget_options(p, "bound the search", "; with --time, the answer is the deepest level finished within both")
    p.add_argument("--json", action="store_true", help="print the JSON answer of docs/spec/interchange.md")
    p.set_defaults(func=run, precheck=precheck)


def _say(line: str) -> None:
    print(f"  ... {line}", file=sys.stderr, flush=True)


TOO_MANY_FILLS = (f"there are more than {DEFAULT_SPLITS:,} ways to fill the {{n}} buried pile card(s) (written X?): "
                  "too many to solve each exactly, with --time too; for an estimate give --samples N (say --samples "
                  f"{DEFAULT_SAMPLED}, without --time), or ask 'lcanalysis advise POSITION', whose endgame search "
                  "samples the fills")
NO_BOUND = ("no bound: drawing from discard piles can go on forever, so give --max-stalls S (discard-pile draws left "
            "to each player; 0: only the draw pile from now on), --max-turns T (a horizon, the table scored as it "
            "stands), or --time S, the deepest exact answer within S seconds")
LESS = "a smaller --max-stalls, --max-turns or --samples, or --time S for the deepest answer within S seconds"
#: said on Ctrl-C (exit status 130): it ended with no word
STOPPED = "stopped (Ctrl-C): the answer is printed only once the whole search is done, so nothing is kept; for " \
          "an answer sooner: {less}"


def less(args: argparse.Namespace) -> str:
    """What to ask for less of (``LESS``), naming ``--time`` only where it can be given: it is refused
    beside ``--samples`` and ``--workers`` (``_check_options``)."""
    if args.samples is None and args.workers is None:
        return LESS
    return "a smaller --max-stalls, --max-turns or --samples"

#: cards left in the draw pile up to which every benchmark position finished within 10 s
#: (docs/endgame.md, "Measured"): a full position and a view (every split) at stall budget 0 and
#: at one stall each, and at two (more stalls reach no further)
REACH_10_S = {("position", 0): 11, ("view", 0): 8, ("position", 1): 5, ("view", 1): 3, ("position", 2): 3,
              ("view", 2): 2}


#: the most nodes one sampled world took (``--samples``), by (stall budget each, cards left in the
#: draw pile): (a view, a view with buried pile cards); None: more than 3,000,000 (docs/endgame.md,
#: "One sampled world"). A size not listed takes the next one listed above it.
WORLD_NODES: dict[tuple[int, int], tuple[int | None, int | None]] = {
    (0, 2): (13, 16), (0, 3): (48, 66), (0, 4): (97, 166), (0, 5): (1_195, 2_658), (0, 6): (2_767, 7_251),
    (0, 8): (101_118, 223_938), (0, 10): (1_094_943, None),
    (1, 2): (4_536, 8_583), (1, 3): (93_598, 223_342), (1, 4): (903_747, 1_338_530), (1, 5): (None, None),
    (2, 2): (199_761, 385_636), (2, 3): (None, None),
}
#: the seconds of Python each world with buried pile cards costs besides its nodes (its own fill
#: drawn, and solved on its own: 3-6 ms measured with a few nodes a world)
BURIED_WORLD_SECONDS = 0.006


def world_nodes(stalls: int, cards: int, buried: bool) -> int | None:
    """The most nodes a sampled world took at this size (``WORLD_NODES``; a size between two listed
    ones takes the larger); None when more than 3,000,000 or beyond the sizes measured."""
    stalls = min(stalls, 2)  # more stalls reach no further (docs/endgame.md)
    sizes = sorted(d for s, d in WORLD_NODES if s == stalls and d >= cards)
    return WORLD_NODES[stalls, sizes[0]][1 if buried else 0] if sizes else None


def samples_note(pos: Any, max_stalls: int, samples: int, max_nodes: int, asked: bool = True) -> str | None:
    """A warning before ``--samples N`` (``asked``; else the sample a view of too many splits gets
    without it) that will take more than 10 s: N worlds, each solved as a full position, at the most
    nodes a world took at this size (``world_nodes``) and, with buried pile cards, each world's own
    fill (``BURIED_WORLD_SECONDS``). None when it should be quicker."""
    buried = getattr(pos, "buried_count", 0)
    per_world = world_nodes(max_stalls, pos.deck_count, bool(buried))
    overhead = samples * BURIED_WORLD_SECONDS if buried else 0.0
    stalls = "no more discard-pile draws" if max_stalls == 0 else f"{max_stalls} discard-pile draw(s) each"
    worlds = f"{samples:,} sampled worlds" + (
        f" (each with its {buried} buried pile card(s) filled at random, solved on its own)" if buried else "")
    where = "(docs/endgame.md, \"One sampled world\")"
    if per_world is None:
        cost = (f"at {pos.deck_count} cards left and {stalls}, one world took more than 3,000,000 nodes on the "
                f"measured views {where}, so this may run until its node budget ({max_nodes:,} nodes, "
                f"{nodes_in_minutes(max_nodes)})")
    else:
        nodes = samples * per_world
        seconds = nodes / NODES_PER_SECOND + overhead
        if seconds <= 10:
            return None
        budget = (f"; more than --max-nodes {max_nodes:,}, so it may stop at the node budget"
                  if nodes > max_nodes else "")
        cost = (f"at {pos.deck_count} cards left and {stalls}, one world took up to {per_world:,} nodes on the "
                f"measured views {where}, so this may take about {seconds_in_words(seconds)} "
                f"(up to {nodes:,} nodes{budget})")
    solves = (f"--samples {samples:,} solves {worlds}" if asked else
              f"a view of more than {DEFAULT_SPLITS:,} distinct splits is solved in {worlds} without --samples")
    return (f"note: {solves}; {cost}. For an answer sooner: fewer --samples (the standard error grows as "
            "1/sqrt(N)), a smaller --max-stalls, or 'lcanalysis advise POSITION'")


def reach_note(pos: Any, max_stalls: int | None, max_turns: int | None, max_nodes: int,
               samples: int | None = None) -> str | None:
    """A warning before an exact solve that will likely run until its node budget: more cards left
    than the benchmarks finish within 10 s for this question; with ``samples``, ``samples_note``.
    None when it should be quick, or when a horizon (``max_turns``) bounds the depth instead."""
    from lcanalysis.game.position import Position

    if max_stalls is None or max_turns is not None:
        return None
    if pos.deck_count == 0 or len(pos.history) >= pos.rules.turn_cap:
        return None  # the round is over: the solver says so at once
    if samples is not None and not isinstance(pos, Position):
        return samples_note(pos, max_stalls, samples, max_nodes)
    kind = "position" if isinstance(pos, Position) else "view"
    reach = REACH_10_S[kind, min(max_stalls, 2)]
    if pos.deck_count <= reach:
        return None
    what = "a full position" if kind == "position" else "a view (every split of the unseen cards)"
    if kind == "view" and not pos.buried_count and pos.distinct_splits() > DEFAULT_SPLITS:
        return samples_note(pos, max_stalls, DEFAULT_SAMPLED, max_nodes, asked=False)
    return (f"note: {pos.deck_count} cards are left in the draw pile; the exact value of {what} at "
            f"{'no more discard-pile draws' if max_stalls == 0 else f'{max_stalls} discard-pile draw(s) each'} "
            f"finished within 10 s on the benchmarks only up to {reach} cards (docs/endgame.md, \"Measured\"), so "
            f"this may run until its node budget ({max_nodes:,} nodes, {nodes_in_minutes(max_nodes)}). For a hint "
            "now: 'lcanalysis advise POSITION'; for the deepest exact answer within S seconds: --time S")


def time_too_short(pos: Any, nodes: int, seconds: float, max_turns: int | None) -> str:
    """The error when ``--time`` ran out before the first level (no more discard-pile draws) finished;
    with more cards left than that level finished within 10 s on the benchmarks, a longer --time is
    no answer: say so, and where a hint comes from now."""
    from lcanalysis.game.position import Position

    ran_out = f"the time ran out before even the first level finished: {nodes:,} nodes searched in --time {seconds:g}"
    kind = "position" if isinstance(pos, Position) else "view"
    reach = REACH_10_S[kind, 0]
    if max_turns is not None or pos.deck_count <= reach:
        return f"{ran_out}; give a longer --time"
    what = "a full position" if kind == "position" else "a view"
    return (f"{ran_out}; with {pos.deck_count} cards in the draw pile a longer --time may not be enough: the first "
            f"level (no more discard-pile draws) of {what} finished within 10 s on the benchmarks only up to {reach} "
            "cards (docs/endgame.md, \"Measured\"). For a hint now: 'lcanalysis advise POSITION'; for a horizon "
            "instead: --max-turns T")


def nodes_in_minutes(nodes: int) -> str:
    """About how long ``nodes`` search nodes take (at ``cli.common.NODES_PER_SECOND``)."""
    minutes = nodes / NODES_PER_SECOND / 60
    return f"about {minutes:,.0f} minutes" if minutes >= 1 else "under a minute"


def precheck(args: argparse.Namespace) -> None:
    """What ``solve`` can refuse from its input alone, refused before the engine is compiled (``main`` calls
    this first: on a fresh install the compile takes a minute): the position, and options that would be
    ignored with it. Keeps the position for ``run`` (``args.read``)."""
    pos = load(args.position)
    _check_options(pos, args)
    args.read = pos


def run(args: argparse.Namespace) -> int:
    if getattr(args, "read", None) is None:  # (called without main's precheck)
        precheck(args)
    pos = args.read
    from lcanalysis.search import SearchBudgetExceeded, SearchError  # loaded before the memory ceiling is set

    try:
        with memory_ceiling(args.max_memory, less(args)):
            answer = _solve(pos, args)
    except KeyboardInterrupt:  # Ctrl-C stops the compiled search at once (search.common.abort_at): say so
        print(STOPPED.format(less=less(args)), file=sys.stderr, flush=True)
        raise
    except SearchError as exc:
        buried = getattr(pos, "buried_count", 0)  # (a view's; a full position has none)
        if buried and args.samples is None and "give samples" in str(exc):
            raise UsageError(TOO_MANY_FILLS.format(n=buried)) from None  # the options of this command
        raise
    except SearchBudgetExceeded as exc:
        if exc.seconds is not None:
            raise UsageError(time_too_short(pos, exc.nodes, exc.seconds, args.max_turns)) from None
        if args.time is not None:  # deepening: not even its first level fitted in the nodes
            raise UsageError(f"the node budget ran out before even the first level finished: {exc.nodes:,} nodes "
                             f"searched, and --max-nodes is {args.max_nodes:,}; give a larger --max-nodes") from None
        raise UsageError(f"the node budget ran out: {exc.nodes:,} nodes searched, and --max-nodes is "
                         f"{args.max_nodes:,}; give a larger --max-nodes, or ask for less: {less(args)}") from None
    add_match_note(pos, answer)
    if args.json:
        emit(answer)
    else:
        _print_moves(answer, pos.to_move)
    return 0


def add_match_note(pos: Any, answer: dict[str, Any]) -> None:
    """With a match score on the position, a note among ``answer``'s notes (the text prints them,
    the JSON carries them) that the values are points of this round, not chances to win the match."""
    from lcanalysis.match_equity import solve_match_note  # the words lc.solve's answer carries too

    note = solve_match_note(pos)
    if note:
        answer.setdefault("notes", []).append(note)


def _check_options(pos: Any, args: argparse.Namespace) -> None:
    """Options refused where they would be silently ignored: ``--leaf`` without a horizon, ``--seed``
    without ``--samples``, and ``--workers`` and ``--samples``, which split a view's unseen cards,
    for a full position (one split) and with ``--time`` (one search deepened)."""
    if args.leaf is not None and args.max_turns is None:  # refused, not silently ignored
        raise OptionError("--leaf is the value at the horizon of --max-turns: without --max-turns there is no "
                          "horizon; leave it out")
    args.leaf = args.leaf or "as-is"
    if args.seed is not None and args.samples is None:  # refused, not silently ignored
        raise OptionError("--seed is the seed of --samples: give it with --samples N, or leave it out: a view with "
                          f"more than {DEFAULT_SPLITS:,} distinct splits is sampled without --samples too, "
                          f"{DEFAULT_SAMPLED} splits with seed 0; --samples {DEFAULT_SAMPLED} --seed N samples "
                          "others")
    given = [name for name, value in (("--workers", args.workers), ("--samples", args.samples)) if value is not None]
    if not given:
        return
    from lcanalysis.game.position import Position

    what = " and ".join(given) + (" applies" if len(given) == 1 else " apply")
    if isinstance(pos, Position):
        raise OptionError(f"{what} to a view only, splitting its unseen cards; a full position has both hands "
                          "known, nothing to split: leave it out")
    if args.time is not None:
        raise OptionError(f"{what} without --time only: --time deepens one search over every split; leave one out")


def _solve(pos: Any, args: argparse.Namespace) -> dict[str, Any]:
    from lcanalysis.search.view_value import check_question

    if args.time is not None:
        # the deepening's own check of the question (as solve_deepening makes it), before the heartbeat
        # can say a word: counting 20,000 fills of buried cards takes a second on a loaded machine
        check_question(pos, None, args.max_turns, args.leaf, deepening=True)
        return solve_in_time(pos, args.time, args.max_stalls, args.max_turns, args.leaf, max_nodes=args.max_nodes)
    if args.max_stalls is None and args.max_turns is None:  # the library's words name no --time
        # the question's own problems first (a round over, another player's view): a bound would not mend them
        check_question(pos, None, None, args.leaf, samples=args.samples, deepening=True)
        raise OptionError(NO_BOUND)

    # the search's own checks of the question, before the warning below says a word
    check_question(pos, args.max_stalls, args.max_turns, args.leaf, samples=args.samples)
    bound = (f"stall budget {args.max_stalls} each" if args.max_stalls is not None else "no stall budget") + (
        f", horizon {args.max_turns} turns" if args.max_turns is not None else "")
    # (--time is refused beside --samples and --workers: no hint at an option that cannot be given)
    hint = ("" if args.max_stalls is None or args.max_stalls == 0 or args.samples is not None
            or args.workers is not None else "; --time S answers within S seconds")
    note = reach_note(pos, args.max_stalls, args.max_turns, args.max_nodes, args.samples)
    if note:
        print(note, file=sys.stderr, flush=True)
    from lcanalysis.search.common import heartbeat

    # each line: the nodes searched of --max-nodes, and for a view the samples, splits or fills done of their total
    with heartbeat(lambda line: _say(line + hint), lambda: f"solving ({bound})", budget=args.max_nodes,
                   every=STAGE_SILENCE):
        return solve_json(pos, max_stalls=args.max_stalls, max_turns=args.max_turns, leaf=args.leaf,
                          samples=args.samples, seed=args.seed or 0, workers=args.workers, max_nodes=args.max_nodes)


def solve_in_time(pos: Any, seconds: float, max_stalls: int | None, max_turns: int | None,
                  leaf: str, max_nodes: int | None = None) -> dict[str, Any]:
    from lcanalysis.search import solve_deepening
    from lcanalysis.search.common import heartbeat

    state = {"now": "starting"}

    def progress(line: str) -> None:
        state["now"] = line.split(":")[0]
        progress_line(line)

    with heartbeat(_say, lambda: f"deepening ({state['now']})", budget=max_nodes or 0, every=STAGE_SILENCE):
        analysis = solve_deepening(pos, seconds=seconds, nodes=max_nodes, on="stalls", max_turns=max_turns, leaf=leaf,
                                   max_level=30 if max_stalls is None else max_stalls, progress=progress)
    return analysis.to_json()


def _headline(answer: dict[str, Any]) -> str:
    """The answer's first line: its value, exact or an estimate, and under which bounds. When the
    bracket is pinned (``--time``: W_me = W_opp) the value is exact with no cap on discard-pile
    draws, the stronger statement, said first; the stall budget then bounds only the turns listed."""
    head = f"{answer.get('kind', 'value')}: {answer['value']:+.3f}"
    bounds = answer.get("bounds") or {}
    span = bounds.get("bracket")
    if span is not None:
        from lcanalysis.search.deepen import pinned

        if pinned(*span):
            capped = {k: v for k, v in bounds.items() if k != "bracket"}
            if not capped:  # deepening stopped where the bracket pins every turn
                return f"{head} (exact, with no cap on discard-pile draws: the bracket W_me = W_opp pins every turn)"
            return (f"{head} (exact, with no cap on discard-pile draws: the bracket W_me = W_opp pins it); "
                    f"the turns below are exact under {bounds_in_words(capped)}")
    return f"{head} ({'exact' if answer['exact'] else 'estimate'})" + (
        f" under {bounds_in_words(bounds)}" if bounds else "")


def value_line(mover: int, bounds: dict[str, Any] | None = None) -> str:
    """What every number of the answer is, in words: its unit and whose score less whose (the
    headline says whether it is exact); with a horizon (``max_turns`` in ``bounds``), the score
    where play stops, which may come before the round's end."""
    whose = f"in points: player {mover} (to move) minus player {1 - mover}"
    if (bounds or {}).get("max_turns") is not None:
        return (f"value: the expected score difference where play stops (the round's end, or the horizon, valued "
                f"as the headline says), {whose}")
    return f"value: the expected final score difference of this round, {whose}"


def _print_moves(answer: dict[str, Any], mover: int) -> None:
    kind = answer.get("kind", "value")
    print(_headline(answer))
    model = kind == "depth-limited estimate"  # a heuristic leaf: no sampling error to state
    for i, m in enumerate(answer["moves"]):
        err = "" if answer["exact"] else (f" ({HEURISTIC_REASON})" if model and m["stderr"] == 0
                                          else f" ± {m['stderr']:.3f}")
        print(f"{i + 1:3d}. {m['move']:<9} {m['value']:+9.3f}{err}")
    print(f"  {value_line(mover, answer.get('bounds'))}")
    if answer.get("method"):
        print(f"  method: {answer['method']}")
    for note in answer.get("notes", []):
        print(f"  {note}")
    print(f"nodes {answer.get('nodes', 0)}, {answer.get('seconds', 0):.3f} s")


def solve_json(position: Any, max_stalls: int | None = None, max_turns: int | None = None, leaf: str | None = "as-is",
               samples: int | None = None, seed: int = 0, workers: Any = None, max_nodes: int = 0) -> dict[str, Any]:
    from lcanalysis.search import solve  # loaded on use: 'lcanalysis --help' stays fast

    return solve(position, max_stalls, max_turns, leaf or "as-is", samples=samples, seed=seed,
                 workers=workers, max_nodes=max_nodes).to_json()
