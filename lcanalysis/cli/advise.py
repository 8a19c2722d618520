"""``lcanalysis advise [POSITION] [--time S] [--seed N] [--top N] [--all] [--board] [--turn MOVE ...]
[--playout-policy staged|plain|stalling|tuned] [--endgame-splits uniform|model] [--hand-model-weights FILE]
[--json]``: the hint.

By default the best few turns, grouped by the card placed, with a verdict in words; ``--all``
lists every legal turn and draw; each ``--turn MOVE`` adds a line under the verdict on that turn (its
loss against the best, its place); ``--json`` prints every turn with its loss (docs/spec).
Bounded: the play-outs by ``--time`` (default 1 s, at most an hour); with 4 cards or fewer in the
draw pile (5 for a full position) the whole answer by ``--time`` (default up to 10 s), the endgame
search stopping by the clock a quarter of it (at most 1 s) early so that the play-outs can still answer should it not
reach one stall each, and by ``--max-nodes`` (default a billion); everything by ``--max-memory`` (default:
the machine's memory).

With a match score on the position (``match=3:40,110``) the play-outs' answer also gives each
turn's chance to win the match, from the match equity table (``lcanalysis.match_equity``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from lcanalysis import options  # the hint's numbers (the advisor's), read as the help is made: changed there, said here
from lcanalysis.cli.common import add_budget_options, describe, emit, legal_turns, load, memory_ceiling, stage_progress
from lcanalysis.options import MAX_SEED, OptionError, UsageError, nonneg, seconds

#: what ``advise`` without a position advises (a first try, shown on standard error)
DEFAULT_POSITION = "example:midround"
DEFAULT_TOP = 6  # placements the hint shows unless --top or --all says otherwise


def add_parser(sub: argparse._SubParsersAction, pos_help: str) -> None:
    p = sub.add_parser("advise", help="what should I play here? the best turns, each with its loss against the best",
                       description=describe(__doc__))
    p.add_argument("position", nargs="?", default=None,
                   help=f"{pos_help} (none given: the built-in {DEFAULT_POSITION}, and it says so). With a match "
                        "score on it (match=ROUND:TOTAL0,TOTAL1 in the string, like match=3:40,110; \"match\" in "
                        "JSON) each turn also shows its chance to win the match, and a note says whether the "
                        "match ranking agrees with the points ranking (near the end of the round, where the "
                        "endgame search ranks by points only, a note says the match is not taken into account)")
    p.add_argument("--time", type=seconds(options.MAX_TIME_BUDGET), default=None,
                   help="thinking time in seconds, kept on the wall clock (at most "
                        f"{options.MAX_TIME_BUDGET}). Default: {options.PLAYOUT_DEFAULT_SECONDS:g} s, and up to "
                        f"{options.ENDGAME_DEFAULT_SECONDS:g} s with {options.ENDGAME_CARDS} cards or fewer in the "
                        "draw pile (advisor.ENDGAME_CARDS; "
                        f"{options.FULL_POSITION_ENDGAME_CARDS} for a full position, both hands known: "
                        "advisor.FULL_POSITION_ENDGAME_CARDS), where the endgame search deepens until its answer "
                        f"converges. The play-outs are at most {options.ROLLOUTS_PER_SECOND:,} a second of it "
                        "(advisor.ROLLOUTS_PER_SECOND): a fast machine answers before the time is up, the clock cuts "
                        "them short on a slow or busy one")
    p.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0,
                   help="the seed of the sampled worlds (default 0; the same worlds in every run; the answer repeats "
                        "exactly when all of --time's play-outs fit, but where the clock cuts them short, how many "
                        "fit depends on the machine and its load, so answers can differ slightly between runs: "
                        "lcanalysis.advise in Python counts its play-outs and repeats exactly)")
    p.add_argument("--top", type=nonneg("--top"), default=None,
                   help=f"how many placements to show (default {DEFAULT_TOP}; 0: every placement, each with its best "
                        "draws; --all lists every draw as well, and is not given with --top)")
    p.add_argument("--all", action="store_true",
                   help="every legal turn, every draw choice, and what the values are in full")
    p.add_argument("--board", action="store_true", help="draw the position above the hint")
    p.add_argument("--turn", metavar="MOVE", action="append", default=None,
                   help="a turn you have in mind, like +B6/D or -W2/G: a line under the verdict gives its loss "
                        "against the best and its place among the legal turns, however far down the list it is "
                        "(a range, like 'at best 2 of 58', where the endgame search left turns only bounded); "
                        "again for each other turn, a line for each; a turn given twice is refused (default: none)")
    add_budget_options(p, "bound the exact endgame solver (a full position, "
                          f"{options.EXACT_ENDGAME_CARDS} cards or fewer in the draw pile) and the endgame search "
                          f"({options.ENDGAME_CARDS} cards or fewer; "
                          f"{options.FULL_POSITION_ENDGAME_CARDS} for a full position)",
                       when_out="the exact solver stops with an error (exit status 2); the endgame search answers "
                                "from the stall levels it finished, or, with none, hands over to play-outs, and "
                                "its notes say so")
    p.add_argument("--playout-policy", choices=options.PLAYOUT_POLICY_CHOICES, default=None,
                   help="the policy both sides play the play-outs with: plain, the tuned heuristic, or stalling, the "
                        "heuristic that also draws from a discard pile to gain turns (the best agent's play-out "
                        "policy, and the game review's), or tuned, the stalling heuristic with its weights tuned again "
                        f"on self-play, or staged: plain while the draw pile holds more than "
                        f"{options.STALLING_FROM_CARDS} cards, stalling from there; the answer's note names the one "
                        "played; the endgame search near the end "
                        f"is not affected (default: {options.PLAYOUT_POLICY_DEFAULT})")
    p.add_argument("--endgame-splits", choices=options.ENDGAME_SPLITS, default=None,
                   help="how the endgame search near the end weighs the ways the opponent's unknown cards may lie: "
                        "uniform, every split of the unseen cards alike (the view value of docs/spec), or model, each "
                        "by how likely the opponent-hand model makes the opponent's hand in it (with best in both "
                        "seats, the uniform view value came out above the results: docs/endgame.md, \"The view value "
                        f"against real play\") (default: {options.ENDGAME_SPLITS_DEFAULT})")
    p.add_argument("--hand-model-weights", metavar="FILE", default=None,
                   help="the opponent-hand model's weights to deal the play-outs' worlds by, and to weigh the "
                        "endgame search's splits by (with --endgame-splits model): a weights file as 'python -m "
                        "lcanalysis.studies.hand_model train' writes (default: for the play-outs the weights fitted on "
                        "the heuristic's self-play, for the endgame those fitted on the best agent's)")
    p.add_argument("--json", action="store_true", help="print the JSON answer of docs/spec/interchange.md")
    p.set_defaults(func=run, precheck=precheck)


def precheck(args: argparse.Namespace) -> None:
    """What ``advise`` can refuse from its input alone, refused before the engine is compiled (``main`` calls
    this first: on a fresh install the compile takes a minute): options that do not go together, the
    position, and each ``--turn`` read against the position's rules. Keeps what it read for ``run``
    (``args.read``: the position, its view, the turns)."""
    from lcanalysis.game.notation import hint_view  # (not the advisor's package: it loads the engine)

    if args.position is None:
        print(f"no position given: advising the built-in {DEFAULT_POSITION} "
              "(give a position: a JSON file, '-', an 'LC1;...' string or example:NAME)", file=sys.stderr)
    if args.all and args.top is not None:  # --all shows every turn: a --top beside it would be ignored
        raise OptionError("--all lists every turn: give --all or --top N, not both")
    if args.turn is not None and args.json:  # refused, not silently ignored
        raise OptionError("--turn adds a line to the text answer; --json gives every turn with its loss already: "
                          "give one of them")
    source = load(DEFAULT_POSITION if args.position is None else args.position)
    view, _ = hint_view(source)
    args.read = (source, view, legal_turns(view, args.turn))  # a turn given twice is refused, as by rollout
    args.weights = read_weights_option(args.hand_model_weights)


def read_weights_option(path: str | None) -> Any:
    """``--hand-model-weights FILE``'s weights (``hand_model.read_weights_file``), None without one; a file that
    does not read as one is refused, naming it and the problem."""
    if path is None:
        return None
    from lcanalysis.hand_model import read_weights_file

    try:
        return read_weights_file(path)
    except ValueError as e:
        raise OptionError(f"--hand-model-weights: {e}") from None


def run(args: argparse.Namespace) -> int:
    from lcanalysis.advisor import advise  # loaded on use: 'lcanalysis --help' stays fast
    from lcanalysis.search import SearchBudgetExceeded
    from lcanalysis.show.hint import hint_json, hint_text

    if getattr(args, "read", None) is None:  # (called without main's precheck)
        precheck(args)
    source, view, turn = args.read
    try:
        with memory_ceiling(args.max_memory, "a shorter --time"), stage_progress() as progress:
            analysis = advise(source, time_budget=args.time, seed=args.seed, wall_clock=True,
                              max_nodes=args.max_nodes, progress=progress, playout_policy=args.playout_policy,
                              endgame_splits=args.endgame_splits,
                              hand_model=args.weights)
    except SearchBudgetExceeded as exc:
        raise UsageError(f"the node budget of the exact endgame solver ran out: {exc.nodes:,} nodes searched, and "
                         f"--max-nodes is {args.max_nodes:,}; give a larger --max-nodes") from None
    if args.json:
        emit(hint_json(analysis, view))
    elif args.all:
        print(hint_text(analysis, view, top=None, draws=None, board=args.board, turn=turn))
    else:
        # the short answer: its footer in one line; --all lists every turn and explains the values in full
        print(hint_text(analysis, view, top=(DEFAULT_TOP if args.top is None else args.top) or None, board=args.board,
                        more="--all lists every turn and explains the values", brief=True, turn=turn))
    return 0
