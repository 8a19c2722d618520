"""``lcanalysis wager POSITION --color C [--draws K] [--json]``: what a wager is worth in one colour;
with ``--models [LIST]``, under every wager model of docs/wagers.md at once (``cli.wager_models``).

The canonical wager model of docs/spec/interchange.md: ``K`` more draws from the deck are a
uniformly random set of the unseen cards; wagers placed now (0 up to those in hand) are never
revisited; every number of the colour in hand or drawn that is above the expedition's top is
played. Exact: no sampling.
"""

from __future__ import annotations

import argparse
from typing import Any

from lcanalysis.cli import wager_models
from lcanalysis.cli.common import describe, emit, load
from lcanalysis.options import nonneg

COLOUR_HELP = "the colour: Y yellow, B blue, W white, G green, R red (P purple in the 6-colour game)"


def add_parser(sub: argparse._SubParsersAction, pos_help: str) -> None:
    p = sub.add_parser("wager", help="what wagers are worth in one colour (canonical model, exact; --models: every "
                                     "model)",
                       description=describe(__doc__))
    p.add_argument("position", help=pos_help)
    p.add_argument("--color", "--colour", required=True, help=COLOUR_HELP)
    p.add_argument("--draws", type=nonneg("--draws"), default=None,
                   help="cards you will still draw from the deck (at most the draw pile's size); default: "
                        "your turns left but one, if both players draw from the deck")
    p.add_argument("--json", action="store_true", help="print the JSON answer of docs/spec/interchange.md (with "
                                                       "--models: each model's answer by name)")
    wager_models.add_options(p)
    # the sampled models run compiled (plain Python took 2 to 3 s a row of 20,000 samples; compiled, 0.01 s)
    p.set_defaults(func=run, precheck=wager_models.check_options, compiled=lambda args: args.models is not None)


def run(args: argparse.Namespace) -> int:
    from lcanalysis.game.notation import read_view
    from lcanalysis.game.position import Position
    from lcanalysis.options import refused
    from lcanalysis.wagers import wager
    from lcanalysis.wagers.canonical import (
        DrawsOutOfRangeError,
        UnknownColorError,
        check_round_not_over,
        color_state_from_view,
    )

    position = load(args.position)
    view = read_view(position)  # a full position: the view of the player to move
    check_round_not_over(view)  # before the default draws: with no turn left they mean nothing
    try:  # --color and --draws read against the position: refused as arguments, naming the option
        state = color_state_from_view(view, args.color)  # (a colour of this game, before any model runs)
        if args.models is not None:
            return wager_models.run_models(args, view, full_position=isinstance(position, Position))
        analysis = wager(view, args.color, args.draws)  # no --draws: the viewer's useful draws, as in Python
    except UnknownColorError as exc:
        raise refused("--color", str(exc)) from None
    except DrawsOutOfRangeError as exc:
        raise refused("--draws", str(exc)) from None
    if args.json:
        emit(analysis.to_json())
        return 0
    print(report(analysis, state, view.deck_count, args.draws is None,
                 full_position=isinstance(position, Position), viewer=view.viewer))
    return 0


def _cards(values: Any, wagers: int = 0) -> str:
    parts = [str(v) for v in values] + ["w"] * wagers
    return " ".join(parts) if parts else "none"


