"""Study: how big is the first player's advantage, and does the three-round match even it out?
(notebooks/article_first_player_advantage.ipynb)"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.options import MAX_STUDY_UNITS, check_seed
from lcanalysis.studies.estimate import Estimate, study_table, whole_argument

# --- first player's advantage and the three-round match ------------------------------------------


def _play_out(pos: Position, seed: int) -> tuple[int, int]:
    """Both seats played by the heuristic agent (compiled) to the end of the round."""
    from lcanalysis.core import kernel as K
    from lcanalysis.core import policy as P

    s = pos.state.copy()
    P.self_play_round(s, np.array([1, 1], dtype=np.int32), P.HEURISTIC_PARAMS, P.HEURISTIC_PARAMS, int(seed))
    return int(K.player_score(s, 0)), int(K.player_score(s, 1))


def swapped(pos: Position) -> Position:
    """The same deal with the two hands exchanged (a duplicate deal): the starter gets the other hand."""
    return Position.from_parts([pos.hand(1), pos.hand(0)], deck=pos.deck, rules=pos.rules, to_move=pos.to_move)


#: the columns of ``first_player_rounds``' table, one row a deal
ROUNDS_COLUMNS = ["deal", "starter_a", "other_a", "starter_b", "other_b", "diff_a", "diff_b", "starter_edge"]


def first_player_rounds(deals: int = 200, seed: int = 0, colors: int = 5, progress: bool = False,
                        out: str | None = None, allow_code_change: bool = False) -> Any:
    """Play each of ``deals`` deals twice with the hands swapped, heuristic agent on both seats,
    starter always seat 0. One row per deal: the starter's score minus the other's in each
    playing and their mean (the deal's luck cancels in ``starter_edge``). ``progress``: a bar.
    ``out``: a file each deal's row is written to as it is played; a run stopped (Ctrl-C) and
    started again with the same arguments plays only the deals missing from it (another file's
    settings are refused, and so is a file other code wrote unless ``allow_code_change``), and the
    table is the same as an unbroken run's."""
    from lcanalysis.studies.study_file import PLAY_CODE, simulation_file

    deals = whole_argument("first_player_rounds", "deals", deals, 1, MAX_STUDY_UNITS)
    seed = check_seed("first_player_rounds: seed", seed, most=None)
    rules = Rules(colors=colors)

    def played(key: tuple[int]) -> dict[str, Any]:
        (i,) = key
        pos = Position.deal(seed=seed * 1_000_003 + i, rules=rules, starter=0)
        a = _play_out(pos, seed=i)
        b = _play_out(swapped(pos), seed=i)
        return {"deal": i, "starter_a": a[0], "other_a": a[1], "starter_b": b[0], "other_b": b[1],
                "diff_a": a[0] - a[1], "diff_b": b[0] - b[1], "starter_edge": ((a[0] - a[1]) + (b[0] - b[1])) / 2}

    kept = simulation_file("first player study", ROUNDS_COLUMNS, ("deal",), ("deals", "seed", "colors"), PLAY_CODE,
                           __file__)
    return kept.kept_table(out, {"deals": deals, "seed": seed, "colors": colors}, [(i,) for i in range(deals)],
                           played, progress=progress, allow_code_change=allow_code_change, desc="duplicate deals",
                           unit="deal")


def first_player_summary(rounds: Any) -> dict[str, Estimate]:
    """The first player's edge per round (points, duplicate-deal mean), their chance of winning
    a round and of a drawn round (shares of the rounds, each with its standard error and interval
    over deals: the two playings of a deal share its cards, so they are one sample), and the edge
    as if the rounds were independent ("no duplicate": the standard error a single playing of
    every deal would give, for comparison)."""
    rounds = study_table("first_player_summary", rounds, ("diff_a", "diff_b", "starter_edge"), "first_player_rounds")
    diffs = np.concatenate([rounds["diff_a"].to_numpy(), rounds["diff_b"].to_numpy()])
    deals = np.concatenate([np.arange(len(rounds)), np.arange(len(rounds))])
    return {
        "edge (points per round)": Estimate.of(rounds["starter_edge"].to_numpy()),
        "edge, no duplicate (points)": Estimate.of(diffs),
        "starter wins the round": Estimate.proportion(diffs > 0, deals),
        "round is drawn": Estimate.proportion(diffs == 0, deals),
    }


def simulate_matches(matches: int = 100, seed: int = 0, rounds: int = 3, colors: int = 5,
                     progress: bool = False, out: str | None = None, allow_code_change: bool = False) -> Any:
    """Play ``matches`` matches of ``rounds`` rounds (heuristic agent on both seats, seat 0 starts
    round 1, later rounds started by the leader as the rules say). One row per match.
    ``progress``: a bar over the matches. ``out``: a file each match's row is written to as it is
    played; a run stopped (Ctrl-C) and started again with the same arguments plays only the
    matches missing from it (another file's settings are refused, and so is a file other code wrote
    unless ``allow_code_change``), and the table is the same as an unbroken run's."""
    from lcanalysis.game.match import Match
    from lcanalysis.studies.study_file import PLAY_CODE, simulation_file

    matches = whole_argument("simulate_matches", "matches", matches, 1, MAX_STUDY_UNITS)
    seed = check_seed("simulate_matches: seed", seed, most=None)
    rules = Rules(colors=colors, rounds=rounds)

    def played(key: tuple[int]) -> dict[str, Any]:
        (i,) = key
        m = Match(rules=rules, first_starter=0)
        starters = []
        for r in range(rounds):
            pos = m.new_round(seed=(seed * 1_000_003 + i) * 7 + r)
            starters.append(pos.to_move)
            m.record(_play_out(pos, seed=i * 7 + r), starter=pos.to_move)
        w = m.winner()
        return {"match": i, "total_0": m.totals[0], "total_1": m.totals[1],
                "first_round_diff": m.round_scores[0][0] - m.round_scores[0][1],
                **{f"starter_{r + 1}": st for r, st in enumerate(starters)}, "winner": -1 if w is None else w}

    columns = ["match", "total_0", "total_1", "first_round_diff", *(f"starter_{r + 1}" for r in range(rounds)),
               "winner"]
    kept = simulation_file("match study", columns, ("match",), ("matches", "seed", "rounds", "colors"), PLAY_CODE,
                           __file__)
    return kept.kept_table(out, {"matches": matches, "seed": seed, "rounds": rounds, "colors": colors},
                           [(i,) for i in range(matches)], played, progress=progress,
                           allow_code_change=allow_code_change, desc="matches", unit="match")


def match_summary(matches: Any) -> dict[str, Estimate]:
    """The round-1 starter's (seat 0) chance to win the match and to win round 1, and the edge in points."""
    matches = study_table("match_summary", matches, ("total_0", "total_1", "first_round_diff", "winner"),
                          "simulate_matches")
    diff = (matches["total_0"] - matches["total_1"]).to_numpy()
    decided = matches["winner"].to_numpy() >= 0
    return {
        "round-1 starter wins round 1": Estimate.proportion(matches["first_round_diff"].to_numpy() > 0),
        "round-1 starter wins the match": Estimate.proportion(matches["winner"].to_numpy() == 0),
        "match decided (not drawn)": Estimate.proportion(decided),
        "match edge (points)": Estimate.of(diff),
        "round-1 starter starts round 2": Estimate.proportion(matches["starter_2"].to_numpy() == 0)
        if "starter_2" in matches else Estimate(math.nan, math.nan, 0),
    }


#: the match summary's chances of the round-1 starter, drawn in the first-player article's Figure 3
MATCH_CHANCES = ("round-1 starter wins round 1", "round-1 starter wins the match", "round-1 starter starts round 2")


def match_chances(summary: dict[str, Estimate]) -> dict[str, Estimate]:
    """The round-1 starter's chances from ``match_summary``: winning round 1, the match, and
    starting round 2 (each a proportion, against an even 0.5)."""
    return {k: summary[k] for k in MATCH_CHANCES}
