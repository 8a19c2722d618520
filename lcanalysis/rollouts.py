"""The one flat Monte Carlo driver: candidate turns of a view played out in shared sampled worlds.

A *world* is one deal of the cards the viewer cannot see (the opponent's unknown cards and the
order of the draw pile), drawn uniformly (or, with ``bias`` > 1, favouring cards the opponent
can still use; or, with ``hand_model``, the opponent's hand from the learned model of
``lcanalysis.hand_model`` and the rest of the cards shuffled uniformly into the pile). World
``i`` depends only on the seed and ``i``, so every candidate is played in the same worlds
(common random numbers) and a sample can be extended later. After the candidate turn, both
sides play the round out with the heuristic policy, each seeing only its own cards; the outcome
is the final score difference, mover minus opponent.

The advisor, the search agent and the explorer's rollout table all sample through ``Rollouts``;
each decides which turns deserve more worlds, and ``Rollouts.analysis`` turns the samples into
the one answer type, ``Analysis``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from lcanalysis.analysis import Analysis, MoveValue
from lcanalysis.core import first_compile
from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.hand_model import hand_weights, shipped_weights
from lcanalysis.options import PLAYOUT_POLICIES, brief

#: rollouts the search agent and the advisor budget per millisecond of thinking time. Measured on
#: this project's 2-core machine: about 7 heuristic rollouts per ms from the deal to the end of a
#: round, more later in the round; the budget is a count, not a clock, so answers are reproducible.
ROLLOUTS_PER_MS = 6.0
#: the play-out policies' parameter vectors by name (``options.PLAYOUT_POLICIES``, where the command line
#: reads the names without loading the engine): the one map from a policy's name to its parameters, which the
#: hint (``advise(..., playout_policy=...)``) and the game review (``reviewer.settings.PLAYOUT_POLICY``) share
PLAYOUT_POLICY_PARAMS: dict[str, np.ndarray] = dict(zip(PLAYOUT_POLICIES,
                                                        (P.HEURISTIC_PARAMS, P.STALLING_PARAMS, P.TUNED_PARAMS),
                                                        strict=True))


def playout_params(policy: str) -> np.ndarray:
    """The parameter vector of the play-out policy named ``policy`` (``PLAYOUT_POLICY_PARAMS``); a
    ValueError naming the policies for any other name."""
    if not isinstance(policy, str) or policy not in PLAYOUT_POLICY_PARAMS:
        raise ValueError(f"the play-out policy must be one of {', '.join(PLAYOUT_POLICIES)}, got {brief(policy)}")
    return PLAYOUT_POLICY_PARAMS[policy]


def policy_name(params: np.ndarray) -> str | None:
    """The name of the play-out policy whose parameters are ``params`` (``PLAYOUT_POLICY_PARAMS``), or None
    for parameters of no named policy (a tuned agent's)."""
    return next((name for name, p in PLAYOUT_POLICY_PARAMS.items()
                 if p.shape == np.shape(params) and np.array_equal(p, params)), None)


def some_state(view: View) -> np.ndarray:
    """One full kernel state consistent with the view (a fixed deal of the unseen cards): what a
    policy that reads only the mover's information needs. Buried pile cards get a fixed fill."""
    if view.buried_count:
        view = view.random_fill(np.random.default_rng(0))
    unseen = view.unseen()
    u = view.opponent_unknown
    return view.complete(unseen[:u], unseen[u:]).state.copy()


def view_state(view: View) -> tuple[np.ndarray, np.ndarray, int, int]:
    """The kernel array of a view with the hidden cards left out.

    Returns ``(base, pool, n_unknown, opponent)``: ``base`` holds the viewer's hand, the table,
    the opponent's *known* cards and an empty draw pile of the right size; ``pool`` lists the
    unseen card types (the opponent's unknown cards plus the draw pile), to be dealt by
    ``policy.determinize``. Any deal of ``pool`` is a full position consistent with the view.
    """
    if view.buried_count:
        raise ValueError("fill the view's buried pile cards first (View.random_fill)")
    unseen = view.unseen()
    u = view.opponent_unknown
    base = view.complete(unseen[:u], unseen[u:]).state.copy()
    nc = view.colors
    oh = K.off_hand(nc, view.opponent)
    for card in unseen[:u]:
        base[oh + card.type] -= 1
    od = K.off_deck(nc)
    base[od + int(base[K.H_DECK_POS]):od + int(base[K.H_DECK_END])] = 0
    pool = np.array([c.type for c in unseen], dtype=np.int32)
    return base, pool, u, view.opponent


def policy_ranking(view: View, params: np.ndarray = P.HEURISTIC_PARAMS) -> tuple[np.ndarray, np.ndarray]:
    """Every legal turn's kernel code, in the policy's order of generation, and its one-ply score."""
    first_compile.ready(first_compile.PLAYOUTS)  # (compiled once, saying so: core.first_compile)
    s = some_state(view)
    codes = np.empty(K.MAX_MOVES, np.int32)
    scores = np.empty(K.MAX_MOVES, np.float64)
    n = P.policy_scores(s, params, codes, scores)
    return codes[:n].copy(), scores[:n].copy()


class Rollouts:
    """Candidate turns (kernel codes) of ``view`` and their play-out outcomes so far.

    ``samples[k]`` holds candidate ``k``'s outcomes in worlds ``0 .. len(samples[k]) - 1``.

    ``hand_model``: ``None`` or ``False`` deals the opponent's unknown cards uniformly (or by
    ``bias``); ``True`` deals them from the shipped opponent-hand model
    (``hand_model.shipped_weights``); an array, from the same model with these weights
    (``hand_model.FEATURES`` order). The model reads only the view.

    ``tail`` (0: off): each play-out ends where ``tail`` cards are left in the draw pile, valued by
    the exact endgame search with ``tail_stalls`` discard-pile draws left to each player
    (``search.tail``), not played out by the heuristic.
    """

    def __init__(self, view: View, codes: Sequence[int] | np.ndarray, seed: int = 0,
                 params: np.ndarray = P.HEURISTIC_PARAMS, bias: float = 1.0,
                 hand_model: bool | np.ndarray | None = None, streams: bool = False,
                 tail: int = 0, tail_stalls: int = 0) -> None:
        self.view = view
        self.streams = bool(streams)
        self.tail, self.tail_stalls = int(tail), int(tail_stalls)
        self._tail = None
        if self.tail:
            first_compile.ready(first_compile.SOLVER)  # (its warm-up step compiles the tails too)
            from lcanalysis.search.tail import shared_tail_tables  # the search loads only where asked for
            self._tail = shared_tail_tables()
        self.codes = np.asarray(codes, dtype=np.int32)
        self.seed = int(seed)
        self.params = params
        self.bias = float(bias)
        if hand_model is None or hand_model is False:
            self.theta = None
        else:
            self.theta = None if hand_model is True else np.asarray(hand_model, np.float64)
            if self.bias != 1.0:
                raise ValueError("a hand model and a bias are two ways to deal the opponent's cards: give one")
            self.theta = shipped_weights() if self.theta is None else self.theta
        first_compile.ready(first_compile.PLAYOUTS)  # after the checks: a bad argument is refused at once
        # buried pile cards: world i first fills them from its own generator, then deals the rest;
        # the kernel states of the fills met so far are kept
        self._fills: dict[tuple[str, ...], tuple] = {}
        if not view.buried_count:
            self._base, self._pool, self._unknown, self._opp = view_state(view)
            self._w = self._weights(view)
        self.samples: list[np.ndarray] = [np.empty(0, np.float64) for _ in range(len(self.codes))]

    def sample(self, worlds: int, which: Sequence[int] | np.ndarray | None = None) -> None:
        """Extend the candidates ``which`` (default: all, which must then share one sample size)
        to ``worlds`` worlds each."""
        idx = list(range(len(self.codes))) if which is None else [int(k) for k in which]
        if not idx:
            return
        first = len(self.samples[idx[0]])
        if any(len(self.samples[k]) != first for k in idx):
            raise ValueError("candidates extended together must have the same number of worlds")
        if worlds <= first:
            return
        more = np.empty((len(idx), worlds - first), np.float64)
        if not self.view.buried_count:
            self._flat_mc(self._base, self._pool, self._unknown, self._opp, self._w, self.codes[idx], first,
                          int(worlds), more)
        else:
            one = np.empty((len(idx), 1), np.float64)
            codes = self.codes[idx]
            for i in range(first, int(worlds)):
                base, pool, unknown, opp, w = self._world_fill(i)
                self._flat_mc(base, pool, unknown, opp, w, codes, i, i + 1, one)
                more[:, i - first] = one[:, 0]
        for j, k in enumerate(idx):
            self.samples[k] = np.concatenate([self.samples[k], more[j]]) if first else more[j]

    def halve(self, budget: int, fit: Callable[[Rollouts, int], int] | None = None, keep: Sequence[int] = (),
              min_worlds: int = 8, max_worlds: int | None = None) -> tuple[int, list[int]]:
        """Successive halving (Karnin, Koren and Somekh 2013) of ``budget`` play-outs over the
        candidates: ceil(log2 n) rounds share the budget equally; in each, every candidate still in
        is extended to the same number of worlds (the first round at least ``min_worlds``, none
        beyond ``max_worlds``), then the better half by mean stays in. The candidates ``keep`` are
        extended every round but never compete (the search agent's baseline turn), so they share
        every world of the winner. ``fit(rollouts, budget)``, if given, refits the budget after
        each round (a wall clock). A candidate left out had a mean no higher than every candidate
        kept, on the same worlds, so its paired loss against the winner is never below zero.
        Returns the winner (the last one in of those not kept; a kept one if no other) and the
        sample size after each round."""
        kept = [int(k) for k in keep]
        alive = [k for k in range(len(self.codes)) if k not in kept] or kept[:1]
        kept = [k for k in kept if k not in alive]
        rounds = math.ceil(math.log2(len(alive))) if len(alive) > 1 else 1
        sizes = []
        for i in range(rounds):
            members = kept + alive
            have = len(self.samples[members[0]])
            more = (budget - self.worlds) // ((rounds - i) * len(members))
            target = have + max(min_worlds if i == 0 else 0, more)
            self.sample(target if max_worlds is None else min(target, max(max_worlds, have)), members)
            sizes.append(len(self.samples[members[0]]))
            if fit is not None:
                budget = fit(self, budget)
            means = np.array([self.samples[k].mean() for k in alive])
            alive = [alive[j] for j in np.argsort(-means, kind="stable")[: (len(alive) + 1) // 2]]
        return alive[0], sizes

    def _weights(self, view: View) -> np.ndarray | None:
        """The opponent-hand model's weight of each pool card of ``view`` (None: no model)."""
        return None if self.theta is None else hand_weights(view, self.theta)

    def _flat_mc(self, base, pool, unknown, opp, w, codes, first, last, out) -> None:
        if self._tail is not None:
            self._tail.run(base, pool, unknown, opp, codes, first, last, self.seed, self.params, out, w, self.bias,
                           self.streams, self.tail, self.tail_stalls)
            return
        if w is None:
            P.flat_mc(base, pool, unknown, opp, codes, first, last, self.seed, self.params, self.params, out,
                      self.bias, self.streams)
        else:
            P.flat_mc_weighted(base, pool, unknown, opp, codes, first, last, self.seed, self.params, self.params,
                               out, w, self.streams)

    def _world_fill(self, i: int) -> tuple:
        filled = self.view.random_fill(np.random.default_rng([self.seed, i]))
        key = tuple(str(card) for pile in filled.discards for card in pile)
        if key not in self._fills:
            self._fills[key] = (*view_state(filled), self._weights(filled))
        return self._fills[key]

    @property
    def worlds(self) -> int:
        """The number of worlds sampled in all, over every candidate."""
        return int(sum(len(x) for x in self.samples))

    def means(self) -> np.ndarray:
        return np.array([x.mean() for x in self.samples])

    def difference(self, a: int, b: int) -> tuple[float, float]:
        """Candidate ``a``'s mean outcome minus ``b``'s over the worlds both were played in, and the
        standard error of that difference. The worlds are shared, so the error is that of the
        paired differences: much smaller than either value's own when the worlds explain most of
        the spread (common random numbers)."""
        n = min(len(self.samples[a]), len(self.samples[b]))
        if n == 0:
            raise ValueError("no world holds both candidates yet")
        d = self.samples[a][:n] - self.samples[b][:n]
        return float(d.mean()), float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else float("inf")

    def value_through(self, a: int, b: int) -> tuple[float, float]:
        """Candidate ``b``'s value estimated through ``a`` (a control variate): ``a``'s mean over all
        of its worlds minus the paired difference ``a - b`` over the worlds both were played in
        (``difference``), so that ``a``'s value minus this is exactly that difference. As unbiased as
        ``b``'s own mean (the worlds are alike), the same when ``b`` was played in all of ``a``'s
        worlds, and far less noisy when ``b`` was dropped early: the shared worlds explain most of
        the spread, and ``a``'s other worlds correct for how lucky the shared ones were. The standard
        error sums the independent worlds' contributions."""
        xa, xb = self.samples[a], self.samples[b]
        na, m = len(xa), min(len(xa), len(self.samples[b]))
        if m == 0:
            raise ValueError("no world holds both candidates yet")
        value = float(xa.mean()) - float((xa[:m] - xb[:m]).mean())  # as difference() has it, to the last bit
        shared = xa[:m] * (1.0 / na - 1.0 / m) + xb[:m] / m  # each shared world's share of the estimate
        if m < 2:
            return value, float("inf")
        rest = xa[m:] if na - m > 1 else xa  # (too few other worlds for a spread: a's spread over all)
        var = m * float(shared.var(ddof=1)) + (na - m) * float(rest.var(ddof=1)) / na**2
        return value, float(np.sqrt(var))

    def move(self, k: int) -> Move:
        return Move.from_code(int(self.codes[k]), self.view.colors)

    def analysis(self, kind: str, method: str, seconds: float = 0.0, notes: Sequence[str] = (),
                 reason: str = "", keep_samples: bool = False) -> Analysis:
        """The samples as ranked turns: each turn's mean outcome and the standard error over worlds; the
        answer's ``playout_policy`` names the policy of the play-outs (``policy_name``), its ``hand_model`` and
        ``deck_streams`` how they dealt the unseen cards (the model's weights, ``streams``)."""
        moves = []
        for k, x in enumerate(self.samples):
            extra: dict = {"worlds": len(x)}
            if keep_samples:
                extra["samples"] = x.copy()
            moves.append(MoveValue(str(self.move(k)), float(x.mean()),
                                   float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("inf"),
                                   exact=False, reason=reason, extra=extra))
        return Analysis(moves, kind=kind, exact=False, nodes=self.worlds, playouts=self.worlds, seconds=seconds,
                        method=method, notes=list(notes), playout_policy=policy_name(self.params),
                        hand_model=self.theta is not None, deck_streams=self.streams)
