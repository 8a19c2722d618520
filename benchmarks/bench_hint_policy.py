"""Which play-outs should the hint use mid-round? Its plain and stalling play-outs against `best`'s rollouts.

The hint values a turn by play-outs of the plain heuristic (the default) or of the stalling heuristic
(``playout_policy="stalling"``, `best`'s own play-out policy and the game review's). At 4 cards the
stalling ones were no closer to the endgame search's exact values (docs/agents.md, "The hint with the
stalling play-outs"); at 5-10 cards a tester's game showed the plain ones 25-35 points off `best`'s
rollouts on turns where a pile draw gains a turn ("The tutor and the review"). This measures both on a
fixed set of views from 5 to 15 cards left, where no exact value can be had: the reference is
``rollout(view, turns, agent="best", hand_model=True)``, `best` in both seats from the view's own
worlds (dealt by the opponent-hand model, as the hint deals them), the same worlds for both turns.

The views: a dealt round (5 colours, seed ``s``) played by ``heuristic`` in both seats until ``deck``
cards are left (the issue's way of making realistic late positions), the mover's view, for each
``--decks`` and seeds 1..``--views``. For each view: the hint by each policy (1 s counted, seed 1, the
advisor's defaults otherwise), its top turn and value; then the rollout reference of the two top turns
(one when they agree). Recorded: each policy's value of its top turn against the reference's value of
that turn (is the number honest?) and the reference's value of the stalling hint's top turn less the
plain hint's (which choice is better?), paired over the trials, with its standard error.

Rows go to ``--out`` as each view finishes (a first line of the settings, then CSV; the same command
resumes; a file of other settings is refused).

    python benchmarks/bench_hint_policy.py --decks 5 7 9 11 13 15 20 25 30 --views 8 --trials 150 \\
        --workers 2 --out data/simulated/hint_policy_midround.csv

(about 70 minutes on 2 workers; docs/agents.md, "Which play-outs from 15 cards down": the hint's default
plays the stalling play-outs from 15 cards down since this measurement)
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import statistics
import sys
import time

from lcanalysis.studies import rollout as rollout_study
from lcanalysis.studies.estimate import Estimate, clustered_mean
from lcanalysis.studies.study_file import ADVICE_CODE, ALLOW_CODE_CHANGE_HELP, StudyFile

POLICIES = ("plain", "stalling")
FIELDS = ["seed", "deck", "turns_in",
          "plain_top", "plain_value", "plain_stderr", "stalling_top", "stalling_value", "stalling_stderr",
          "ref_plain", "ref_plain_stderr", "ref_stalling", "ref_stalling_stderr", "gap", "gap_stderr",
          "trials", "seconds"]
ROWS_FILE = StudyFile("hint policy benchmark", "# lcanalysis bench_hint_policy ", FIELDS, keys=("seed", "deck"),
                      text_keys=("plain_top", "stalling_top"), identity_keys=("trials", "agent", "players"),
                      code=ADVICE_CODE).made_by(rollout_study.__file__).made_by(__file__)
REFERENCE_AGENT = "best"
PLAYERS = "heuristic"  # who plays the round down to the view
HINT_SEED, ROLLOUT_SEED = 1, 0
NEAR = 2.0  # points: "within 2 points", the mark of an honest value


def view_at(seed: int, deck: int, players: str = PLAYERS):
    """The mover's view once ``players`` in both seats have played deal ``seed`` down to ``deck`` cards
    left, and how many turns that took; None when the round ended first."""
    from lcanalysis.agents import make_agent
    from lcanalysis.game.position import Position

    agent = make_agent(players)
    pos = Position.deal(seed=seed)
    turns = 0
    while pos.deck_count > deck and not pos.is_over() and turns < 400:  # (a cap: two stallers could loop)
        pos.push(agent.choose(pos.view(pos.to_move), seed * 1000 + turns))
        turns += 1
    if pos.is_over() or pos.deck_count != deck:
        return None
    return pos.view(pos.to_move), turns


def measure(seed: int, deck: int, trials: int, workers: int, players: str = PLAYERS) -> dict | None:
    """One view's row (``FIELDS``), or None when deal ``seed`` does not reach ``deck`` cards."""
    from lcanalysis.advisor import advise

    found = view_at(seed, deck, players)
    if found is None:
        return None
    view, turns_in = found
    t0 = time.perf_counter()
    row: dict = {"seed": seed, "deck": deck, "turns_in": turns_in}
    for policy in POLICIES:
        top = advise(view, seed=HINT_SEED, playout_policy=policy).moves[0]
        row.update({f"{policy}_top": top.move, f"{policy}_value": round(top.value, 3),
                    f"{policy}_stderr": round(top.stderr, 3)})
    turns = list(dict.fromkeys([row["plain_top"], row["stalling_top"]]))
    reference = rollout_study.rollout(view, turns=turns, agent=REFERENCE_AGENT, trials=trials, seed=ROLLOUT_SEED,
                                      workers=workers, hand_model=True)
    ref = {m.move: m for m in reference.moves}
    for policy in POLICIES:
        m = ref[row[f"{policy}_top"]]
        row.update({f"ref_{policy}": round(m.value, 3), f"ref_{policy}_stderr": round(m.stderr, 3)})
    if len(turns) == 1:
        gap, gap_se = 0.0, 0.0
    else:  # the paired difference: the worse turn's loss against the better, with its standard error
        plain, stalling = ref[row["plain_top"]], ref[row["stalling_top"]]
        worse = plain if plain.value < stalling.value else stalling
        gap = (stalling.value - plain.value)
        gap_se = float(worse.loss_stderr or 0.0)
    row.update({"gap": round(gap, 3), "gap_stderr": round(gap_se, 3), "trials": trials,
                "seconds": round(time.perf_counter() - t0, 1)})
    return row


