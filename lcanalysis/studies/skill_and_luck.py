"""Study: skill and luck in Lost Cities (notebooks/article_skill_and_luck.ipynb).

Three questions, each answered with its uncertainty:

1. **Skill.** Does the review's error rate (``lcanalysis.reviewer``: points lost a decision
   against the advisor's best turn) order our agents as their results do (random, greedy,
   heuristic, search from weakest to strongest)? ``review_rounds`` plays rounds of each agent
   against a common opponent, records them and reviews the agent's decisions;
   ``error_rates`` and ``error_rate_gaps`` summarise, with standard errors over rounds.
2. **Luck.** Is the luck of a deck draw zero on average, at every stage of the round and for
   each player? Both the review's luck (rollouts from the drawer's view) and the tournament's
   fast luck (``lcanalysis.tournaments.luck``) are checked: ``luck_by_stage``.
3. **Luck-adjusted results.** Does the result less the luck difference keep the mean and lose
   variance, and how many rounds does a strength question then need? ``luck_adjusted_summary``
   reads a luck-adjusted tournament (data/luck_adjusted_heuristic_vs_greedy.jsonl).

The published data are written by ``python -m lcanalysis.studies.skill_and_luck`` (see ``main``;
data/README.md names the commands).
"""

from __future__ import annotations

import itertools
import math
import os
import shlex
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as st

from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.options import CommandParser, run_script
from lcanalysis.studies.estimate import Estimate, ratio_estimate, welch_t
from lcanalysis.studies.study_file import ALLOW_CODE_CHANGE_HELP, PLAY_CODE, StudyFile

#: the agents from weakest to strongest, as their results order them (data/round_robin_4agents.txt:
#: Bradley-Terry ratings random -750, greedy +26, heuristic +300, search +424)
AGENTS = ("random", "greedy", "heuristic", "search")
#: the opponent every reviewed agent plays, so that all of them face the same kind of game
OPPONENT = "heuristic"
#: the stages of the round, by cards left in the draw pile before the draw (5 colours: 44 after the deal)
STAGES = ((33, 44, "early (44-33 cards left)"), (22, 32, "middle (32-22)"), (11, 21, "late (21-11)"),
          (1, 10, "end (10-1)"))
#: the stages' names, and the whole round, as ``luck_by_stage`` keys them
STAGE_NAMES = [name for _, _, name in STAGES] + ["whole round"]

# --- skill: reviewed rounds ----------------------------------------------------------------------


def _agent(name: str, search_ms: float) -> Any:
    from lcanalysis.agents import make_agent

    return make_agent(name, time_ms=search_ms) if name == "search" else make_agent(name)


def play_recorded_round(agents: Sequence[Any], seed: int, rules: Rules | None = None,
                        labels: Sequence[str] = ()) -> Any:
    """Play one round (``tournaments.runner.play_round``: agent p in seat p, seeing only its view)
    and return its full-deal game record."""
    from lcanalysis.game.records import record_round
    from lcanalysis.tournaments.runner import play_round

    rules = rules or Rules()
    turns: list[str] = []
    play_round(agents, seed, rules, 0, record=turns)
    return record_round(Position.deal(seed, rules, 0), turns, players=list(labels) or None)


def review_rounds(agents: Sequence[str] = AGENTS, rounds: int = 1, time_budget: float = 0.05, seed: int = 0,
                  opponent: str = OPPONENT, search_ms: float = 100.0, workers: int | None = 1,
                  progress: bool = False, search_floor: float | None = None) -> pd.DataFrame:
    """For each agent, ``rounds`` rounds against ``opponent`` (deal ``k`` is ``deal_seed(seed, k)``;
    the agent sits in seat ``k % 2``), each recorded and reviewed (``lcanalysis.reviewer`` at
    ``time_budget`` a decision, only the agent's decisions). One row per reviewed turn:

    - ``kind="decision"``: the agent's decision (``loss``, ``loss_stderr``, ``forced``, ``mark``,
      ``best``, ``played``, ``exact``), with the luck of its deck draw when it drew from the pile;
    - ``kind="draw"``: a deck draw of the opponent (its luck);
    - ``kind="round"``: the round's result from the agent's side (``result``) and the players' luck.

    Every deck draw also gets ``fast_luck``, the tournament's luck of the same draw
    (``tournaments.luck.deck_draw_luck``), for comparison. ``deck`` is the cards left in the pile
    before the turn; ``drawer`` is ``"agent"`` or ``"opponent"``. ``search_floor``: the review's
    (``reviewer.SEARCH_FLOOR`` when None; the published file was made before it, with 0)."""
    from lcanalysis.reviewer import SEARCH_FLOOR

    floor = SEARCH_FLOOR if search_floor is None else search_floor
    opp = _agent(opponent, search_ms)
    rows: list[dict[str, Any]] = []
    for name in agents:
        me = _agent(name, search_ms)
        for k in range(rounds):
            rows.extend(_review_round(name, me, opponent, opp, k, time_budget, seed, floor, workers, progress))
    return pd.DataFrame(rows)


