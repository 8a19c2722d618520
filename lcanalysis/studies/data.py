"""The files in ``data/`` that the notebooks read, each with a ``.cmd`` sidecar holding the command
that regenerates it (``lcanalysis studies data``; see data/README.md)."""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import Any

from lcanalysis.game.position import Position
from lcanalysis.studies.first_player import first_player_rounds, simulate_matches
from lcanalysis.studies.opening import simulated_colours, wager_grid, wager_models_vs_play
from lcanalysis.studies.stalling import stalling_study

# --- data files ----------------------------------------------------------------------------------

DATA_COMMANDS = {
    "positions": "lcanalysis studies data --only positions",
    "wager_grid": "lcanalysis studies data --only wager_grid",
    "first_player_rounds": "lcanalysis studies data --only first_player_rounds --deals 20000",
    "matches": "lcanalysis studies data --only matches --matches 10000",
    "colours": "lcanalysis studies data --only colours --rounds 20000",
    "wager_models": "lcanalysis studies data --only wager_models --rounds 2000 --mc 2000",
    "stalling": "lcanalysis studies data --only stalling --positions 400",
}


def grid_draws() -> tuple[int, ...]:
    """The draws left of ``wager_grid.csv``'s columns: every other one from none, and the most a
    round of the default rules has (21: the deal, the player to move), each from the ``2k + 10``
    unseen cards of ``k`` draws left in a round (``unseen_total="round"``)."""
    from lcanalysis.wagers.canonical import START_UNSEEN, most_round_draws

    most = most_round_draws(START_UNSEEN)
    return (*range(0, most, 2), most)


def data_command(key: str, root: str = "data", deals: int = 20000, matches: int = 10000, seed: int = 0,
                 rounds: int | None = None, mc: int = 2000, positions: int = 400) -> str:
    """The command that writes data file ``key`` with these sizes and seed (``write_data``'s
    arguments): a small or reseeded run's sidecar must not claim to be the published run's."""
    sizes = {"first_player_rounds": f"--deals {deals}", "matches": f"--matches {matches}",
             "colours": f"--rounds {rounds or 20000}", "wager_models": f"--rounds {rounds or 2000} --mc {mc}",
             "stalling": f"--positions {positions}"}
    command = f"lcanalysis studies data --only {key}"
    if key in sizes:  # the positions and the wager grid take no size and no seed
        command += f" {sizes[key]}" + (f" --seed {seed}" if seed else "")
    return command + (f" --root {shlex.quote(root)}" if root != "data" else "")


#: beside a data file whose rows two or more codes made (``--allow-code-change``): which made which
EARLIER_CODE = ".earlier_code.json"


def kept_while_made(path: str, make: Callable[[str], Any], **to_csv: Any) -> bool:
    """Write ``path`` (CSV, ``to_csv``'s options) from the table ``make(kept)`` returns, a study
    given the file ``kept`` (``path`` + ``.partial``) to keep its rows in as it makes them (its
    ``out``): a run stopped (Ctrl-C) and started again resumes it, and the file is the one an unbroken
    run writes; ``path`` is written whole or not at all (by a file renamed over it), and ``kept`` is
    removed once it is, the settings its rows were made with (and the code) recorded beside it
    (``path`` + ``.made.json``, ``study_file.write_made``). A run given a ``path`` so made, with the
    same settings by the same code (``StudyFile.kept_table`` raises ``Finished``), keeps it, saying so
    ("kept: FILE, finished"), and returns False (True when it wrote ``path``): a run stopped part way
    through ``studies data`` makes again only the files it had not finished. A kept file of other settings is
    refused, naming it, and so is one whose rows other code wrote (the study's ``allow_code_change``
    goes on: then the codes that made the rows, from the kept file's settings, are written beside
    ``path`` in ``path`` + ``.earlier_code.json``, which a run by one code removes)."""
    from lcanalysis.studies.study_file import (
        MADE,
        PARTIAL,
        Finished,
        OtherCodeError,
        OtherSettingsError,
        code_record,
        read_settings,
        write_made,
    )

    kept = path + PARTIAL
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    try:
        table = make(kept)
    except Finished:
        print(f"kept: {path}, finished (made with these settings by this code; delete it to make it again)",
              file=sys.stderr, flush=True)
        return False
    except OtherSettingsError as e:
        if e.path != kept:
            raise
        raise ValueError(f"{kept} holds the rows of a stopped run with other settings ({e.settings}): run that "
                         "command again to finish it, or delete the file") from None
    except OtherCodeError as e:
        if e.path != kept:
            raise
        raise ValueError(f"{kept} holds the rows of a stopped run by other code: it {e.was}. Delete the file to "
                         "start again, or, if the change cannot move these numbers, go on with --allow-code-change "
                         f"(the codes are then recorded in {path}{EARLIER_CODE})") from None
    record, mixed, settings = code_record(kept), path + EARLIER_CODE, read_settings(kept)
    table.to_csv(path + ".new", index=False, **to_csv)
    if os.path.exists(path + MADE):  # (the record of the file before: a run killed next must not take it for this)
        os.remove(path + MADE)
    os.replace(path + ".new", path)  # (a run killed as it writes leaves the file before whole, and its rows kept)
    write_made(path, settings)
    if record is not None:
        with open(mixed, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(record, indent=1) + "\n")
    elif os.path.exists(mixed):  # (an earlier run's, of another file)
        os.remove(mixed)
    os.remove(kept)
    return True


