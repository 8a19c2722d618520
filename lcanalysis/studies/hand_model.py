"""Study: fit the opponent-hand model (``lcanalysis.hand_model``) on self-play positions.

``python -m lcanalysis.studies.hand_model train --rounds N --seed S --out FILE``:

1. Self-play rounds, heuristic against heuristic (the compiled policy on the full position: it
   reads only the mover's information, so it plays as the ``heuristic`` agent does on its view);
   ``--agents A B`` plays other agents instead (``agents.make_agent``, each seeing only its view,
   by ``tournaments.runner.play_round``; ``A`` in seat ``k % 2``) on the same deals.
   Round ``k`` is dealt by ``Position.deal(deal_seed(seed, k))`` with seat ``k % 2`` to start;
   the seeds are not those of the calibration study (``SEED_SALT``), so the model is not fitted
   on the positions it is measured on.
2. Every ``every``-th position (from an offset that turns with the round), seen by the player to
   move: the unseen cards' features (``hand_model.card_features``) and the exact label, which of
   them the opponent holds (a self-play position knows both hands).
3. The weights maximise the conditional-logit log-likelihood of the opponent's actual hands
   (``hand_model`` docstring) with a small ridge penalty (``RIDGE`` times the squared weights,
   per position), by ``scipy.optimize.minimize`` (L-BFGS-B, exact gradient). Rounds with
   ``k % HOLDOUT == HOLDOUT - 1`` are held out: the report gives their log-likelihood per
   position under the model and under the uniform deal.

Everything follows from the seed: the same command writes the same file (weights rounded to
``DIGITS`` decimals).

``python -m lcanalysis.studies.hand_model score WEIGHTS... --agents A B --rounds N`` scores weights
files on the held-out rounds (``k % HOLDOUT == HOLDOUT - 1``, ``k < N``) of a self-play: the mean
log-likelihood per position under each file's weights and under the uniform deal, and the gain
with its standard error over rounds (a round's positions are one sample: ``lcanalysis.clusters``);
each file after the first also less the first on the same positions (paired), with its error.
"""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from lcanalysis import hand_model as H
from lcanalysis.game.moves import Move
from lcanalysis.game.position import Position
from lcanalysis.game.rules import Rules
from lcanalysis.options import CommandParser, run_script

#: added to the seed so the training rounds are not the calibration study's rounds
SEED_SALT = 1515
#: every HOLDOUT-th round is held out of the fit
HOLDOUT = 5
#: the ridge penalty per position on the squared weights
RIDGE = 1e-3
#: decimals kept in the weights file
DIGITS = 4
#: the shipped file's settings (the test reproduces them)
ROUNDS, EVERY, SEED = 300, 2, 0
#: the agents of the shipped file's self-play (the compiled heuristic policy's fast path)
AGENTS = ("heuristic", "heuristic")