def _review_round(name: str, me: Any, opponent: str, opp: Any, k: int, time_budget: float, seed: int,
                  floor: float, workers: int | None, progress: bool) -> list[dict[str, Any]]:
    """``review_rounds``' rows of round ``k`` of agent ``name`` (its decisions, the opponent's
    draws, then the round)."""
    from lcanalysis.reviewer import review
    from lcanalysis.tournaments.luck import deck_draw_luck
    from lcanalysis.tournaments.specs import deal_seed

    rules = Rules()
    rows: list[dict[str, Any]] = []
    seat = k % 2
    s = deal_seed(seed, k)
    seated = [me, opp] if seat == 0 else [opp, me]
    labels = [name, opponent] if seat == 0 else [opponent, name]
    rec = play_recorded_round(seated, s, rules, labels)
    fast = {}
    for step in rec.steps():
        if step.turn.move.draws_from_deck:
            fast[step.index] = deck_draw_luck(step.before.state, step.turn.move.code(rules.colors))[0]
    rv = review(rec, player=seat, time_budget=time_budget, seed=seed + k,
                executor="serial" if workers == 1 else None, workers=workers, progress=progress,
                search_floor=floor)
    base = {"agent": name, "opponent": opponent, "deal": k, "seed": s, "seat": seat}
    for d in rv.decisions:
        rows.append({**base, "kind": "decision", "index": d.index, "deck": d.deck, "drawer": "agent",
                     "played": d.played, "best": d.best, "loss": d.loss, "loss_stderr": d.loss_stderr,
                     "forced": d.forced, "mark": d.mark, "exact": d.exact, "luck": d.luck,
                     "luck_stderr": d.luck_stderr, "fast_luck": fast.get(d.index)})
    for x in rv.draws:
        rows.append({**base, "kind": "draw", "index": x.index, "deck": x.deck, "drawer": "opponent",
                     "played": x.played, "luck": x.luck, "luck_stderr": x.luck_stderr,
                     "fast_luck": fast.get(x.index)})
    p = rv.players[0]
    opp_luck = sum(x.luck for x in rv.draws)
    rows.append({**base, "kind": "round", "result": p.result, "luck": p.luck, "opponent_luck": opp_luck,
                 "luck_adjusted": p.luck_adjusted, "seconds": rv.seconds})
    return rows


#: the columns of a reviews file, in the order ``review_rounds``' table has them
REVIEW_COLUMNS = ["agent", "opponent", "deal", "seed", "seat", "kind", "index", "deck", "drawer", "played", "best",
                  "loss", "loss_stderr", "forced", "mark", "exact", "luck", "luck_stderr", "fast_luck", "result",
                  "opponent_luck", "luck_adjusted", "seconds"]


#: the reviews file: written a round at a time and resumed (``study_file.StudyFile``)
REVIEWS_FILE = StudyFile("skill-and-luck reviews", "# lcanalysis skill-and-luck reviews ", REVIEW_COLUMNS,
                         keys=("agent", "deal"), text_keys=("agent",),
                         identity_keys=("time", "seed", "search_floor", "opponent", "search_ms"),
                         many_rows=True, float_format="%.4f", version=("review_version", "review"),
                         code=PLAY_CODE).made_by(__file__)