def _stage(deck: int) -> str:
    return ("5-7 cards" if deck <= 7 else "8-11 cards" if deck <= 11 else "12-15 cards" if deck <= 15
            else "16-40 cards")


def gap_deals(rows: list[dict]) -> list[int]:
    """The deal seed of each row: a deal's views at several deck sizes are one round, not independent."""
    return [int(r["seed"]) for r in rows]


def by_deal(rows: list[dict], values: list[float]) -> Estimate:
    """The mean of ``values`` (one a row) with its standard error and Student's t interval over the deals
    (``estimate.clustered_mean``: a deal's views one sample)."""
    return clustered_mean(values, gap_deals(rows))


def summary(rows: list[dict]) -> list[str]:
    """Per stage and over all: each policy's value error against the reference, and the choice."""
    lines = []
    stages = sorted({_stage(int(r["deck"])) for r in rows}, key=lambda s: int(s.split("-")[0]))
    for label in [*stages, "all"]:
        chosen = [r for r in rows if label == "all" or _stage(int(r["deck"])) == label]
        if not chosen:
            continue
        lines.append(f"{label} ({len(chosen)} views):")
        for policy in POLICIES:
            errors = [float(r[f"{policy}_value"]) - float(r[f"ref_{policy}"]) for r in chosen]
            near = sum(abs(e) <= NEAR for e in errors)
            lines.append(f"  {policy:>8} hint: value within {NEAR:g} points of `best`'s rollouts {near}/{len(chosen)}; "
                         f"mean error {statistics.mean(errors):+.2f}, mean absolute error "
                         f"{statistics.mean(abs(e) for e in errors):.2f} (worst {max(errors, key=abs):+.2f})")
        gaps = [float(r["gap"]) for r in chosen]
        differ = [r for r in chosen if r["plain_top"] != r["stalling_top"]]
        better = sum(float(r["gap"]) > 2 * float(r["gap_stderr"]) for r in differ)
        worse = sum(float(r["gap"]) < -2 * float(r["gap_stderr"]) for r in differ)
        gap = by_deal(chosen, gaps)
        low, high = gap.ci95
        lines.append(f"  top turns differ in {len(differ)}/{len(chosen)}; the stalling hint's top less the plain "
                     f"hint's, by `best`'s rollouts: {gap.mean:+.2f} points a view [95% {low:+.2f}, {high:+.2f}, "
                     f"over {len(set(gap_deals(chosen)))} deals]; stalling's better by two standard errors in "
                     f"{better}, plain's in {worse}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, nargs="+", default=[5, 7, 9, 11, 13, 15],
                    help="cards left in the draw pile at the views (default: 5 7 9 11 13 15)")
    ap.add_argument("--views", type=int, default=4, help="deal seeds 1..N at each deck size (default 4)")
    ap.add_argument("--trials", type=int, default=150, help="`best`'s rollouts a view (default 150)")
    ap.add_argument("--workers", type=int, default=1, help="processes for the rollouts (default 1)")
    ap.add_argument("--out", default=None, help="rows file, resumed by the same command (default: none)")
    ap.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    args = ap.parse_args(argv)
    if args.views < 1:
        ap.error(f"--views must be at least 1, got {args.views}")
    if args.trials < 2:
        ap.error(f"--trials must be at least 2, got {args.trials}")
    if any(not 5 <= d <= 40 for d in args.decks):
        ap.error(f"--decks must be from 5 (below, the hint's endgame search answers) to 40, got {args.decks}")
    argv = sys.argv[1:] if argv is None else argv
    command = f"python benchmarks/bench_hint_policy.py {shlex.join(argv)}"
    identity = {"trials": args.trials, "agent": REFERENCE_AGENT, "players": PLAYERS}
    units = [(seed, deck) for deck in args.decks for seed in range(1, args.views + 1)]
    rows: list[dict] = []
    with contextlib.ExitStack() as stack:
        write, done = (ROWS_FILE.open_or_exit(stack, args.out, identity, command,
                                              args.allow_code_change, units=units)
                       if args.out else (None, set()))
        if args.out:
            rows += ROWS_FILE.load(args.out).to_dict("records")
        for seed, deck in units:
            if (seed, deck) in done:
                continue
            row = measure(seed, deck, args.trials, args.workers)
            if row is None:
                print(f"seed {seed} never reaches {deck} cards: skipped", flush=True)
                continue
            if write is not None:
                write(row)
            rows.append(row)
            print(f"seed {seed} at {deck:2d} cards: plain {row['plain_top']} {row['plain_value']:+.2f} (ref "
                  f"{row['ref_plain']:+.2f} ± {row['ref_plain_stderr']:.2f}); stalling {row['stalling_top']} "
                  f"{row['stalling_value']:+.2f} (ref {row['ref_stalling']:+.2f} ± {row['ref_stalling_stderr']:.2f});"
                  f" gap {row['gap']:+.2f} ± {row['gap_stderr']:.2f} ({row['seconds']:.0f} s)", flush=True)
    print("\n".join(summary(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
