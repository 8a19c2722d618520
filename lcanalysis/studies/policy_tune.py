"""Study: tune the play-out policy's weights by coordinate search on compiled duplicate self-play.

``python -m lcanalysis.studies.policy_tune [--deals N] [--passes P] [--seed S] [--out FILE]``

The search agents value a turn by playing the round out with a compiled policy (``core.policy``:
``STALLING_PARAMS`` for ``best``). Those weights were tuned for the plain heuristic, before the
stalling term was added, and never again. This study tunes them again:

1. **Deals.** ``deals`` training deals (``Position.deal(first + k)``, ``first`` = ``seed`` times
   ``SEED_SPAN``) and as many held-out deals (``first + HELD_OUT + k``), each played twice with the
   seats swapped (duplicate), all inside numba (``core.policy.duplicate_differences``): about 60
   microseconds a round.
2. **Coordinate search.** From ``STALLING_PARAMS``, each tunable weight (``STEPS``) is moved up, then
   down, by its step. A move is kept when the candidate beats the incumbent **on a panel** of two
   opponents: the incumbent itself and the plain heuristic (``HEURISTIC_PARAMS``, as an outside
   reference), paired by deal. It must gain against the heuristic (not only exploit the incumbent:
   tuned against the incumbent alone, a policy found +4.8 points against it but only +0.6 against the
   heuristic), and the mean of the two gains must exceed ``Z`` standard errors. A pass that keeps no
   move halves every step; the search stops after ``passes`` passes.
3. **Held out.** The result is measured on the held-out deals against the starting weights and the
   heuristic, and so is the starting policy against the heuristic.

The result is a policy *stronger in self-play*; whether it makes the search agent stronger is a
separate measurement (a tournament, docs/agents.md "Screening a change"). Everything follows from the
seed: the same command writes the same file.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from lcanalysis.core import policy as P
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.options import CommandParser, run_script
from lcanalysis.progress import progress_bar

#: the weights' names, in ``core.policy``'s parameter order
NAMES = ("A", "QF", "B", "DANGER", "DANGER_NEW", "DENY", "DECK", "STALL", "CROWD", "PILE_MIN", "TURN")
#: the tuned weights and their first steps (STALL and CROWD are switches: left as they are)
STEPS = {"A": 0.05, "QF": 0.1, "B": 0.1, "DANGER": 0.15, "DANGER_NEW": 0.1, "DENY": 0.15, "DECK": 0.5,
         "PILE_MIN": 0.5, "TURN": 0.15}
#: a move is kept when the panel's mean gain exceeds Z standard errors
Z = 2.0
#: a seed's deals are numbers ``seed * SEED_SPAN + k``: training from 0, held out from ``HELD_OUT``
SEED_SPAN, HELD_OUT = 10**8, 10**7
#: the shipped settings (the test reproduces them)
DEALS, PASSES, SEED = 30_000, 4, 0
#: decimals kept in the file
DIGITS = 4


def deal_states(n: int, seed: int, held_out: bool = False, colors: int = 5) -> np.ndarray:
    """The seed's ``n`` training (or held-out) deals as kernel states (``core.kernel`` layout), one a row."""
    rules = Rules(colors=colors)
    first = seed * SEED_SPAN + (HELD_OUT if held_out else 0)
    return np.stack([Position.deal(first + k, rules).state for k in range(n)])


def gains(deals: np.ndarray, candidate: np.ndarray, incumbent: np.ndarray,
          incumbent_vs_heuristic: np.ndarray) -> np.ndarray:
    """Per deal, the candidate's gain on the panel: the mean of its score difference against the
    incumbent and of its gain over the incumbent against the heuristic (both duplicate)."""
    against_incumbent = P.duplicate_differences(deals, candidate, incumbent)
    over_incumbent = P.duplicate_differences(deals, candidate, P.HEURISTIC_PARAMS) - incumbent_vs_heuristic
    return np.stack([against_incumbent, over_incumbent])


def mean_se(x: np.ndarray) -> tuple[float, float]:
    return float(x.mean()), float(x.std() / np.sqrt(len(x)))