def deal_seed(seed: int, k: int) -> int:
    """The deal of training round ``k``."""
    ss = np.random.SeedSequence([int(seed), SEED_SALT, int(k)])
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def play_positions(rounds: int, seed: int = SEED, every: int = EVERY, colors: int = 5,
                   first: int = 0, agents: Sequence[str] = AGENTS, progress: bool = False) -> list[dict[str, Any]]:
    """Rounds ``first .. first + rounds - 1`` of self-play by ``agents`` (default heuristic against
    heuristic); one entry per sampled position: the round, the cards in the draw pile, the unseen
    cards' features (``x``) and labels (``y``: 1 for the cards the opponent holds among its unknown
    ones) and ``n``, their number. An unknown agent raises ``agents.AgentError``. ``progress``: a bar
    over the rounds on standard error (a searching agent's rounds take seconds each)."""
    from lcanalysis.progress import progress_bar

    rules = Rules(colors=colors)
    agents = check_agents(agents)
    out = []
    for k in progress_bar(range(first, first + rounds), desc=f"{' v '.join(agents)} self-play", unit="round",
                          progress=progress):
        for t, pos in _round_positions(k, seed, rules, agents):
            if t % every == (k // 2) % every:
                out.append(labelled(pos, k))
    return out


def check_agents(agents: Sequence[str]) -> tuple[str, str]:
    """The two agents' names, checked: two names ``agents.make_agent`` knows (an ``AgentError``
    naming the unknown one otherwise)."""
    from lcanalysis.agents import AgentError, make_agent

    names = tuple(agents)
    if len(names) != 2:
        raise AgentError(f"give two agents, one a seat, got {len(names)}: {' '.join(map(str, names))}")
    for n in names:
        make_agent(n)
    return names[0], names[1]


def _round_positions(k: int, seed: int, rules: Rules, agents: tuple[str, str]) -> Any:
    """Every position of round ``k`` before each turn: (turn, position)."""
    if agents == AGENTS:  # the fast path: the compiled policy on the full position (it reads the mover's view only)
        from lcanalysis.core import policy as P

        pos = Position.deal(deal_seed(seed, k), rules, k % 2)
        t = 0
        while not pos.is_over():
            yield t, pos
            pos.push(Move.from_code(int(P.policy_move(pos.state.copy(), P.HEURISTIC_PARAMS)), rules.colors))
            t += 1
        return
    from lcanalysis.studies.calibration import play_recorded_round, positions_of

    names = agents if k % 2 == 0 else agents[::-1]
    yield from positions_of(play_recorded_round(names, deal_seed(seed, k), rules, k % 2), rules)


def labelled(pos: Position, k: int = 0) -> dict[str, Any]:
    """One training example: the mover's view of ``pos``, its unseen cards' features and which of
    them the opponent holds (of identical cards, the first ones in pool order)."""
    view = pos.view(pos.to_move)
    types, x = H.card_features(view)
    held: dict[int, int] = {}
    for c in pos.hand(view.opponent):
        held[c.type] = held.get(c.type, 0) + 1
    for c in view.opponent_known:
        held[c.type] -= 1
    y = np.zeros(len(types))
    for i, t in enumerate(types):
        if held.get(int(t), 0) > 0:
            y[i] = 1.0
            held[int(t)] -= 1
    assert int(y.sum()) == view.opponent_unknown
    return {"round": k, "cards_left": view.deck_count, "x": x, "y": y, "n": view.opponent_unknown}


def _batch(examples: Sequence[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Padded arrays: features (P, K, F), labels (P, K), a mask of real cards (P, K), hand sizes (P)."""
    kmax = max(len(e["y"]) for e in examples)
    X = np.zeros((len(examples), kmax, H.N_FEATURES))
    Y = np.zeros((len(examples), kmax))
    M = np.zeros((len(examples), kmax), bool)
    N = np.array([e["n"] for e in examples], int)
    for p, e in enumerate(examples):
        k = len(e["y"])
        X[p, :k], Y[p, :k], M[p, :k] = e["x"], e["y"], True
    return X, Y, M, N


def log_likelihoods(theta: np.ndarray, batch: tuple, grad: bool = False) -> Any:
    """Each position's log-probability of the opponent's actual hand under weights ``theta`` (and,
    with ``grad``, the gradient of their sum)."""
    X, Y, M, N = batch
    logw = X @ theta
    logw = np.where(M, logw, -np.inf)
    shift = logw.max(axis=1, keepdims=True)
    w = np.exp(logw - shift)
    nmax = int(N.max())
    f = H._forward(w, nmax)  # (P, K+1, nmax+1)
    en = f[np.arange(len(N)), -1, N]
    ll = (np.where(M, logw - shift, 0.0) * Y).sum(axis=1) - np.log(en)
    if not grad:
        return ll
    b = H._forward(w[:, ::-1], nmax)[:, ::-1]  # b[:, i, r] = e_r(w_i ..)
    k = w.shape[1]
    pi = np.zeros_like(w)
    for p in range(len(N)):
        n = int(N[p])
        if n == 0:
            continue
        fi = f[p, :k, :n]                # e_r of the cards before i, r = 0..n-1
        bi = b[p, 1:, n - 1::-1][:, :n]  # e_{n-1-r} of the cards after i
        pi[p] = w[p] * (fi * bi).sum(axis=1) / en[p]
    g = np.einsum("pk,pkf->f", Y - pi, X)
    return ll, g


def fit(examples: Sequence[dict[str, Any]], ridge: float = RIDGE) -> tuple[np.ndarray, dict[str, Any]]:
    """The weights maximising the mean log-likelihood less ``ridge`` times their squared sum."""
    from scipy.optimize import minimize

    batch = _batch(examples)
    P = len(examples)

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        ll, g = log_likelihoods(theta, batch, grad=True)
        return -ll.sum() / P + ridge * theta @ theta, -g / P + 2 * ridge * theta

    res = minimize(objective, np.zeros(H.N_FEATURES), jac=True, method="L-BFGS-B",
                   options={"maxiter": 500, "gtol": 1e-9, "ftol": 1e-14})
    return res.x, {"converged": bool(res.success), "iterations": int(res.nit), "message": str(res.message)}


def _per_position(theta: np.ndarray, examples: Sequence[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Each position's log-likelihood of the opponent's actual hand under ``theta`` and under the uniform deal."""
    ll = log_likelihoods(np.asarray(theta, float), _batch(examples))
    uni = np.array([H.uniform_log_likelihood(len(e["y"]), e["n"]) for e in examples])
    return ll, uni


def evaluate(theta: np.ndarray, examples: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Mean log-likelihood per position (nats) of the actual hands under ``theta`` and the uniform
    deal, with the standard error of the per-position difference, and per hand card."""
    ll, uni = _per_position(theta, examples)
    d = ll - uni
    cards = sum(e["n"] for e in examples)
    return {"positions": len(examples), "hand_cards": int(cards), "model": float(ll.mean()),
            "uniform": float(uni.mean()), "gain": float(d.mean()), "gain_se": float(d.std(ddof=1) / np.sqrt(len(d))),
            "gain_per_card": float(d.sum() / cards)}


def score(theta: np.ndarray, examples: Sequence[dict[str, Any]]) -> dict[str, float]:
    """``theta`` on ``examples``: the mean log-likelihood per position (nats) under it and under the
    uniform deal, and the gain (their difference) with its standard error over rounds (a round's
    positions one sample, ``clusters.ratio_stderr``: estimates, the rounds a sample of deals)."""
    from lcanalysis.clusters import cluster_totals, ratio_stderr

    if not examples:
        raise ValueError("no positions to score")
    ll, uni = _per_position(theta, examples)
    rounds = np.array([e["round"] for e in examples])
    gain, se = ratio_stderr(*cluster_totals(ll - uni, rounds))
    return {"rounds": len(set(rounds.tolist())), "positions": len(examples), "model": float(ll.mean()),
            "uniform": float(uni.mean()), "gain": gain, "gain_se": se}


def score_difference(theta: np.ndarray, base: np.ndarray, examples: Sequence[dict[str, Any]]) -> tuple[float, float]:
    """The mean log-likelihood per position under ``theta`` less that under ``base`` on the same
    positions, with its standard error over rounds (paired: an estimate, the rounds a sample)."""
    from lcanalysis.clusters import cluster_totals, ratio_stderr

    if not examples:
        raise ValueError("no positions to score")
    d = _per_position(theta, examples)[0] - _per_position(base, examples)[0]
    return ratio_stderr(*cluster_totals(d, np.array([e["round"] for e in examples])))


def held_out_positions(rounds: int, seed: int = SEED, every: int = EVERY, colors: int = 5,
                       agents: Sequence[str] = AGENTS, progress: bool = False) -> list[dict[str, Any]]:
    """The positions of the held-out rounds among rounds ``0 .. rounds - 1`` (``k % HOLDOUT ==
    HOLDOUT - 1``), sampled as ``train`` samples them; only those rounds are played (``progress``: a bar
    over them on standard error)."""
    from lcanalysis.progress import progress_bar

    agents = check_agents(agents)
    held = progress_bar(range(HOLDOUT - 1, rounds, HOLDOUT), desc=f"held-out {' v '.join(agents)} rounds",
                        unit="round", progress=progress)
    return [e for k in held for e in play_positions(1, seed, every, colors, first=k, agents=agents)]


def train(rounds: int = ROUNDS, seed: int = SEED, every: int = EVERY, colors: int = 5,
          ridge: float = RIDGE, agents: Sequence[str] = AGENTS, progress: bool = False) -> dict[str, Any]:
    """Play (``agents``' self-play; ``progress``: a bar over the rounds), fit and evaluate; returns the
    contents of a weights file."""
    t0 = time.process_time()
    agents = check_agents(agents)
    examples = play_positions(rounds, seed, every, colors, agents=agents, progress=progress)
    train_set = [e for e in examples if e["round"] % HOLDOUT != HOLDOUT - 1]
    held = [e for e in examples if e["round"] % HOLDOUT == HOLDOUT - 1]
    theta, info = fit(train_set, ridge)
    theta = np.round(theta, DIGITS) + 0.0
    return {
        "model": "conditional logit: P(hand S) proportional to prod over S of exp(weights . features)",
        "features": list(H.FEATURES),
        "weights": {f: float(v) for f, v in zip(H.FEATURES, theta)},
        "training": {"rounds": rounds, "seed": seed, "every": every, "colors": colors, "ridge": ridge,
                     "agents": list(agents), "positions": len(train_set), **info},
        "held_out": {"rounds": f"k % {HOLDOUT} == {HOLDOUT - 1}", **evaluate(theta, held)},
        "train_fit": evaluate(theta, train_set),
        "cpu_seconds": round(time.process_time() - t0, 1),
    }


def compare_picks(before: Any, after: Any, worlds: int = 1000, seed: int = 0) -> Any:
    """Is the advisor's top turn made worse? Two calibration studies of the same positions (same
    seed and ``every``; e.g. advised without and with the hand model), matched on (round, turn),
    mid-round only (more cards left than either study's hand-over to the endgame search, its
    ``endgame_cards``: the model does not touch the endgame search). Where the two best turns
    differ, both are played out from the *full*
    position (both hands known, only the pile's order left to chance: ``advisor.hint_view``) in
    ``worlds`` shared worlds; the table has, per position, the difference of their values (after
    minus before; 0 where the two agree). The mean over positions, with its standard error over
    rounds, is what the change of the top turn is worth against the real opponent's hand."""
    import pandas as pd

    from lcanalysis.advisor import hint_view
    from lcanalysis.rollouts import Rollouts
    from lcanalysis.studies.calibration import play_calibration_round, positions_of

    key = ["round", "turn"]
    a, b = before.set_index(key), after.set_index(key)
    common = a.index.intersection(b.index)
    handover = max(int(df.attrs.get("identity", {}).get("endgame_cards", 3)) for df in (before, after))
    common = [k for k in common if int(a.loc[k, "cards_left"]) > handover]
    rows = []
    by_round: dict[int, list] = {}
    for k, t in common:
        by_round.setdefault(int(k), []).append(int(t))
    for k, turns in sorted(by_round.items()):
        played = play_calibration_round(k, seed=int(before.attrs.get("identity", {}).get("seed", 0)))
        wanted = set(turns)
        for t, pos in positions_of(played):
            if t not in wanted:
                continue
            old, new = str(a.loc[(k, t), "best"]), str(b.loc[(k, t), "best"])
            row = {"round": k, "turn": t, "cards_left": pos.deck_count, "before": old, "after": new,
                   "differ": old != new, "difference": 0.0, "difference_se": 0.0}
            if old != new:
                view, _ = hint_view(pos)
                codes = [pos._code(Move.parse(m, pos.colors)) for m in (old, new)]
                r = Rollouts(view, codes, seed * 1_000_003 + k * 1009 + t)
                r.sample(worlds)
                d, se = r.difference(1, 0)
                row.update(difference=d, difference_se=se)
            rows.append(row)
    return pd.DataFrame(rows)


def picks_summary(table: Any) -> dict[str, float]:
    """``compare_picks``' table summed up: positions, how many top turns differ, the mean
    difference (after minus before, in points a position) with its standard error over rounds,
    and among the positions that differ."""
    from lcanalysis.studies.calibration import clustered_mean

    m, se, _ = clustered_mean(table["difference"].to_numpy(float), table["round"].to_numpy())
    d = table[table["differ"]]
    md, sed = clustered_mean(d["difference"].to_numpy(float), d["round"].to_numpy())[:2] if len(d) else (0.0, 0.0)
    return {"positions": len(table), "differ": int(table["differ"].sum()), "mean": m, "mean_se": se,
            "mean_where_differ": md, "mean_where_differ_se": sed,
            "after_better": int((d["difference"] > 2 * d["difference_se"]).sum()),
            "before_better": int((d["difference"] < -2 * d["difference_se"]).sum())}


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m lcanalysis.studies.hand_model train [--rounds N] [--seed S] [--every K] [--agents A B] --out FILE``,
    ``... score WEIGHTS... [--agents A B] [--rounds N]``, ``... picks BEFORE AFTER``"""
    from lcanalysis.options import MAX_SEED, nonneg, number


    # counts are checked as they are read: --rounds 2 (no held-out round), --every 0, a missing study
    # file or --worlds 0 ended in a traceback (max() of an empty sequence, modulo by zero, ...)
    args_list = list(sys.argv[1:] if argv is None else argv)
    ap = CommandParser(prog="python -m lcanalysis.studies.hand_model", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    tr = sub.add_parser("train", help="play, fit and write the weights file")
    tr.add_argument("--rounds", type=nonneg("--rounds", minimum=HOLDOUT), default=ROUNDS,
                    help=f"self-play rounds, {HOLDOUT} or more: every {HOLDOUT}th is held out (default {ROUNDS})")
    tr.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=SEED)
    tr.add_argument("--every", type=nonneg("--every", minimum=1), default=EVERY,
                    help=f"a position every K turns (default {EVERY})")
    tr.add_argument("--colors", type=int, choices=(5, 6), default=5)
    tr.add_argument("--ridge", type=number("--ridge"), default=RIDGE)
    tr.add_argument("--agents", nargs=2, metavar=("A", "B"), default=list(AGENTS),
                    help="the self-play's two agents (agents.make_agent names; default heuristic heuristic)")
    tr.add_argument("--out", required=True, help="the weights file (JSON), e.g. lcanalysis/data/hand_model.json")
    sc = sub.add_parser("score", help="weights files' log-likelihood on the held-out rounds of a self-play")
    sc.add_argument("weights", nargs="+", help="weights files (JSON), e.g. lcanalysis/data/hand_model.json")
    sc.add_argument("--agents", nargs=2, metavar=("A", "B"), default=list(AGENTS),
                    help="the self-play's two agents (default heuristic heuristic)")
    sc.add_argument("--rounds", type=nonneg("--rounds", minimum=HOLDOUT), default=ROUNDS,
                    help=f"rounds 0 .. N-1, of which every {HOLDOUT}th is held out and played (default {ROUNDS})")
    sc.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=SEED)
    sc.add_argument("--every", type=nonneg("--every", minimum=1), default=EVERY)
    sc.add_argument("--colors", type=int, choices=(5, 6), default=5)
    sc.add_argument("--out", help="the scores (JSON): the command, the settings and one entry a weights file")
    pk = sub.add_parser("picks",
                        help="the advisor's top turns of two calibration studies, valued with both hands known")
    pk.add_argument("before", help="a calibration study file (e.g. data/simulated/calibration.csv)")
    pk.add_argument("after", help="the same positions advised otherwise (e.g. with --hand-model)")
    pk.add_argument("--worlds", type=nonneg("--worlds", minimum=2), default=1000,
                    help="worlds per position where the top turns differ (2 or more)")
    pk.add_argument("--seed", type=nonneg("--seed", MAX_SEED), default=0)
    pk.add_argument("--out", help="the per-position table (CSV)")
    args = ap.parse_args(args_list)
    if getattr(args, "out", None):
        ap.check_output("--out", args.out)
    if getattr(args, "agents", None):
        from lcanalysis.agents import AgentError

        try:
            check_agents(args.agents)
        except AgentError as e:
            ap.error(f"--agents: {e}")
    if args.cmd == "score":
        thetas = []
        for path in args.weights:
            try:
                thetas.append(H.read_weights_file(path))
            except ValueError as e:
                ap.error(str(e))
        held = held_out_positions(args.rounds, args.seed, args.every, args.colors, args.agents, progress=True)
        if not held:
            ap.error("the held-out rounds have no positions")
        print(f"held-out rounds of {' v '.join(args.agents)} self-play (k % {HOLDOUT} == {HOLDOUT - 1}, "
              f"k < {args.rounds}, seed {args.seed}, every {args.every}); log-likelihood per position in nats, "
              "estimates with their standard error over rounds:")
        scores: list[dict[str, Any]] = []
        for path, theta in zip(args.weights, thetas):
            r = score(theta, held)
            line = (f"{path}: {r['rounds']} rounds, {r['positions']} positions: {r['model']:.3f} (model) v "
                    f"{r['uniform']:.3f} (uniform): gain {r['gain']:+.3f} ± {r['gain_se']:.3f}")
            if scores:  # the same positions: the difference to the first file, paired
                r["minus_first"], r["minus_first_se"] = score_difference(theta, thetas[0], held)
                line += f"; minus {args.weights[0]}: {r['minus_first']:+.3f} ± {r['minus_first_se']:.3f}"
            scores.append({"weights": path, **r})
            print(line)
        if args.out:
            with open(args.out, "w", encoding="utf-8") as fh:
                json.dump({"command": "python -m lcanalysis.studies.hand_model " + shlex.join(args_list),
                           "held_out": {"agents": list(args.agents), "rounds": f"k % {HOLDOUT} == {HOLDOUT - 1}, "
                                        f"k < {args.rounds}", "seed": args.seed, "every": args.every,
                                        "colors": args.colors},
                           "unit": "nats a position; gain_se: standard error over rounds", "scores": scores},
                          fh, indent=1)
                fh.write("\n")
        return 0
    if args.cmd == "picks":
        from lcanalysis.studies.calibration import load_calibration

        try:
            studies = [load_calibration(path) for path in (args.before, args.after)]
        except (OSError, ValueError) as e:
            ap.error(f"{e.filename}: {e.strerror}" if isinstance(e, OSError) else str(e))
        table = compare_picks(studies[0], studies[1], args.worlds, args.seed)
        if args.out:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write("# python -m lcanalysis.studies.hand_model " + shlex.join(args_list) + "\n")
                table.to_csv(fh, index=False)
        sm = picks_summary(table)
        print(f"{sm['positions']} mid-round positions; the top turns differ at {sm['differ']}; the top turn's value "
              f"with both hands known, after minus before: {sm['mean']:+.3f} ± {sm['mean_se']:.3f} a position, "
              f"{sm['mean_where_differ']:+.2f} ± {sm['mean_where_differ_se']:.2f} where they differ "
              f"(after better by 2 s.e. at {sm['after_better']}, before better at {sm['before_better']})")
        return 0
    result = train(args.rounds, args.seed, args.every, args.colors, args.ridge, args.agents, progress=True)
    result = {"command": "python -m lcanalysis.studies.hand_model " + shlex.join(args_list), **result}
    cpu = result.pop("cpu_seconds")
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(result, fh, indent=1)
        fh.write("\n")
    h = result["held_out"]
    print(json.dumps(result["weights"], indent=1))
    print(f"held out: {h['positions']} positions, {h['hand_cards']} unknown hand cards; log-likelihood per position "
          f"{h['model']:.3f} (model) v {h['uniform']:.3f} (uniform): {h['gain']:+.3f} ± {h['gain_se']:.3f} nats, "
          f"{h['gain_per_card']:+.3f} a card; {cpu:.0f} CPU-seconds")
    return 0


if __name__ == "__main__":  # pragma: no cover
    run_script(main)
