"""Simulated play to test the wager models: predicted versus realized expedition scores.

Both players are the same simple heuristic bot (compiled, below: ``wager_bot_place`` and
``wager_bot_source``, a policy of its own, not the agents'): it plays the lowest live
card of an open colour when the gap is small or time is short, opens a colour when the
cards held and the expected draws make it pay, puts wagers down early on strong colours,
discards what it cannot use (preferring cards the opponent cannot use either), and draws
from a discard pile only a card it can play next with a gap of at most one.

``snapshot_rounds`` plays rounds and, at a chosen turn, records for the player to move and
every colour what a model needs (rank masks, wagers, unseen cards, the opponent's expedition,
the deck); at the end of the round it records what the expedition really scored.
``compare_models`` predicts each snapshot with each model and prints predicted versus realized:
mean prediction, mean realized, bias, RMSE of prediction minus outcome and calibration MAE, each with its standard
error over the rounds (a round's expeditions are not independent: ``error_table``).
``compare_decline`` does the same for the colours still untouched at the snapshot, where the
models value the colour with the option to decline it.
Run ``lcanalysis studies wager-sim`` for the table in docs/wagers.md (``studies.wager_sim``: the
same tables, each row's predictions kept in a file as they are made, ``--out``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from lcanalysis.clusters import clustered_stderr
from lcanalysis.core import features as feat
from lcanalysis.core import first_compile
from lcanalysis.core import kernel as K
from lcanalysis.evaluator import decline_now_value
from lcanalysis.game.rules import Rules

#: the colours of the simulated rounds (a snapshot's rows come in blocks of one per colour): the default game's
COLORS = Rules().colors
N_FIELDS = 15
(F_PW, F_PM, F_HW, F_HM, F_UM, F_U, F_DECK, F_OPP_OPENED, F_OPP_TOP, F_FINAL, F_FINAL_W, F_TURNS, F_OPP_HAND, F_C,
 F_FINAL_MASK) = range(N_FIELDS)
#: the names of the ``F_*`` fields, in their order (a file's columns: ``studies.wager_claims``' kept rounds)
FIELD_NAMES = ("pw", "pm", "hw", "hm", "um", "u", "deck", "opp_opened", "opp_top", "final", "final_w", "turns",
               "opp_hand", "c", "final_mask")


@njit(cache=True)
def _live_stats(mask, above):
    """``kernel.mask_sum_count`` (sum of face values and number of the cards in ``mask`` with
    rank > ``above``) and the lowest such rank (0: none)."""
    s, n = K.mask_sum_count(mask, above)
    live = mask & K.FULL9 & ~((1 << above) - 1)  # bit r-1 for each rank r in above+1..9
    return s, n, K.top_rank(live & -live)  # the lowest set bit alone


@njit(cache=True)
def wager_bot_place(s, block, u, bp):
    """The wager study's bot, its placement for the player to move: returns a placement code.

    ``block`` and ``u`` are the mover's ``features.colour_features`` and unseen count; ``bp`` =
    (least canonical value to open a colour, extra value asked per colour already open, most
    colours open, least turns left to put a wager down).

    A policy of its own, not the agents' (``core/policy.py``): a hand-tuned, rule-based player,
    the "real play" the wager models were checked against. Its rounds are the published tables
    (docs/wagers.md, data/simulated/), so it must play the same whatever the agents become. It
    shares the facts (features, turns left, the evaluator's colour value), not the choices.
    """
    nc = s[K.H_NC]
    oh = K.off_hand(nc, s[K.H_TO_MOVE])
    turns = feat.turns_left(K.deck_left(s), True)
    k = feat.useful_draws(K.deck_left(s), True)
    pws = block[feat.OWN_WAGERS]
    pms = block[feat.OWN_MASK]
    hws = block[feat.HAND_WAGERS]
    hms = block[feat.HAND_MASK]
    ums = block[feat.UNSEEN_MASK]
    best_place = -1
    best_val = -1e9
    tmp = np.empty(2)
    n_open = 0
    for c in range(nc):
        if pws[c] > 0 or pms[c] != 0:
            n_open += 1
    for c in range(nc):
        pw = pws[c]
        pm = pms[c]
        hw = hws[c]
        um = ums[c]
        top = K.top_rank(pm)
        hs, hn, lo = _live_stats(hms[c], top)
        opened = pw > 0 or pm != 0
        if hn == 0 and hw == 0:
            continue
        if opened:
            if hn > 0:
                # unseen ranks skipped by playing lo now
                gap = 0
                for r in range(top + 1, lo):
                    if um & (1 << (r - 1)):
                        gap += 1
                val = 8.0 - 3.0 * gap
                if hn >= turns - 1:
                    val += 20.0
                if val > best_val:
                    best_val = val
                    best_place = (c * K.RANKS + lo) * 2
        else:
            decline_now_value(0, 0, hw, hms[c], um, u, k, tmp)
            ev = tmp[0]
            bj = int(tmp[1])
            if bj < 0 or ev < bp[0] + bp[1] * n_open or n_open >= bp[2]:
                continue
            if bj > 0 and turns >= bp[3]:
                val = 12.0 + ev / 10.0  # wagers first, while there is time
                if val > best_val:
                    best_val = val
                    best_place = (c * K.RANKS) * 2
            elif hn > 0:
                gap = 0
                for r in range(1, lo):
                    if um & (1 << (r - 1)):
                        gap += 1
                val = 2.0 + ev / 10.0 - 1.0 * gap
                if hn >= turns - 1:
                    val += 10.0
                if val > best_val:
                    best_val = val
                    best_place = (c * K.RANKS + lo) * 2
    if best_val >= 0.0 and best_place >= 0:
        return best_place
    # discard the card that costs least
    best_cost = 1e9
    choice = -1
    for t in range(K.RANKS * nc):
        if s[oh + t] <= 0:
            continue
        c = t // K.RANKS
        r = t % K.RANKS
        pm = pms[c]
        top = K.top_rank(pm)
        opened = pws[c] > 0 or pm != 0
        cost = 0.0
        if r == 0:
            cost = 6.0 if pm == 0 else 0.0
        elif opened and r <= top:
            cost = 0.0
        elif opened:
            cost = 15.0 + r
        else:
            hs, hn, lo = _live_stats(hms[c], 0)
            cost = 2.0 + hs / 4.0
        if r > 0 and feat.still_fits(block[feat.OPP_WAGERS, c], block[feat.OPP_MASK, c], r):
            cost += 4.0 + r  # the opponent could use it
        if cost < best_cost:
            best_cost = cost
            choice = t * 2 + 1
    return choice


@njit(cache=True)
def wager_bot_source(s):
    """The wager study's bot, its draw: from a discard pile only a card the mover can play next
    with a gap of at most one, else from the draw pile (a policy of its own: see
    ``wager_bot_place``)."""
    nc = s[K.H_NC]
    p = s[K.H_TO_MOVE]
    blocked = s[K.H_BLOCKED]
    opl = K.off_pile_len(nc)
    op = K.off_pile(nc)
    for c in range(nc):
        if s[opl + c] <= 0 or (s[K.H_NO_REDRAW] and c == blocked):
            continue
        r = s[op + c * K.PILE_CAP + s[opl + c] - 1]
        pm = s[K.off_mask(nc, p) + c]
        pw = s[K.off_wagers(nc, p) + c]
        if r == 0 or (pm == 0 and pw == 0):
            continue
        top = K.top_rank(pm)
        if r > top and r - top - 1 <= 1:
            return 1 + c
    return 0


@njit(cache=True)
def snapshot_round(s, snap_turn, rec, bp):
    """Play the round with the wager bot on both sides; at turn ``snap_turn`` record the mover's
    colours.

    ``rec`` has shape (NC, N_FIELDS); returns the snapshot player (-1 if the round ended first).
    """
    nc = s[K.H_NC]
    block = np.empty((feat.N_FEATURES, nc), np.int64)
    who = -1
    while not K.is_over(s):
        u = feat.colour_features(s, s[K.H_TO_MOVE], block)
        if s[K.H_TURN] == snap_turn and who < 0:
            who = s[K.H_TO_MOVE]
            for c in range(nc):
                rec[c, F_PW] = block[feat.OWN_WAGERS, c]
                rec[c, F_PM] = block[feat.OWN_MASK, c]
                rec[c, F_HW] = block[feat.HAND_WAGERS, c]
                rec[c, F_HM] = block[feat.HAND_MASK, c]
                rec[c, F_UM] = block[feat.UNSEEN_MASK, c]
                rec[c, F_U] = u
                rec[c, F_DECK] = K.deck_left(s)
                om = block[feat.OPP_MASK, c]
                rec[c, F_OPP_OPENED] = 1 if (om != 0 or block[feat.OPP_WAGERS, c] > 0) else 0
                rec[c, F_OPP_TOP] = K.top_rank(om)
                rec[c, F_OPP_HAND] = s[K.H_HAND_SIZE]
                rec[c, F_C] = c
        K.apply_place(s, wager_bot_place(s, block, u, bp))
        K.apply_draw(s, wager_bot_source(s))
    if who >= 0:
        for c in range(nc):
            w = s[K.off_wagers(nc, who) + c]
            rec[c, F_FINAL] = K.expedition_score(w, s[K.off_mask(nc, who) + c])
            rec[c, F_FINAL_W] = w
            rec[c, F_FINAL_MASK] = s[K.off_mask(nc, who) + c]
            rec[c, F_TURNS] = s[K.H_TURN]
    return who


BOT_PARAMS = (10.0, 4.0, 4.0, 8.0)  # tuned by hand: mean round score 18.7 vs 14.3 for (6, 0, 5, 8)


def snapshot_rounds(rounds: int, snap_turn: int = 0, seed: int = 0, colors: int = COLORS, bot=BOT_PARAMS,
                    progress: bool = False):
    """Play ``rounds`` bot-vs-bot rounds from random deals; one row per colour at the snapshot.

    Returns an int array of shape (rows, N_FIELDS) (the ``F_*`` columns) and an array of shape
    (rounds, 2) with each round's scores by seat. ``bot`` are the bot's parameters (``wager_bot_place``).
    ``progress``: a bar over the rounds. At most ``options.MAX_WAGER_SIM_ROUNDS`` rounds.
    """
    from lcanalysis.game.cards import whole_number
    from lcanalysis.options import MAX_WAGER_SIM_ROUNDS
    from lcanalysis.progress import progress_bar

    n = whole_number(rounds)
    if n is None or not 0 <= n <= MAX_WAGER_SIM_ROUNDS:  # 10**23 rounds ran silently for ever
        raise ValueError(f"rounds must be a whole number from 0 to {MAX_WAGER_SIM_ROUNDS:,}, got {rounds!r}")
    rows = []
    scores = []
    rules = Rules(colors=colors)
    for i in progress_bar(range(n), desc=f"simulated rounds (to turn {snap_turn})", unit="round", progress=progress,
                          mininterval=1.0):
        rec, score = snapshot_of_round(i, snap_turn, seed, rules, bot)
        scores.append(score)
        if rec is not None:
            rows.append(rec)
    return (np.concatenate(rows) if rows else np.zeros((0, N_FIELDS), dtype=np.int64)), np.array(scores)


def snapshot_of_round(i: int, snap_turn: int, seed: int, rules, bot=BOT_PARAMS) -> tuple[np.ndarray | None,
                                                                                         tuple[int, int]]:
    """Round ``i`` of ``snapshot_rounds``: its rows (one per colour; None when the round ended
    before ``snap_turn``) and its scores by seat."""
    from lcanalysis.game.position import Position

    first_compile.ready(first_compile.WAGER_SIMULATION)  # (compiled once, saying so: core.first_compile)

    s = Position.deal(seed=seed * 1_000_003 + i, rules=rules).state.copy()
    rec = np.zeros((rules.colors, N_FIELDS), dtype=np.int64)
    who = snapshot_round(s, snap_turn, rec, np.array(bot, dtype=np.float64))
    return (rec if who >= 0 else None), (int(K.player_score(s, 0)), int(K.player_score(s, 1)))


def _snapshots(rounds: int, snap_turn: int, seed: int, progress: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``snapshot_rounds``, refused in words when no round lasted to ``snap_turn`` (nothing to compare)."""
    rows, scores = snapshot_rounds(rounds, snap_turn, seed, progress=progress)
    if not len(rows):
        raise ValueError(f"none of the {rounds} rounds lasted to turn {snap_turn}: no expedition to compare; "
                         "take an earlier snapshot turn")
    return rows, scores


def _values(mask: int) -> list[int]:
    return [r + 1 for r in range(1, K.RANKS) if mask & (1 << (r - 1))]


def row_share(rows: np.ndarray, i: int, colors: int = COLORS) -> float:
    """The share of turns for a colour: 1 / the player's colours in play (opened, at least 2)."""
    start = (i // colors) * colors
    block = rows[start:start + colors]
    opened = int(np.sum((block[:, F_PW] > 0) | (block[:, F_PM] != 0)))
    return 1.0 / max(opened, 2)


def compare_models(rounds: int = 2000, snap_turn: int = 10, seed: int = 0, n_mc: int = 2000,
                   only_opened: bool = True, file=None, progress: bool = False):
    """Predicted versus realized final scores of the snapshot player's expeditions; prints and returns a table.

    ``only_opened``: rows whose colour already holds a number (the wagers are then fixed, so
    every model answers for the wagers actually on the table). ``progress``: a bar over the rows.
    """
    rows, shares, scores, round_of = compared_rows(rounds, snap_turn, seed, only_opened, progress)
    preds = predictions_with_share(rows, shares, n_mc=n_mc, seed=seed + 1, progress=progress)
    return models_answer(preds, rows, round_of, scores, rounds, snap_turn, seed, only_opened, file)


def models_answer(preds: dict[str, np.ndarray], rows: np.ndarray, round_of: np.ndarray, scores: np.ndarray,
                  rounds: int, snap_turn: int, seed: int, only_opened: bool = True, file=None):
    """``compare_models``' table and its settings from the predictions (``predictions_with_share``) of
    the snapshot ``rows`` (``compared_rows``; ``round_of``: each row's round, ``scores``: the rounds'),
    printed to ``file``; every standard error is over the rounds (``error_table``)."""
    realized = rows[:, F_FINAL].astype(float)
    df = error_table(preds, realized, round_of)
    n_rounds = len(np.unique(round_of))
    meta = {"rounds": rounds, "snap_turn": snap_turn, "seed": seed, "mean round score": scores.mean(),
            "rows": len(realized), "rounds with rows": n_rounds}
    if file is not None:
        per_round = scores.mean(axis=1)  # (the two players of a round are not independent: one sample a round)
        se = per_round.std(ddof=1) / math.sqrt(len(per_round)) if len(per_round) > 1 else math.nan
        print(f"{rounds} bot-vs-bot rounds, snapshot at turn {snap_turn}, {len(realized)} expeditions "
              f"({'holding a number' if only_opened else 'all colours'}); mean round score per player "
              f"{scores.mean():.1f} ± {se:.1f} (all {len(per_round)} rounds); {by_round(n_rounds)}", file=file)
        print(df.to_string(index=False, float_format=lambda x: f"{x:.2f}"), file=file)
    return df, meta


def by_round(n_rounds: int) -> str:
    """What a table's heading says of its errors: a round's expeditions (or untouched colours), ``n_rounds``
    rounds of them, are one sample each (``error_table``)."""
    return f"± one standard error, clustered by round, {n_rounds} rounds"


def compared_rows(rounds: int, snap_turn: int, seed: int, only_opened: bool = True,
                  progress: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The snapshot rows ``compare_models`` predicts (``only_opened``: those whose colour holds a
    number), each one's share of turns, the rounds' scores, and each row's round (its place among the
    rounds that lasted to the snapshot: the rows of one round are not independent); refused in words
    when too few."""
    rows, scores = _snapshots(rounds, snap_turn, seed, progress)
    kept, shares, round_of = holding_a_number(rows, snap_turn, only_opened)
    return kept, shares, scores, round_of


def snapshot_round_index(rows: np.ndarray, colors: int = COLORS) -> np.ndarray:
    """Each snapshot row's round: its place among the rounds that lasted to the snapshot
    (``snapshot_rounds`` gives a block of ``colors`` rows a round)."""
    return np.arange(len(rows)) // colors


def _holding(rows: np.ndarray, only_opened: bool) -> np.ndarray:
    """The rows ``compare_models`` predicts: ``only_opened``, those whose colour holds a number; else all."""
    return rows[:, F_PM] != 0 if only_opened else np.ones(len(rows), bool)


def holding_a_number(rows: np.ndarray, snap_turn: int,
                     only_opened: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of the snapshot ``rows`` (taken at ``snap_turn``), those ``compare_models`` predicts
    (``only_opened``: those whose colour holds a number), each one's share of turns and each one's round
    (``snapshot_round_index``); refused in words when too few."""
    # keep colour blocks for row_share: compute share on the full rows first
    shares = np.array([row_share(rows, i) for i in range(len(rows))])
    keep = _holding(rows, only_opened)
    if keep.sum() < 2 and len(rows) >= 2 * COLORS:  # rounds lasted, but their expeditions hold no number yet
        raise ValueError(f"{int(keep.sum())} expedition(s) hold a number at turn {snap_turn} of the "
                         f"{len(rows) // COLORS} rounds that lasted to it: too few to compare; take a later "
                         "snapshot turn or simulate more rounds")
    return rows[keep], shares[keep], snapshot_round_index(rows)[keep]


def error_table(preds: dict[str, np.ndarray], realized: np.ndarray, round_of: np.ndarray | None = None):
    """Each model's mean predicted, mean realized, bias, RMSE and calibration MAE over the expeditions, each
    with its standard error over the rounds: ``round_of``, each expedition's round (a round's expeditions share
    its deal and the player's turns, one sample a round: ``clusters.clustered_stderr``, a ratio estimator
    over the rounds' sums); None: each expedition a round of its own (taken as independent, sd / sqrt(n)).
    The RMSE's and the calibration MAE's are the delta method's over the rounds' sums, not a bootstrap
    (deterministic, and the means' own arithmetic): the RMSE's the mean square's over 2 RMSE, the calibration
    MAE's that of the mean of each row's gap signed as its decile's mean gap (``_calibration_mae``: the
    deciles' signs taken as given)."""
    import pandas as pd

    n = len(realized)
    rounds = np.arange(n) if round_of is None else np.asarray(round_of)
    if rounds.shape != (n,):
        raise ValueError(f"error_table: round_of gives {rounds.shape} rounds for {n} expeditions: one round each")
    if len(np.unique(rounds)) < 2:  # a bias needs two rounds' expeditions for its standard error
        raise ValueError(f"{n} expedition(s) of {len(np.unique(rounds))} round(s) to compare at the snapshot: too "
                         "few for a standard error over the rounds; simulate more rounds or take an earlier "
                         "snapshot turn")

    def se(values: np.ndarray) -> float:
        return clustered_stderr(values, rounds)

    table = []
    for name, pred in preds.items():
        diff = pred - realized
        rmse = math.sqrt(np.mean(diff ** 2))
        mae, signed_gaps = _calibration_mae(pred, realized)
        table.append({
            "model": name,
            "rows": n,
            "mean predicted": pred.mean(),
            "mean predicted s.e.": se(pred),
            "mean realized": realized.mean(),
            "mean realized s.e.": se(realized),
            "bias": diff.mean(),
            "bias s.e.": se(diff),
            "RMSE": rmse,
            # (the delta method: the mean square's standard error over 2 RMSE)
            "RMSE s.e.": se(diff ** 2) / (2 * rmse) if rmse > 0 else 0.0,
            "calibration MAE": mae,
            "calibration MAE s.e.": se(signed_gaps),
        })
    return pd.DataFrame(table)


def compare_decline(rounds: int = 2000, snap_turn: int = 10, seed: int = 0, n_mc: int = 2000, file=None,
                    progress: bool = False):
    """Colours with nothing on the expedition at the snapshot: the value of the colour (open with the
    best number of wagers, or decline) predicted by each model, against what it really scored
    (0 when the bot never opened it). ``progress``: a bar over the colours."""
    from lcanalysis.progress import progress_bar

    rows, _scores = _snapshots(rounds, snap_turn, seed, progress)
    sel, sh, round_of = untouched_colours(rows)
    preds = {name: np.zeros(len(sel)) for name in DECLINE_MODELS}
    for i, row in enumerate(progress_bar(sel, desc=f"untouched colours, turn {snap_turn}", unit="colour",
                                         progress=progress)):
        for name, value in zip(DECLINE_MODELS, decline_predictions_of_row(row, float(sh[i]), n_mc, seed + i),
                               strict=True):
            preds[name][i] = value
    return decline_answer(preds, sel, round_of, rounds, snap_turn, seed, file)


#: the models ``compare_decline`` compares, in its table's order
DECLINE_MODELS = ("canonical, open with best wagers", "decline now (canonical; the evaluator)",
                  "decline at end (canonical)", "decline now (turns, late)", "decline now (turns, eager)",
                  "decline at end (turns, late)")


def untouched_colours(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of the snapshot ``rows``, those ``compare_decline`` predicts (nothing on the expedition yet),
    each one's share of turns and each one's round (``snapshot_round_index``)."""
    shares = np.array([row_share(rows, i) for i in range(len(rows))])
    keep = np.array([r[F_PM] == 0 and r[F_PW] == 0 for r in rows], dtype=bool)
    return rows[keep], shares[keep], snapshot_round_index(rows)[keep]


def decline_predictions_of_row(row: np.ndarray, share: float, n_mc: int, seed: int) -> list[float]:
    """Untouched colour ``i`` of ``compare_decline`` (its ``seed`` + ``i``): each model's value of
    the colour (open with the best number of wagers, or decline), in the order of ``DECLINE_MODELS``."""
    from lcanalysis.wagers.canonical import ColorState, mean_score
    from lcanalysis.wagers.models import _mc, decline_at_end

    state = ColorState.make(hand=_values(int(row[F_HM])), hand_wagers=int(row[F_HW]),
                            unseen=_values(int(row[F_UM])), unseen_total=int(row[F_U]))
    turns = feat.turns_left(int(row[F_DECK]), True)
    k = feat.useful_draws(int(row[F_DECK]), True)
    best = max(mean_score(state, k, j) for j in state.wager_choices)
    late = _mc(state, k, turns=turns, share=share, n=n_mc, seed=seed)
    eager = _mc(state, k, turns=turns, share=share, n=n_mc, seed=seed, eager=True)
    end = _mc(state, k, turns=turns, share=share, n=n_mc, seed=seed, decline_end=True)
    return [float(best), max(0.0, float(best)),
            max(float(o.mean) for o in decline_at_end(state, k, exact=False).by_wagers),
            max(0.0, *(float(o.mean) for o in late.by_wagers)),
            max(0.0, *(float(o.mean) for o in eager.by_wagers)),
            max(float(o.mean) for o in end.by_wagers)]


def decline_answer(preds: dict[str, np.ndarray], sel: np.ndarray, round_of: np.ndarray, rounds: int, snap_turn: int,
                   seed: int, file=None):
    """``compare_decline``'s table and its settings from the predictions (``decline_predictions_of_row``)
    of the untouched colours ``sel`` (``untouched_colours``; ``round_of``: each one's round), printed to
    ``file``; every standard error is over the rounds (``error_table``), the share opened later's too."""
    realized = sel[:, F_FINAL].astype(float)
    df = error_table(preds, realized, round_of)
    later = ((sel[:, F_FINAL_MASK] != 0) | (sel[:, F_FINAL_W] > 0)).astype(float)
    opened = float(np.mean(later)) if len(sel) else math.nan
    n_rounds = len(np.unique(round_of))
    meta = {"rounds": rounds, "snap_turn": snap_turn, "seed": seed, "rows": len(sel), "rounds with rows": n_rounds,
            "share opened later": opened,
            "share opened later s.e.": clustered_stderr(later, round_of) if len(sel) else math.nan}
    if file is not None:
        print(f"{rounds} bot-vs-bot rounds, snapshot at turn {snap_turn}, {len(sel)} untouched colours "
              f"({opened:.1%} ± {meta['share opened later s.e.']:.1%} opened later by the bot); the colour's value: "
              f"open or decline; {by_round(n_rounds)}", file=file)
        print(df.to_string(index=False, float_format=lambda x: f"{x:.2f}"), file=file)
    return df, meta


def _calibration_mae(pred: np.ndarray, realized: np.ndarray, bins: int = 10) -> tuple[float, np.ndarray]:
    """Mean |mean realized - mean predicted| over prediction deciles, weighted by rows, and what its
    standard error is of: each row's gap signed as its decile's mean gap, whose mean is the MAE. Its error
    over the rows (or the rounds) is the MAE's by the delta method, each decile's sign taken as given (a
    decile's gap flips sign only across 0, where its weight in the MAE is nil): where every decile's gap has
    one sign the MAE is |bias| and its error the bias's. (The gaps from each decile's own mean gap, the
    deciles held fixed, gave 85% of a bootstrap's spread on a test's made-up rows: a resample moves the rows
    between deciles.)"""
    order = np.argsort(pred)
    err = 0.0
    signed = np.zeros(len(pred))
    for part in np.array_split(order, bins):
        if len(part):
            gap = realized[part] - pred[part]
            err += len(part) * abs(gap.mean())
            signed[part] = np.sign(gap.mean()) * gap
    return err / len(pred), signed


#: the models ``predictions_with_share`` compares, in its table's order
PREDICTION_MODELS = ("canonical, all draws", "canonical, useful draws", "turns, share 1", "turns, share by colours",
                     "turns, eager, share by colours", "opponent-aware", "turns + opponent",
                     "eager turns + opponent 0.1")


def predictions_with_share(rows: np.ndarray, shares: np.ndarray, n_mc: int = 2000, seed: int = 1,
                           progress: bool = False):
    """Each model's predicted final score (mean, no more wagers) for each snapshot row."""
    from lcanalysis.progress import progress_bar

    out = {name: np.zeros(len(rows)) for name in PREDICTION_MODELS}
    for i, row in enumerate(progress_bar(rows, desc="expeditions", unit="row", progress=progress)):
        for name, value in zip(PREDICTION_MODELS, predictions_of_row(row, float(shares[i]), n_mc, seed + i),
                               strict=True):
            out[name][i] = value
    return out


def predictions_of_row(row: np.ndarray, share: float, n_mc: int, seed: int) -> list[float]:
    """Row ``i`` of ``predictions_with_share`` (its ``seed`` + ``i``): each model's prediction,
    in the order of ``PREDICTION_MODELS``."""
    from lcanalysis.wagers.canonical import ColorState, mean_score
    from lcanalysis.wagers.models import OpponentInfo, opponent_model, turn_model

    state = ColorState.make(hand=_values(int(row[F_HM])), hand_wagers=int(row[F_HW]),
                            placed=_values(int(row[F_PM])), placed_wagers=int(row[F_PW]),
                            unseen=_values(int(row[F_UM])), unseen_total=int(row[F_U]))
    deck = int(row[F_DECK])
    turns = feat.turns_left(deck, True)
    k = feat.useful_draws(deck, True)
    opp = OpponentInfo(hidden=int(row[F_OPP_HAND]), draws=feat.turns_left(deck, False),
                       opened=bool(row[F_OPP_OPENED]), top=int(row[F_OPP_TOP]) + 1 if row[F_OPP_TOP] else 0)
    return [float(v) for v in (
        mean_score(state, min(turns, deck), 0),
        mean_score(state, k, 0),
        turn_model(state, turns, n=n_mc, seed=seed, progress=False).outcome(0).mean,
        turn_model(state, turns, share=share, n=n_mc, seed=seed, progress=False).outcome(0).mean,
        turn_model(state, turns, share=share, n=n_mc, seed=seed, policy="eager", progress=False).outcome(0).mean,
        opponent_model(state, k, opp, p_pickup=0.5, n=n_mc, seed=seed, progress=False).outcome(0).mean,
        opponent_model(state, k, opp, p_pickup=0.5, turns=turns, share=share, n=n_mc, seed=seed,
                       progress=False).outcome(0).mean,
        opponent_model(state, k, opp, p_pickup=0.1, turns=turns, share=share, n=n_mc, seed=seed,
                       policy="eager", progress=False).outcome(0).mean)]