def report(analysis: Any, state: Any, deck: int, default_draws: bool, full_position: bool = False,
           viewer: int = 0) -> str:
    """The answer in words a player reads: the choices, what each wager adds, break-even. For a
    ``full_position``, a line says that it was seen from ``viewer``'s view, the other hand unseen."""
    from lcanalysis.core.kernel import EXPEDITION_COST
    from lcanalysis.game.cards import color_name
    from lcanalysis.wagers.canonical import break_even_draws, mean_score

    name = color_name((analysis.color or "?").upper())
    lines = [
        f"{name} expedition, {analysis.draws} more draw(s) from the deck ({deck} card{'s' if deck != 1 else ''} left"
        + ("; the draws you can expect if both players draw from the deck" if default_draws else "") + ")",
        "canonical wager model: exact, no sampling (docs/spec/interchange.md)",
        *([f"  a full position, seen as the model asks from the view of the player to move (player {viewer}): the "
           "opponent's hand counts among the unseen cards"] if full_position else []),
        f"  on your expedition: {_cards(state.placed, state.placed_wagers)}; in your hand: "
        f"{_cards(state.hand, state.hand_wagers)}; unseen {name.lower()} numbers: {_cards(state.unseen)} "
        f"(of {state.unseen_total} unseen cards)",
        "",
        f"  {'wagers now':>10}  {'mean score':>10}  {'P(profit)':>9}  {'P(>= 0)':>8}  {'middle half':>13}",
    ]
    for o in analysis.by_wagers:
        lines.append(f"  {o.wagers:>10}  {float(o.mean):>+10.2f}  {float(o.p_positive):>9.3f}  "
                     f"{float(o.p_break_even):>8.3f}  {o.quantile(0.25):>+5d} to {o.quantile(0.75):<+5d}")
    best = analysis.best_wagers
    lines.append("")
    if len(analysis.by_wagers) > 1:
        gains = ", ".join(f"{float(g):+.2f}" for g in analysis.marginals)
        lines.append(f"  each wager placed now adds {gains} points to the mean; best: {best} wager(s)")
    elif state.placed:  # why the table has no row for a wager (the model: wagers from the hand, now or never)
        lines.append(f"  no wager can be placed: your {name.lower()} expedition already holds a number")
    elif not state.hand_wagers:
        lines.append(f"  no row with a wager: you hold no {name.lower()} wager, and the model places only wagers "
                     "from your hand, now or never")
    top = max(state.placed) if state.placed else 0
    placed_sum = sum(state.placed) + sum(v for v in state.hand if v > top)
    dead = sorted(v for v in state.hand if v < top)  # below the expedition's top: never played, not counted
    untouched = not state.placed and not state.placed_wagers and not state.hand and not state.hand_wagers
    if untouched:
        lines.append(f"  you hold nothing of this colour: opening it costs {EXPEDITION_COST} points before the first "
                     "number")
    else:
        need = EXPEDITION_COST - placed_sum
        held = "hold or have placed" if not dead else \
            f"have placed or can still play (not your {_cards(dead)}: below your {top})"
        lines.append(f"  the numbers you {held} sum to {placed_sum}: "
                     + (f"1 more point of {name.lower()} numbers is needed to break even" if need == 1 else
                        f"{need} more points of {name.lower()} numbers are needed to break even"
                        if need > 0 else "the expedition already breaks even"))
    for o in analysis.by_wagers:
        # an expedition left empty (nothing placed, no number held, no wager placed now) scores 0 at
        # 0 draws only because it is never opened: ask from 1 on (no more draws than the pile holds)
        empty = not state.placed and not state.placed_wagers and not state.hand and not o.wagers
        most = min(deck, state.unseen_total)
        k = break_even_draws(state, o.wagers, max_draws=most, min_draws=1 if empty else 0)
        lead = f"  with {o.wagers} wager(s)" + (", once opened," if empty else "") + " the mean score reaches 0 "
        if k is None:
            lines.append(lead + f"with no number of draws the draw pile allows (up to {most})")
        elif all(mean_score(state, j, o.wagers) >= -1e-9 for j in range(k, most + 1)):
            lines.append(lead + f"from {k} draw(s) on" if k else  # (not "reaches 0 from 0 draw(s) on")
                         f"  with {o.wagers} wager(s) the mean score is 0 or more however many draws are left, "
                         "none included")
        else:  # (the bonus and the untouched colour's 0 make the mean rise and fall at a few draws)
            lines.append(lead + f"first at {k} draw(s), but not at every number of draws after")
    return "\n".join(lines)
