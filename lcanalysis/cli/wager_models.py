"""``lcanalysis wager POSITION --color C --models [LIST]``: every wager model of docs/wagers.md at once.

One table, a row per model and number of wagers placed now: the mean score, the chance of a profit
and what each wager adds, each number marked exact or given with its standard error; below it, each
model's assumptions in a line, the samples and seed of the sampled ones, and which model the spec's
``wager`` answer uses. ``--json``: each model's ``to_json()`` by name, with the turns and draws used.
The models come from ``wagers.models.analyze_view_models``; this module only reads its options and
writes its answer.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from lcanalysis.options import MAX_SEED, MAX_WAGER_SAMPLES, WAGER_SAMPLES_DEFAULT, WAGER_VIEW_MODELS, nonneg, number

#: the opponent model's settings when none are given (``analyze_view_models``'s; a test checks they agree)
SHARE_DEFAULT = 1.0
P_PICKUP_DEFAULT = 0.1
KEEP_UNOPENED_DEFAULT = 0.5
#: the options that set the sampled models, refused without ``--models`` (where nothing is sampled)
MODEL_OPTIONS = (("samples", "--samples"), ("seed", "--seed"), ("share", "--share"), ("p_pickup", "--p-pickup"),
                 ("keep_unopened", "--keep-unopened"))
#: the models computed exactly (the others are sampled, compiled)
EXACT_MODELS = ("canonical", "decline_at_end")
#: the model the spec's ``lcanalysis wager`` answer is (docs/spec/interchange.md)
SPEC_MODEL = "canonical"


def model_list(text: str) -> tuple[str, ...]:
    """``--models``'s value: model names split at commas, or ``all``; refused naming the models there are."""
    names = [t.strip() for t in text.split(",")]
    if names == ["all"]:
        return WAGER_VIEW_MODELS
    unknown = [n for n in names if n not in WAGER_VIEW_MODELS]
    if unknown:
        looks_like_position = any(c in text for c in ":;/.") or text == "-"
        raise argparse.ArgumentTypeError(
            f"no wager model named {', '.join(map(repr, unknown))}; the models are {', '.join(WAGER_VIEW_MODELS)} "
            "(or all, the default)"
            + ("; a position goes before --models: lcanalysis wager POSITION --color R --models"
               if looks_like_position else ""))
    return tuple(m for m in WAGER_VIEW_MODELS if m in names)


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``--models`` on the ``wager`` parser."""
    p.add_argument("--models", nargs="?", const="all", type=model_list, default=None, metavar="LIST",
                   help="every wager model of docs/wagers.md in one table, or those named (commas between: "
                        f"{','.join(WAGER_VIEW_MODELS)}; --models alone: all); their turns and draws come from the "
                        "position. Default: not given, the canonical model's answer alone, as the spec gives it")
    p.add_argument("--samples", type=nonneg("--samples", MAX_WAGER_SAMPLES, 2, "one sample gives no standard error"),
                   default=None, metavar="N",
                   help=f"with --models: Monte Carlo samples a row of each sampled model (default "
                        f"{WAGER_SAMPLES_DEFAULT:,}; 2 to {MAX_WAGER_SAMPLES:,})")
    p.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=None, metavar="N",
                   help="with --models: the sampled models' seed (default 0)")
    p.add_argument("--share", type=number("--share", most=1.0), default=None, metavar="F",
                   help=f"with --models: the fraction of your turns this colour may take in the turn models, 0 to 1 "
                        f"(default {SHARE_DEFAULT:g}: every turn it wants)")
    p.add_argument("--p-pickup", type=number("--p-pickup", most=1.0), default=None, metavar="P",
                   help=f"with --models: the chance you pick up a card the opponent discards and you can use, 0 to 1 "
                        f"(default {P_PICKUP_DEFAULT:g}, what fits simulated play)")
    p.add_argument("--keep-unopened", type=number("--keep-unopened", most=1.0), default=None, metavar="P",
                   help="with --models: the chance the opponent keeps a card of a colour it has not opened, 0 to 1 "
                        f"(default {KEEP_UNOPENED_DEFAULT:g})")


def check_options(args: argparse.Namespace) -> None:
    """Refuse a model option given without ``--models`` (the canonical answer samples nothing), and
    ``--draws`` with it (the models take their turns and draws from the position)."""
    from lcanalysis.options import OptionError

    if args.models is None:
        given = [flag for dest, flag in MODEL_OPTIONS if getattr(args, dest) is not None]
        if given:
            raise OptionError(f"argument {given[0]}: it sets the sampled wager models: give --models too (without it "
                              "the answer is the canonical model's, exact, nothing sampled)")
    elif args.draws is not None:
        raise OptionError("argument --draws: not with --models: every model takes its turns and draws from the "
                          "position (your turns left, both players drawing from the deck; the draws one fewer)")


def settings(args: argparse.Namespace) -> dict[str, Any]:
    """The sampled models' settings: those given, the defaults for the rest."""
    def given(value: Any, default: Any) -> Any:
        return default if value is None else value

    return {"n": given(args.samples, WAGER_SAMPLES_DEFAULT), "seed": given(args.seed, 0),
            "share": given(args.share, SHARE_DEFAULT), "p_pickup": given(args.p_pickup, P_PICKUP_DEFAULT),
            "keep_unopened": given(args.keep_unopened, KEEP_UNOPENED_DEFAULT)}