def write_data(root: str = "data", only: Sequence[str] | None = None, deals: int = 20000, matches: int = 10000,
               seed: int = 0, rounds: int | None = None, mc: int = 2000, positions: int = 400,
               allow_code_change: bool = False) -> list[str]:
    """Write the files the notebooks read; returns the paths written. Each file gets a ``.cmd``
    sidecar with the command that regenerates it. Each simulation shows a progress bar on
    standard error (at the published sizes from seconds to minutes each) and keeps its rows as it
    makes them (``kept_while_made``): stopped (Ctrl-C) and run again, it resumes, by the same code
    (the kept rows of other code are refused unless ``allow_code_change``)."""
    from lcanalysis.game.examples import EXAMPLES, example_text

    written = []

    def side(path: str, key: str) -> None:
        with open(path + ".cmd", "w", encoding="utf-8") as fh:
            fh.write(data_command(key, root, deals, matches, seed, rounds, mc, positions) + "\n")
        written.append(path)

    want = set(only or DATA_COMMANDS)
    if "positions" in want:
        d = os.path.join(root, "positions")
        os.makedirs(d, exist_ok=True)
        for name in EXAMPLES:
            path = os.path.join(d, f"{name}.json")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(json.loads(example_text(name)), indent=1) + "\n")
            side(path, "positions")
        path = os.path.join(d, "positions.txt")
        with open(path, "w", encoding="utf-8") as fh:
            fh.writelines(Position.deal(seed=s).view(0).to_string() + "\n" for s in range(5))
        side(path, "positions")
    if "wager_grid" in want:
        path = os.path.join(root, "tables", "wager_grid.csv")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        wager_grid(draws=grid_draws(), sums=range(9, 28), cards=3, unseen_total="round").to_csv(
            path, index=False, float_format="%.4f")
        side(path, "wager_grid")
    simulated = os.path.join(root, "simulated")
    if "first_player_rounds" in want:
        path = os.path.join(simulated, "first_player_rounds.csv")
        kept_while_made(path, lambda kept: first_player_rounds(deals=deals, seed=seed, progress=True, out=kept,
                                                               allow_code_change=allow_code_change))
        side(path, "first_player_rounds")
    if "matches" in want:
        path = os.path.join(simulated, "matches.csv")
        kept_while_made(path, lambda kept: simulate_matches(matches=matches, seed=seed, progress=True, out=kept,
                                                            allow_code_change=allow_code_change))
        side(path, "matches")
    if "colours" in want:
        path = os.path.join(simulated, "colours.csv")
        kept_while_made(path, lambda kept: simulated_colours(rounds=rounds or 20000, seed=seed, progress=True,
                                                             out=kept, allow_code_change=allow_code_change))
        side(path, "colours")
    if "wager_models" in want:
        path = os.path.join(simulated, "wager_models_vs_play.csv")
        kept_while_made(path, lambda kept: wager_models_vs_play(rounds=rounds or 2000, snap_turn=10, seed=seed,
                                                                n_mc=mc, progress=True, out=kept,
                                                                allow_code_change=allow_code_change),
                        float_format="%.4f")
        side(path, "wager_models")
    if "stalling" in want:
        path = os.path.join(simulated, "stalling.csv")
        kept_while_made(path, lambda kept: stalling_study(n=[positions, positions, positions // 5],
                                                          cards_left=[2, 3, 4], seed=seed, progress=True, out=kept,
                                                          allow_code_change=allow_code_change),
                        float_format="%.6g")
        side(path, "stalling")
    return written