def load_reviews(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A reviews file (``write_reviews``) as ``review_rounds``' table; its settings in ``attrs["identity"]``."""
    return REVIEWS_FILE.load(path)


def write_reviews(path: str, rounds: int, time_budget: float, seed: int = 0, search_floor: float | None = None,
                  agents: Sequence[str] = AGENTS, opponent: str = OPPONENT, search_ms: float = 100.0,
                  progress: bool = False, command: str | None = None, allow_code_change: bool = False) -> int:
    """``review_rounds`` written to ``path`` a round at a time, and resumed: the rounds of each
    agent already in the file are kept, the last one is reviewed again (it may be partial), and
    the rest are reviewed and appended; the file is the one an uninterrupted run writes (11
    CPU-minutes at the published size were lost to an interrupt). A file made with other settings
    is refused, and so is one another version of the review wrote (``reviewer.REVIEW_VERSION``, in
    the settings; an unversioned file, from before it, too): its last round
    done again and the rounds added would be today's review beside the file's. The rounds depend
    on the agents that play them too: a file whose rows other code of the agents, the engine or
    the round player wrote (``study_file.PLAY_CODE``), or whose settings name no code, is refused
    unless ``allow_code_change``; a file that holds every round asked for is not refused (nothing is
    added to it). ``command``: written to the ``.cmd`` sidecar. Returns the rounds reviewed now."""
    from lcanalysis.progress import progress_bar
    from lcanalysis.reviewer import REVIEW_VERSION, SEARCH_FLOOR

    floor = SEARCH_FLOOR if search_floor is None else search_floor
    identity = {"time": time_budget, "seed": seed, "search_floor": floor, "opponent": opponent,
                "search_ms": search_ms, "review_version": REVIEW_VERSION}
    units = [(name, k) for name in agents for k in range(rounds)]
    with REVIEWS_FILE.open(path, identity, command, allow_code_change, units=units) as (write, done):
        todo = [unit for unit in units if unit not in done]
        opp = _agent(opponent, search_ms)
        made: dict[str, Any] = {}
        for name, k in progress_bar(todo, desc="reviewed rounds", unit="round", progress=progress):
            me = made.setdefault(name, _agent(name, search_ms))
            write(_review_round(name, me, opponent, opp, k, time_budget, seed, floor, 1, False))
    return len(todo)


def error_rates(reviews: pd.DataFrame, agents: Sequence[str] = AGENTS) -> dict[str, Estimate]:
    """Per agent: the error rate (total loss / unforced decisions, points a decision) with its
    standard error over rounds (``Estimate.n``: unforced decisions)."""
    dec = reviews[(reviews.kind == "decision") & (~reviews.forced.astype(bool))]
    out = {}
    for name in agents:
        mine = dec[dec.agent == name]
        if mine.empty:
            continue
        g = mine.groupby("deal")["loss"]
        out[name] = ratio_estimate(g.sum().to_numpy(), g.size().to_numpy().astype(float))
    return out


def error_rate_table(reviews: pd.DataFrame, agents: Sequence[str] = AGENTS) -> pd.DataFrame:
    """``error_rates`` as a table: rounds, unforced decisions, error rate, standard error, 95%
    interval, and the marks (inaccuracies, mistakes, blunders) a round."""
    rates = error_rates(reviews, agents)
    dec = reviews[reviews.kind == "decision"]
    rows = []
    for name, e in rates.items():
        mine = dec[dec.agent == name]
        rounds = mine.deal.nunique()
        marks = mine["mark"].value_counts()
        rows.append({"agent": name, "rounds": rounds, "unforced decisions": e.n, "error rate": round(e.mean, 2),
                     "s.e.": round(e.stderr, 2), "95% low": round(e.ci95[0], 2), "95% high": round(e.ci95[1], 2),
                     **{f"{plural} a round": round(float(marks.get(m, 0)) / rounds, 2)
                        for m, plural in (("inaccuracy", "inaccuracies"), ("mistake", "mistakes"),
                                          ("blunder", "blunders"))}})
    return pd.DataFrame(rows).set_index("agent")


def error_rate_gaps(reviews: pd.DataFrame, agents: Sequence[str] = AGENTS) -> pd.DataFrame:
    """Each agent's error rate minus the next stronger one's (``agents`` weakest first), with the
    standard error (independent rounds), the 95% interval (Student's t, its degrees of freedom
    Welch-Satterthwaite's over the two agents' rounds, as each rate's own interval is t over its rounds),
    z = gap / s.e., and P(gap > 0), the normal approximation of how sure the sample makes us that the
    weaker agent errs more."""
    rates = error_rates(reviews, agents)
    names = [a for a in agents if a in rates]
    dec = reviews[(reviews.kind == "decision") & (~reviews.forced.astype(bool))]
    rounds = dec.groupby("agent")["deal"].nunique()  # each rate's independent samples (``ratio_estimate``)
    rows = []
    for weaker, stronger in itertools.pairwise(names):
        a, b = rates[weaker], rates[stronger]
        gap = a.mean - b.mean
        se = math.sqrt(a.stderr**2 + b.stderr**2)
        z = gap / se if se > 0 else math.nan
        _, _, half = welch_t(a.stderr, int(rounds[weaker]), b.stderr, int(rounds[stronger]))
        low, high = gap - half, gap + half  # (NaN: no interval, a side with no spread or under two rounds)
        rows.append({"gap": f"{weaker} - {stronger}", "points a decision": round(gap, 2), "s.e.": round(se, 2),
                     "95% low": round(low, 2), "95% high": round(high, 2),
                     "z": round(z, 2), "P(gap > 0)": round(float(st.norm.cdf(z)), 3) if se > 0 else math.nan})
    return pd.DataFrame(rows).set_index("gap")


def loss_check(reviews: pd.DataFrame) -> dict[str, Any]:
    """Is a decision's loss ever negative beyond noise? Over the unforced decisions: how many,
    how many have a loss below minus two standard errors, the lowest loss in standard errors,
    and whether every decision whose played turn is the best turn has loss 0 exactly."""
    dec = reviews[(reviews.kind == "decision") & (~reviews.forced.astype(bool))]
    est = dec[dec.loss_stderr > 0]
    z = est.loss / est.loss_stderr
    best = dec[dec.played == dec.best]
    return {"unforced decisions": len(dec), "estimated (not exact)": len(est),
            "below -2 s.e.": int((z < -2).sum()), "lowest loss / s.e.": round(float(z.min()), 2) if len(z) else None,
            "negative losses": int((dec.loss < 0).sum()),
            "played the best turn": len(best), "of them with loss 0": int((best.loss == 0).sum())}


# --- luck ------------------------------------------------------------------------------------------


def fast_luck_draws(deals: int = 20, seed: int = 0, first_deal: int = 0,
                    agents: Sequence[str] = ("heuristic", "greedy")) -> pd.DataFrame:
    """Every deck draw of ``deals`` duplicate deals of ``agents[0]`` against ``agents[1]`` (the
    deals of ``run_tournament(..., seed=seed, first_deal=first_deal)``), with its luck as the
    tournament rates it: one row per draw (``deal``, ``swap``, ``seat``, ``drawer`` (the agent),
    ``deck`` before the draw, ``luck``)."""
    from lcanalysis.agents import make_agent
    from lcanalysis.tournaments.runner import play_round
    from lcanalysis.tournaments.specs import deal_seed

    made = [make_agent(a) for a in agents]
    rows: list[dict[str, Any]] = []
    for d in range(first_deal, first_deal + deals):
        for swap in (0, 1):
            seated = made if swap == 0 else made[::-1]
            names = list(agents) if swap == 0 else list(agents)[::-1]
            draws: list[tuple[int, int, float]] = []
            play_round(seated, deal_seed(seed, d, 1), Rules(rounds=1), 0, draws=draws)
            rows.extend({"deal": d, "swap": swap, "seat": p, "drawer": names[p], "deck": left, "luck": x}
                        for p, left, x in draws)
    return pd.DataFrame(rows)


def review_luck_draws(deals: int = 10, time_budget: float = 0.1, seed: int = 0, first_deal: int = 2000,
                      agents: Sequence[str] = ("heuristic", "greedy"), hand_model: bool = False,
                      progress: bool = False) -> pd.DataFrame:
    """The review's luck of every deck draw (``review.draw_luck``, as ``lc.review`` rates it at
    ``time_budget`` a decision: rollouts from the drawer's view, the unseen cards dealt at random)
    beside the tournament's fast luck of the same draw (``fast_luck``), in ``deals`` rounds of
    ``agents[0]`` against ``agents[1]``, one a deal (deal ``k``: ``deal_seed(seed, k)``; seats
    alternate). Cheaper than a whole review: only the draws are rated. ``hand_model``: also the
    luck with the opponent's hand dealt by the opponent-hand model (``model_luck``,
    ``model_luck_stderr``; the same seed), as a one-player record's review rates it."""
    from lcanalysis.agents import make_agent
    from lcanalysis.progress import progress_bar

    made = [make_agent(a) for a in agents]
    rows = []
    for k in progress_bar(range(first_deal, first_deal + deals), desc="review luck", unit="deal", progress=progress):
        rows.extend(_review_luck_deal(k, made, agents, time_budget, seed, hand_model))
    return pd.DataFrame(rows)


def _review_luck_deal(k: int, made: Sequence[Any], agents: Sequence[str], time_budget: float, seed: int,
                      hand_model: bool) -> list[dict[str, Any]]:
    """``review_luck_draws``' rows of deal ``k``: one a deck draw."""
    from lcanalysis.reviewer import LUCK_SHARE, MIN_WORLDS, decision_seed, draw_luck
    from lcanalysis.rollouts import ROLLOUTS_PER_MS
    from lcanalysis.tournaments.luck import deck_draw_luck
    from lcanalysis.tournaments.specs import deal_seed

    rules = Rules()
    worlds = max(MIN_WORLDS, int(time_budget * LUCK_SHARE * 1000 * ROLLOUTS_PER_MS / 2))
    rows = []
    swap = k % 2
    seated = made if swap == 0 else made[::-1]
    names = list(agents) if swap == 0 else list(agents)[::-1]
    rec = play_recorded_round(seated, deal_seed(seed, k), rules, names)
    for step in rec.steps():
        if not step.turn.move.draws_from_deck:
            continue
        before = step.before
        view = before.view(step.player)
        luck_seed = decision_seed(seed, 1, step.index) + 2
        luck = draw_luck(view, step.turn.move, step.drawn, worlds, seed=luck_seed)
        row = {"deal": k, "seat": step.player, "drawer": names[step.player], "deck": before.deck_count,
               "luck": luck["luck"], "luck_stderr": luck["stderr"],
               "fast_luck": deck_draw_luck(before.state, step.turn.move.code(rules.colors))[0]}
        if hand_model:
            model = draw_luck(view, step.turn.move, step.drawn, worlds, seed=luck_seed, hand_model=True)
            row.update(model_luck=model["luck"], model_luck_stderr=model["stderr"])
        rows.append(row)
    return rows


#: the columns of a review-luck file (``review_luck_draws``' table; the last two with ``hand_model``)
REVIEW_LUCK_COLUMNS = ["deal", "seat", "drawer", "deck", "luck", "luck_stderr", "fast_luck", "model_luck",
                       "model_luck_stderr"]


def review_luck_file(hand_model: bool) -> StudyFile:
    """The review-luck file, written a deal at a time and resumed (``study_file.StudyFile``); with
    ``hand_model`` it has the two columns of the hand model's luck too."""
    return StudyFile("skill-and-luck review-luck", "# lcanalysis skill-and-luck review luck ",
                     REVIEW_LUCK_COLUMNS if hand_model else REVIEW_LUCK_COLUMNS[:-2], keys=("deal",),
                     identity_keys=("time", "seed", "hand_model", "agents"), many_rows=True, float_format="%.4f",
                     version=("review_version", "review"), code=PLAY_CODE).made_by(__file__)


def load_review_luck(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A review-luck file (``write_review_luck``) as ``review_luck_draws``' table; its settings in
    ``attrs["identity"]``."""
    hand_model = bool(review_luck_file(False).read_identity(path).get("hand_model"))
    return review_luck_file(hand_model).load(path)


def write_review_luck(path: str, deals: int, time_budget: float = 0.1, seed: int = 0, first_deal: int = 2000,
                      hand_model: bool = False, agents: Sequence[str] = ("heuristic", "greedy"),
                      progress: bool = False, command: str | None = None, allow_code_change: bool = False) -> int:
    """``review_luck_draws`` written to ``path`` a deal at a time, and resumed: the deals in the
    file are kept but the last (it may be partial: it is rated again), and the rest are rated and
    appended, giving the file an uninterrupted run writes. A file made with other settings is
    refused, and so is one another version of the review wrote (``reviewer.REVIEW_VERSION``; an
    unversioned file too), and one whose rows other code of the agents, the
    engine or the round player wrote (``study_file.PLAY_CODE``; an unversioned file too) unless
    ``allow_code_change``; a file that holds every deal asked for is not refused (nothing is added
    to it). ``command``: written to the ``.cmd`` sidecar. Returns the deals rated now."""
    from lcanalysis.agents import make_agent
    from lcanalysis.progress import progress_bar
    from lcanalysis.reviewer import REVIEW_VERSION

    identity = {"time": time_budget, "seed": seed, "hand_model": hand_model, "agents": list(agents),
                "review_version": REVIEW_VERSION}
    units = [(k,) for k in range(first_deal, first_deal + deals)]
    with review_luck_file(hand_model).open(path, identity, command, allow_code_change, units=units) as (write, done):
        todo = [k for (k,) in units if (k,) not in done]
        made = [make_agent(a) for a in agents]
        for k in progress_bar(todo, desc="review luck", unit="deal", progress=progress):
            write(_review_luck_deal(k, made, agents, time_budget, seed, hand_model))
    return len(todo)


def stage_of(deck: int) -> str:
    for low, high, name in STAGES:
        if low <= deck <= high:
            return name
    raise ValueError(f"{deck} cards left is no stage of a 5-colour round")


def luck_by_stage(draws: pd.DataFrame, column: str = "luck", by: str | None = None,
                  cluster: Sequence[str] = ("deal",)) -> dict[str, dict[str, Estimate]]:
    """The mean luck of a deck draw with its standard error, per stage of the round (``STAGES``)
    and overall; with ``by`` (a column such as ``"drawer"`` or ``"seat"``) per value of it too.
    ``{group: {stage: Estimate}}``; the group ``"all"`` holds every draw. The standard error is
    that of a ratio over clusters (``cluster``: the draws of one duplicate deal, both seatings of
    which share the pile, are one sample; draws of different deals are independent)."""
    d = draws[draws[column].notna() & draws["deck"].notna()].copy()
    d["stage"] = d["deck"].astype(int).map(stage_of)
    groups: dict[str, pd.DataFrame] = {"all": d}
    if by is not None:
        groups.update({f"{by} {k}": g for k, g in d.groupby(by)})
    keys = list(cluster)

    def estimate(g: pd.DataFrame) -> Estimate:
        if g.empty:
            return Estimate(math.nan, math.nan, 0)
        c = g.groupby(keys)[column]
        return ratio_estimate(c.sum().to_numpy(), c.size().to_numpy().astype(float))

    out: dict[str, dict[str, Estimate]] = {}
    for name, g in groups.items():
        est = {stage: estimate(g[g.stage == stage]) for _, _, stage in STAGES}
        est["whole round"] = estimate(g)
        out[name] = est
    return out


def review_luck_by_stage(reviews: pd.DataFrame, column: str = "luck") -> dict[str, dict[str, Estimate]]:
    """``luck_by_stage`` of the deck draws in reviewed rounds (``review_rounds``), by drawer (the
    reviewed agent or its opponent). Every agent plays the same deals, so the rounds of one deal
    share the pile's order: a deal is one cluster (with few deals, few independent samples)."""
    draws = reviews[reviews.kind.isin(["decision", "draw"])]
    return luck_by_stage(draws, column, by="drawer", cluster=("deal",))


def review_luck_check(draws: pd.DataFrame) -> dict[str, Estimate]:
    """From ``review_luck_draws``: the mean luck of a draw by the review and by the fast luck, the
    mean of their difference on the same draws (a deal one cluster), and each summed over a
    player's draws in a round (one round a deal: independent samples)."""
    d = draws.assign(diff=draws.luck - draws.fast_luck)
    columns = [("luck", "review's luck"), ("fast_luck", "fast luck")]
    if "model_luck" in d:
        columns.insert(1, ("model_luck", "review's luck, hand model"))
    out = {}
    for column, name in [*columns, ("diff", "review's minus fast luck")]:
        out[f"{name}, a draw"] = luck_by_stage(d, column)["all"]["whole round"]
    for column, name in columns:
        out[f"{name}, a player's round"] = Estimate.of(d.groupby(["deal", "seat"])[column].sum().to_numpy())
    return out


def luck_comparison_by_stage(draws: pd.DataFrame) -> dict[str, dict[str, Estimate]]:
    """From ``review_luck_draws``: the mean luck of a draw by stage, the review's and the fast
    one's on the same draws (``{"review's luck": {stage: Estimate}, "fast luck": ...}``), and the
    review's with the hand model where the draws have it."""
    out = {"review's luck": luck_by_stage(draws, "luck")["all"]}
    if "model_luck" in draws:
        out["review's luck, hand model"] = luck_by_stage(draws, "model_luck")["all"]
    out["fast luck"] = luck_by_stage(draws, "fast_luck")["all"]
    return out


def luck_table(by_stage: dict[str, dict[str, Estimate]]) -> pd.DataFrame:
    """``luck_by_stage`` as a table: mean, standard error, z = mean / s.e., draws."""
    rows = []
    for group, est in by_stage.items():
        for stage, e in est.items():
            rows.append({"group": group, "stage": stage, "mean luck": round(e.mean, 3), "s.e.": round(e.stderr, 3),
                         "z": round(e.mean / e.stderr, 2) if e.stderr else math.nan, "draws": e.n})
    return pd.DataFrame(rows).set_index(["group", "stage"])


def luck_agreement(reviews: pd.DataFrame) -> dict[str, Any]:
    """The review's luck (rollouts from the drawer's view) against the tournament's fast luck of
    the same draws: how many draws, the correlation, and the standard deviation of each."""
    d = reviews[reviews.kind.isin(["decision", "draw"]) & reviews.luck.notna() & reviews.fast_luck.notna()]
    if len(d) < 3:
        return {"draws": len(d)}
    r = float(np.corrcoef(d.luck, d.fast_luck)[0, 1])
    return {"draws": len(d), "correlation": round(r, 3), "s.d. review luck": round(float(d.luck.std()), 2),
            "s.d. fast luck": round(float(d.fast_luck.std()), 2)}


# --- luck-adjusted results ------------------------------------------------------------------------


def luck_adjusted_summary(results: pd.DataFrame, edge: float = 2.5) -> dict[str, Estimate | float]:
    """From a luck-adjusted tournament (rows with ``luck0``, ``luck1``), first-named agent's side,
    per duplicate deal (the two seatings one sample): the raw mean score difference, the
    luck-adjusted one, their difference (the mean luck difference, zero in expectation), each an
    ``Estimate``; the variance ratio raw / adjusted with its 95% bootstrap interval; and the
    deals and rounds a test of an ``edge``-point edge needs (5% level, 80% power) with plain
    single rounds, plain duplicate deals and luck-adjusted duplicate deals."""
    from lcanalysis.tournaments.runner import luck_adjusted_diffs
    from lcanalysis.tournaments.stats import samples_needed, variance_ratio

    first = results.iloc[0]
    a = first.player0 if first.swap == 0 else first.player1
    b = first.player1 if first.swap == 0 else first.player0
    pair = results[((results.player0 == a) & (results.player1 == b))
                   | ((results.player0 == b) & (results.player1 == a))]
    raw = np.where(pair.player0 == a, 1, -1) * (pair.score0 - pair.score1).to_numpy()
    adj = luck_adjusted_diffs(pair, a, b)
    frame = pd.DataFrame({"unit": list(zip(pair.pairing, pair.deal)), "raw": raw, "adj": adj})
    per = frame.groupby("unit", sort=False).mean()
    ratio, lo, hi = variance_ratio(per.raw.to_numpy(), per.adj.to_numpy())
    return {
        "agent": a, "opponent": b, "deals": len(per), "rounds": len(frame),
        "raw mean difference": Estimate.of(per.raw), "luck-adjusted mean difference": Estimate.of(per.adj),
        "mean luck difference": Estimate.of(per.raw - per.adj),
        "variance ratio": ratio, "variance ratio low": lo, "variance ratio high": hi,
        "s.d. a round, raw": float(np.std(raw, ddof=1)), "s.d. a deal, raw": float(per.raw.std(ddof=1)),
        "s.d. a deal, luck-adjusted": float(per.adj.std(ddof=1)),
        "rounds needed, single rounds": samples_needed(float(np.std(raw, ddof=1)), edge),
        "rounds needed, duplicate deals": 2 * samples_needed(float(per.raw.std(ddof=1)), edge),
        "rounds needed, luck-adjusted duplicate deals": 2 * samples_needed(float(per.adj.std(ddof=1)), edge),
    }


def difference_estimates(summary: dict[str, Any]) -> dict[str, Estimate]:
    """The raw and the luck-adjusted mean difference of ``luck_adjusted_summary``, for a chart."""
    return {k: summary[k] for k in ("raw mean difference", "luck-adjusted mean difference")}


def summary_table(summary: dict[str, Any]) -> pd.DataFrame:
    """``luck_adjusted_summary``'s estimates as a table (mean, s.e., 95% interval, n)."""
    from lcanalysis.studies.estimate import estimates_frame

    return estimates_frame({k: v for k, v in summary.items() if isinstance(v, Estimate)}, digits=2)


def variance_table(summary: dict[str, Any]) -> pd.DataFrame:
    """The standard deviations a round and a deal, and the variance ratio raw / luck-adjusted over
    deals with its 95% bootstrap interval, from ``luck_adjusted_summary``."""
    return pd.DataFrame({"value": [summary["s.d. a round, raw"], summary["s.d. a deal, raw"],
                                   summary["s.d. a deal, luck-adjusted"], summary["variance ratio"],
                                   summary["variance ratio low"], summary["variance ratio high"]]},
                        index=["s.d. a round, raw", "s.d. a deal, raw", "s.d. a deal, luck-adjusted",
                               "variance ratio raw / adjusted", "its 95% low", "its 95% high"]).round(2)


def rounds_needed_table(summary: dict[str, Any]) -> pd.DataFrame:
    """The rounds a strength test needs, and the variance ratio, from ``luck_adjusted_summary``."""
    keys = ["rounds needed, single rounds", "rounds needed, duplicate deals",
            "rounds needed, luck-adjusted duplicate deals"]
    return pd.DataFrame({"rounds": [round(summary[k]) for k in keys]}, index=[k.split(", ", 1)[1] for k in keys])


def match_results(results: pd.DataFrame) -> pd.DataFrame:
    """The round robin's pairings (``tournaments.runner.summarize``): mean score difference with
    its 95% interval and win rate with its 95% interval, both over deals (``win_unit_low``,
    ``win_unit_high``: the two seatings of a duplicate deal are one sample)."""
    from lcanalysis.tournaments.runner import summarize

    s = summarize(results)
    return s[["agent", "opponent", "rounds", "mean_diff", "diff_low", "diff_high", "win_rate", "win_unit_low",
              "win_unit_high"]].round(2)


# --- the published data ----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lcanalysis.studies.skill_and_luck reviews|draws|review-luck ...``: write the study's data."""
    from lcanalysis.options import MAX_SEED, nonneg, seconds
    from lcanalysis.reviewer import MAX_TIME

    # counts, seeds and budgets are checked as they are read: --rounds 0 wrote an empty file, --time -1
    # ended in a traceback after the first round was played, --time 0 was taken
    ap = CommandParser(prog="python -m lcanalysis.studies.skill_and_luck", description=main.__doc__)
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("reviews", help="review rounds of each agent against the heuristic (review_rounds)")
    r.add_argument("--rounds", type=nonneg("--rounds", minimum=1), default=10)
    r.add_argument("--time", type=seconds(MAX_TIME), default=0.1)
    r.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0)
    r.add_argument("--search-floor", type=float, default=None,
                   help="the review's least endgame-search budget with 3 cards left, in seconds (default: the "
                        "review's, reviewer.SEARCH_FLOOR; the published file was made before it: 0)")
    r.add_argument("--out", required=True, help="the CSV file, written a round at a time and resumed (with the "
                                                "same --time, --seed and --search-floor, as its first line says, "
                                                "by the same version of the review)")
    r.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    d = sub.add_parser("draws", help="the fast luck of every deck draw of heuristic v greedy deals (fast_luck_draws)")
    d.add_argument("--deals", type=nonneg("--deals", minimum=1), default=250)
    d.add_argument("--first-deal", type=nonneg("--first-deal"), default=1000)
    d.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0)
    d.add_argument("--out", required=True)
    q = sub.add_parser("review-luck", help="the review's and the fast luck of every deck draw (review_luck_draws)")
    q.add_argument("--deals", type=nonneg("--deals", minimum=1), default=200)
    q.add_argument("--first-deal", type=nonneg("--first-deal"), default=2000)
    q.add_argument("--time", type=seconds(MAX_TIME), default=0.1)
    q.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0)
    q.add_argument("--hand-model", action="store_true",
                   help="also the luck with the opponent's hand dealt by the hand model (a one-player record's)")
    q.add_argument("--out", required=True, help="the CSV file, written a deal at a time and resumed (with the same "
                                                "--time, --seed and --hand-model, as its first line says, by the "
                                                "same version of the review)")
    q.add_argument("--allow-code-change", action="store_true", help=ALLOW_CODE_CHANGE_HELP)
    args_list = list(sys.argv[1:] if argv is None else argv)
    args = ap.parse_args(args_list)

    if args.what == "reviews" and args.search_floor is not None and not 0 <= args.search_floor <= MAX_TIME:
        ap.error(f"--search-floor must be seconds from 0 to {MAX_TIME:g}, got {args.search_floor}")
    ap.check_output("--out", args.out)  # before the work: a missing folder was a traceback after it
    if args.what in ("reviews", "review-luck"):
        command = "python -m lcanalysis.studies.skill_and_luck " + shlex.join(args_list)
        try:  # (a file made with other settings is refused: it would mix two studies' rows)
            if args.what == "reviews":
                write_reviews(args.out, args.rounds, args.time, args.seed, args.search_floor, progress=True,
                              command=command, allow_code_change=args.allow_code_change)
            else:
                write_review_luck(args.out, args.deals, args.time, args.seed, args.first_deal, args.hand_model,
                                  progress=True, command=command, allow_code_change=args.allow_code_change)
        except (ValueError, RuntimeError) as e:
            ap.error(str(e))
        return 0
    df = fast_luck_draws(args.deals, seed=args.seed, first_deal=args.first_deal)
    df.to_csv(args.out, index=False, float_format="%.4f")
    return 0


if __name__ == "__main__":  # pragma: no cover
    run_script(main)