def run_models(args: argparse.Namespace, view: Any, full_position: bool) -> int:
    """The models' table, or with ``--json`` their JSON, for the view of the player to move."""
    from lcanalysis.cli.common import emit
    from lcanalysis.core import first_compile
    from lcanalysis.core.features import turns_left, useful_draws
    from lcanalysis.wagers.canonical import color_state_from_view
    from lcanalysis.wagers.models import analyze_view_models

    options = settings(args)
    color_state_from_view(view, args.color)  # a colour the game has not refused before any compile
    if set(args.models) - set(EXACT_MODELS):  # the compile's notice and bar first, not within the models' bar
        first_compile.ready(first_compile.WAGER_MODELS)
    mover = view.to_move == view.viewer
    turns, draws = turns_left(int(view.deck_count), mover), useful_draws(int(view.deck_count), mover)
    results = analyze_view_models(view, args.color, models=args.models, progress=True, **options)
    if args.json:
        emit(models_json(results, turns, draws, options))
    else:
        print(models_text(results, turns, draws, int(view.deck_count), options, full_position, view.viewer))
    return 0


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _sampled(results: dict[str, Any]) -> bool:
    return any(a.sampled for a in results.values())


def models_json(results: dict[str, Any], turns: int, draws: int, options: dict[str, Any]) -> dict[str, Any]:
    """``{"color", "turns", "draws", "samples", "seed", "share", "p_pickup", "keep_unopened", "spec_model",
    "models": {name: to_json() + "model", "exact", "marginals"}}``; ``samples`` and ``seed`` null when
    no model was sampled. Each marginal: what the ``wagers``-th wager adds, with its standard error."""
    sampled = _sampled(results)
    color = next(iter(results.values())).color
    return {
        "color": color, "turns": turns, "draws": draws,
        "samples": options["n"] if sampled else None, "seed": options["seed"] if sampled else None,
        "share": options["share"], "p_pickup": options["p_pickup"], "keep_unopened": options["keep_unopened"],
        "spec_model": SPEC_MODEL,
        "models": {name: {**a.to_json(), "model": a.model, "exact": not a.sampled,
                          "marginals": [{"wagers": o.wagers, "adds": float(a.marginal(o.wagers)),
                                         "stderr": a.marginal_stderr(o.wagers)}
                                        for o in a.by_wagers if o.wagers >= 1]}
                   for name, a in results.items()},
    }


def _decimals(stderr: float, least: int) -> int:
    """Decimals enough to show ``stderr`` (at least ``least``): 0.004 points is not '± 0.00'."""
    d = least
    while 0 < stderr < 10.0 ** -d and d < 6:
        d += 1
    return d


def _number(value: Any, stderr: float, exact: bool, least: int, sign: bool) -> str:
    """An exact number as it is; an estimate with '± its standard error'."""
    d = least if exact else _decimals(stderr, least)
    text = f"{float(value):{'+' if sign else ''}.{d}f}"
    return text if exact else f"{text} ± {stderr:.{d}f}"


