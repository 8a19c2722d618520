"""The wager models against simulated play (``lcanalysis studies wager-sim``), kept as it goes.

At each snapshot turn: ``wagers.simulation.compare_models`` (the expeditions holding a number) and
``compare_decline`` (the untouched colours), the same tables, every standard error over the rounds (a
round's expeditions one sample: ``wagers.simulation.error_table``). Their long part, each row's Monte Carlo
predictions (milliseconds a row at the default 2,000 samples, about 2 s at a million), is made row
by row through ``StudyFile.kept_table``: with
``out`` each row's predictions are written to the file as they are made, and a run stopped (Ctrl-C)
and started again with the same settings makes only the rows missing, to the tables an unbroken run
prints, to the last digit (each row's seed is its own). The rounds are played again on resuming (at
most a minute or two: the compiled bot is fast, and the same seed deals the same rounds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: the parts of a snapshot turn, each a table: the expeditions holding a number, the untouched colours
PARTS = ("models", "decline")


def wager_sim(rounds: int = 2000, snap_turns: Sequence[int] = (4, 20), seed: int = 0, n_mc: int = 2000, file=None,
              progress: bool = False, out: str | None = None, allow_code_change: bool = False) -> list[Any]:
    """``compare_models`` then ``compare_decline`` at each of ``snap_turns`` (the tables printed to
    ``file``), every row's predictions kept in ``out`` as they are made (module docstring; without
    it, in memory). A file made with other settings is refused, naming them, and so is one whose
    rows other code wrote unless ``allow_code_change``. Returns each table and its settings
    (``compare_models``' and ``compare_decline``'s ``(df, meta)``), in the order printed."""
    from lcanalysis.studies.estimate import whole_argument
    from lcanalysis.studies.study_file import WAGER_CODE, simulation_file
    from lcanalysis.wagers import simulation as W

    seed = whole_argument("wager_sim", "seed", seed)
    turns = [int(whole_argument("wager_sim", "snap_turns", t, 0)) for t in snap_turns]
    n_models = max(len(W.PREDICTION_MODELS), len(W.DECLINE_MODELS))
    models = [f"model_{k}" for k in range(n_models)]  # (the models' names hold commas)
    kept = simulation_file("wager-sim study", ["snap_turn", "part", "row", "realized", *models],
                           ("snap_turn", "part", "row"), ("rounds", "snap_turns", "seed", "n_mc"), WAGER_CODE,
                           __file__, text_keys=("part",))
    identity = {"rounds": rounds, "snap_turns": turns, "seed": seed, "n_mc": n_mc}
    kept.refuse_other_settings(out, identity)  # (before the rounds: 500,000 of them take minutes)
    # every part's rows first (the rounds are quick): a turn with too few is refused before any prediction
    parts = {}
    for t in turns:
        rows, scores = W._snapshots(rounds, t, seed, progress)
        parts[t, "models"] = (*W.holding_a_number(rows, t), scores)
        parts[t, "decline"] = (*W.untouched_colours(rows), scores)
    for rows, _shares, round_of, _scores in parts.values():  # (error_table's refusal of too few rounds, before
        W.error_table({}, rows[:, W.F_FINAL].astype(float), round_of)  # any prediction)

    def predicted(key: tuple[int, str, int]) -> dict[str, Any]:
        t, part, i = key
        rows, shares, _, _ = parts[t, part]
        if part == "models":
            values = W.predictions_of_row(rows[i], float(shares[i]), n_mc, seed + 1 + i)
        else:
            values = W.decline_predictions_of_row(rows[i], float(shares[i]), n_mc, seed + i)
        return {"snap_turn": t, "part": part, "row": i, "realized": int(rows[i, W.F_FINAL]),
                **dict(zip(models, values, strict=False))}

    units = [(t, part, i) for t in turns for part in PARTS for i in range(len(parts[t, part][0]))]
    table = kept.kept_table(out, identity, units, predicted, progress=progress, allow_code_change=allow_code_change,
                            desc="predictions (expeditions and untouched colours)", unit="row")
    answers = []
    for t in turns:
        for part in PARTS:
            rows, _shares, round_of, scores = parts[t, part]
            made = table[(table["snap_turn"] == t) & (table["part"] == part)]
            names = W.PREDICTION_MODELS if part == "models" else W.DECLINE_MODELS
            preds = {name: made[m].to_numpy(float) for name, m in zip(names, models, strict=False)}
            answers.append(W.models_answer(preds, rows, round_of, scores, rounds, t, seed, file=file)
                           if part == "models" else W.decline_answer(preds, rows, round_of, rounds, t, seed, file=file))
            if file is not None:
                print(file=file)
    return answers