def tune(deals: int = DEALS, passes: int = PASSES, seed: int = SEED, colors: int = 5,
         start: np.ndarray | None = None, progress: bool = True) -> dict[str, Any]:
    """The coordinate search of the module docstring; returns the weights, the kept moves and the
    held-out measurement."""
    started = time.perf_counter()
    # on a bar, step by step: the two sets of deals, each weight of each pass (a few seconds each, the kept
    # steps written above it), the three held-out measurements
    bar = progress_bar(total=2 + passes * len(STEPS) + 3, progress=progress, desc="tuning the play-out policy",
                       unit="step")
    train = deal_states(deals, seed, colors=colors)
    bar.update(1)
    held = deal_states(deals, seed, held_out=True, colors=colors)
    bar.update(1)
    begin = (P.STALLING_PARAMS if start is None else start).astype(np.float64).copy()
    current = begin.copy()
    steps = dict(STEPS)
    base = P.duplicate_differences(train, current, P.HEURISTIC_PARAMS)
    kept: list[dict[str, Any]] = []
    for p in range(passes):
        moved = False
        for name, step in steps.items():
            bar.update(1)
            i = NAMES.index(name)
            for sign in (1.0, -1.0):
                cand = current.copy()
                cand[i] = max(0.0, cand[i] + sign * step)
                if cand[i] == current[i]:
                    continue
                g = gains(train, cand, current, base)
                m, se = mean_se(g.mean(axis=0))
                if m > Z * se and g[1].mean() > 0.0:
                    current = cand
                    base = P.duplicate_differences(train, current, P.HEURISTIC_PARAMS)
                    moved = True
                    kept.append({"pass": p, "weight": name, "value": float(cand[i]), "gain": round(m, 4),
                                 "gain_se": round(se, 4), "against_incumbent": round(float(g[0].mean()), 4),
                                 "over_incumbent_vs_heuristic": round(float(g[1].mean()), 4)})
                    if progress:
                        bar.write(f"pass {p}: {name} {cand[i]:g}, panel gain {m:+.3f} ± {se:.3f} "
                                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
                    break
        if not moved:
            steps = {k: v / 2 for k, v in steps.items()}
    held_out = {}
    for label, a, b in (("tuned vs start", current, begin), ("tuned vs heuristic", current, P.HEURISTIC_PARAMS),
                        ("start vs heuristic", begin, P.HEURISTIC_PARAMS)):
        m, se = mean_se(P.duplicate_differences(held, a, b))
        held_out[label] = {"mean": round(m, 4), "se": round(se, 4)}
        bar.update(1)
    bar.close()
    return {"params": {n: round(float(v), DIGITS) for n, v in zip(NAMES, current)},
            "start": {n: round(float(v), DIGITS) for n, v in zip(NAMES, begin)},
            "settings": {"deals": deals, "passes": passes, "seed": seed, "colors": colors, "z": Z,
                         "steps": STEPS},
            "kept": kept, "held_out": held_out, "seconds": round(time.perf_counter() - started, 1)}


def params_array(result: dict[str, Any]) -> np.ndarray:
    """The weights of a ``tune`` result (or its file) as ``core.policy``'s parameter vector."""
    return np.array([result["params"][n] for n in NAMES], dtype=np.float64)


def summary_text(result: dict[str, Any]) -> str:
    h = result["held_out"]
    moves = ", ".join(f"{k['weight']} {k['value']:g}" for k in result["kept"]) or "none"
    return (f"kept moves: {moves}\n"
            f"held-out deals ({result['settings']['deals']:,}, each seat, points a round, ± standard error): "
            f"tuned vs start {h['tuned vs start']['mean']:+.2f} ± {h['tuned vs start']['se']:.2f}; "
            f"tuned vs heuristic {h['tuned vs heuristic']['mean']:+.2f} ± {h['tuned vs heuristic']['se']:.2f}; "
            f"start vs heuristic {h['start vs heuristic']['mean']:+.2f} ± {h['start vs heuristic']['se']:.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lcanalysis.studies.policy_tune [--deals N] [--passes P] [--seed S] [--out FILE]``"""
    from lcanalysis.options import MAX_SEED, nonneg

    args_list = list(sys.argv[1:] if argv is None else argv)
    ap = CommandParser(prog="python -m lcanalysis.studies.policy_tune", description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=nonneg("--deals", minimum=10), default=DEALS,
                    help=f"training deals, each seat (and as many held out; default {DEALS:,})")
    ap.add_argument("--passes", type=nonneg("--passes", minimum=1), default=PASSES,
                    help=f"passes over the weights (default {PASSES})")
    ap.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=SEED)
    ap.add_argument("--colors", type=int, choices=(5, 6), default=5)
    ap.add_argument("--out", help="the result (JSON): the weights, the kept moves, the held-out measurement")
    args = ap.parse_args(args_list)
    if args.out:
        ap.check_output("--out", args.out)
    result = tune(args.deals, args.passes, args.seed, args.colors)
    result = {"command": "python -m lcanalysis.studies.policy_tune " + shlex.join(args_list), **result}
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=1)
            fh.write("\n")
    print(summary_text(result))
    print("weights: " + ", ".join(f"{k}={v:g}" for k, v in result["params"].items()))
    return 0


if __name__ == "__main__":
    run_script(main)