def _assumes(name: str, a: Any, options: dict[str, Any]) -> str:
    """A model's assumptions, in a few words."""
    from lcanalysis.wagers.models import share_text

    turns = a.inputs.get("turns", -1)
    budget = math.ceil(options["share"] * turns - 1e-9) if turns >= 0 else 0
    share = f"the colour may take {budget} of them (share {share_text(options['share'])})"
    opponent = (f"the opponent keeps the cards it needs (one of a colour it has not opened with chance "
                f"{options['keep_unopened']:g}); you pick up its discards you can use with chance "
                f"{options['p_pickup']:g}")
    turned = _count(turns, "turn")
    return {
        "canonical": f"every card of the colour you hold or draw in {_count(a.draws, 'draw')} that fits is played; "
                     "wagers placed now or never",
        "decline_at_end": "as canonical, but a colour with nothing on it is opened only if its cards end in a "
                          "profit (an upper bound)",
        "turns": f"{turned} left, one card placed a turn, cards held and placed as late as possible; {share}",
        "turns_eager": f"as turns ({turned}, share {share_text(options['share'])}), but each card placed as soon "
                       "as it is held",
        "opponent": f"as canonical ({_count(a.draws, 'draw')}), but {opponent}",
        "turns_opponent": "turns and opponent together",
    }[name]


def models_text(results: dict[str, Any], turns: int, draws: int, deck: int, options: dict[str, Any],
                full_position: bool = False, viewer: int = 0) -> str:
    """The models' table as a player reads it, the models' assumptions under it."""
    from lcanalysis.game.cards import color_name

    first = next(iter(results.values()))
    name = color_name((first.color or "?").upper())
    sampled = _sampled(results)
    lines = [
        f"{name} expedition, every wager model asked (docs/wagers.md): {_count(turns, 'turn')} left, "
        f"{_count(draws, 'useful draw')} from the deck ({_count(deck, 'card')} left; both players drawing from it)",
        (f"estimates: Monte Carlo, {options['n']:,} samples a row, seed {options['seed']}; "
         "each ± is the standard error of the number before it") if sampled else "every model asked is exact",
        *([f"  a full position, seen as the models ask from the view of the player to move (player {viewer}): the "
           "opponent's hand counts among the unseen cards"] if full_position else []),
        "",
    ]
    width = max(len(n) for n in results) + 2
    rows = [["model", "wagers", "how", "mean score", "P(profit)", "a wager adds", ""]]
    for model, a in results.items():
        best = a.best_wagers if len(a.by_wagers) > 1 else None
        for i, o in enumerate(a.by_wagers):
            adds = (_number(a.marginal(o.wagers), a.marginal_stderr(o.wagers), o.exact, 2, True)
                    if o.wagers >= 1 else "")
            rows.append([model if i == 0 else "", str(o.wagers), "exact" if o.exact else "estimate",
                         _number(o.mean, o.stderr, o.exact, 2, True),
                         _number(o.p_positive, o.p_positive_stderr, o.exact, 3, False), adds,
                         "best" if o.wagers == best else ""])
    wagered = any(o.wagers >= 1 for a in results.values() for o in a.by_wagers)
    widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
    for r in rows:
        cells = [r[0].ljust(max(width, widths[0])), r[1].rjust(widths[1]), r[2].ljust(widths[2]),
                 r[3].rjust(widths[3]), r[4].rjust(widths[4])]
        if wagered:  # (no row with a wager: no column of what one adds)
            cells += [r[5].rjust(widths[5]), r[6]]
        lines.append(("  " + "  ".join(cells)).rstrip())
    if not wagered:
        lines.append(f"  no row with a wager: you hold no {name.lower()} wager, or your {name.lower()} expedition "
                     "already holds a number (wagers go down from the hand, now or never, before any number)")
    lines.append("")
    lines.append("  what each model assumes:")
    for model, a in results.items():
        lines.append(f"  {model.ljust(width)}{_assumes(model, a, options)}")
    lines.append("")
    lines.append(f"the answer of 'lcanalysis wager' without --models (docs/spec/interchange.md) is the {SPEC_MODEL} "
                 f"model's: exact, with {_count(draws, 'draw')} unless --draws says otherwise")
    return "\n".join(lines)
