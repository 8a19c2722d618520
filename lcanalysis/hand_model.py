"""A learned model of the opponent's hand: which unseen cards the opponent is likely to hold.

The advisor's play-outs deal the opponent's unknown cards from the cards the viewer cannot see.
Dealt uniformly, the opponent holds any unseen card as often as the draw pile does; a real
opponent keeps the cards it wants (cards above its top card in a colour it has opened) and has
discarded the ones it did not. This model says how much more likely each unseen card is to be in
the opponent's hand, from what the viewer sees (``card_features``: a handful of per-card facts of
the ``View``), and ``rollouts.Rollouts`` deals worlds from it (``core.policy.determinize_weighted``).

**The model (conditional logit).** Each unseen card ``i`` gets a weight ``w_i = exp(theta . x_i)``
from its features ``x_i``; a hand ``S`` of the opponent's ``n`` unknown cards has probability
``prod_{i in S} w_i / e_n(w)``, where ``e_n`` is the elementary symmetric polynomial of degree
``n`` of the weights (the sum of the products over every ``n``-card hand). This is exactly the
distribution of independent "in hand" coins with odds ``w_i`` conditioned on the hand holding
``n`` cards (a conditional Poisson design), so with all weights equal it is the uniform deal,
the likelihood of a hand is exact and cheap (a dynamic programme over the cards), and the
inclusion probability of each card (``inclusion_probabilities``) is exact too. The dealer samples
this distribution exactly (sequentially, card by card, from the same dynamic programme: compiled in
``core.policy.determinize_weighted`` for the play-outs, ``sample_hand`` here for a rollout's worlds): unlike
weighted draws one at a time without replacement (equivalently the Gumbel top-k trick), whose
hands follow a different law than the one fitted and have no closed-form likelihood. A feature
that is the same for every card of a position (such as the cards left in the draw pile) cancels
in this model, so the features vary by card; the stage of the round enters as an interaction.

The weights are fitted by ``python -m lcanalysis.studies.hand_model train`` on heuristic
self-play positions, where the opponent's hand is known, so the labels are exact; the file
``lcanalysis/data/hand_model.json`` holds them (data/README.md, docs/agents.md).
"""

from __future__ import annotations

import functools
import json
import math
from importlib import resources
from typing import Any

import numpy as np

from lcanalysis.game.cards import brief, whole_number
from lcanalysis.game.position import Position, PositionError
from lcanalysis.game.view import View

#: the per-card features, in the order of the weights (``card_features``)
FEATURES = (
    "opp_fits",         # the opponent has started the card's colour and the card still fits there
    "opp_fits_gap",     # ... and how far above the opponent's top number it lies (tens of ranks)
    "opp_fits_late",    # opp_fits times the share of the draw pile already drawn (0 at the deal)
    "opp_dead",         # the opponent has started the colour and the card no longer fits
    "wager_unopened",   # a wager of a colour the opponent has not started
    "viewer_fits",      # the viewer has started the colour and the card still fits there
    "opp_discarded",    # the opponent has discarded cards of this colour this round (0, 0.5, 1: none, one, more)
)
N_FEATURES = len(FEATURES)
#: the package file of the shipped weights
WEIGHTS_FILE = "hand_model.json"
#: the package file of the weights fitted the same way on the ``best`` agent's self-play
#: (data/simulated/hand_model_best.json, copied): the hint's endgame search weighs a view's splits by them
BEST_PLAY_WEIGHTS_FILE = "hand_model_best.json"


def _fits(cards: list[Any], number: int, wager: bool) -> bool:
    """Whether a card (its number, or a wager) can still go on an expedition of ``cards``."""
    top = max((c.number for c in cards if not c.is_wager), default=0)
    return (not top) if wager else number > top


def card_features(view: View) -> tuple[np.ndarray, np.ndarray]:
    """The unseen cards of ``view`` (card types, in ``view.unseen()`` order: the order of the pool
    that ``rollouts.view_state`` deals) and their features (one row a card, ``FEATURES``).
    Reads only what the viewer sees: the table, the discard piles, the history of turns and the
    size of the draw pile. A view with buried pile cards is filled first (``View.random_fill``)."""
    if not isinstance(view, View):  # the model reads what one player sees
        hint = ": give position.view(player)" if isinstance(view, Position) else ""
        raise PositionError(f"the opponent-hand model takes a View (what one player knows), got "
                            f"{type(view).__name__}{hint}")
    if view.buried_count:
        raise ValueError("fill the view's buried pile cards first (View.random_fill)")
    nc = view.colors
    opp, me = view.opponent, view.viewer
    unseen = view.unseen()
    # the opponent's discards by colour: turns alternate, the last turn of the history was the
    # opponent's when the viewer is to move
    discarded = np.zeros(nc)
    hist = view.history
    n = len(hist)
    for i, mv in enumerate(hist):
        mover = view.to_move if (n - i) % 2 == 0 else 1 - view.to_move
        if mover == opp and mv.card is not None and not mv.play:
            discarded[mv.card.color] += 1
    late = max(0.0, 1.0 - view.deck_count / view.rules.draw_pile_after_deal)
    x = np.zeros((len(unseen), N_FEATURES), np.float64)
    for i, card in enumerate(unseen):
        c = card.color
        oc = view.expeditions[opp][c]
        mc = view.expeditions[me][c]
        if oc:
            if _fits(oc, card.number, card.is_wager):
                top = max((k.number for k in oc if not k.is_wager), default=1)
                x[i, 0] = 1.0
                x[i, 1] = 0.0 if card.is_wager else (card.number - top) / 10.0
                x[i, 2] = late
            else:
                x[i, 3] = 1.0
        elif card.is_wager:
            x[i, 4] = 1.0
        if mc and _fits(mc, card.number, card.is_wager):
            x[i, 5] = 1.0
        x[i, 6] = min(discarded[c], 2.0) / 2.0
    return np.array([c.type for c in unseen], dtype=np.int32), x


def shipped_weights() -> np.ndarray:
    """The weights of ``lcanalysis/data/hand_model.json`` (``FEATURES`` order), fitted on the heuristic's
    self-play: the play-outs deal by them."""
    return package_weights(WEIGHTS_FILE)


def best_play_weights() -> np.ndarray:
    """The weights of ``lcanalysis/data/hand_model_best.json``, fitted on the ``best`` agent's self-play: the
    hint's endgame search weighs the splits of a view's unseen cards by them (``advise``'s
    ``endgame_splits="model"``), where they met strong play's results best (docs/endgame.md)."""
    return package_weights(BEST_PLAY_WEIGHTS_FILE)


@functools.lru_cache(maxsize=2)
def package_weights(name: str) -> np.ndarray:
    """The weights of the package's weights file ``lcanalysis/data/NAME`` (``FEATURES`` order)."""
    text = resources.files("lcanalysis").joinpath("data", name).read_text(encoding="utf-8")
    return weights_from_json(json.loads(text))


def read_weights_file(path: str) -> np.ndarray:
    """The weights of a weights file on disk (``weights_from_json``): a ValueError starting with the path and
    saying what is wrong (the file cannot be read, is not JSON, or holds other features or weights)."""
    try:
        with open(path, encoding="utf-8") as fh:
            obj = json.load(fh)
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror or e}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not a JSON weights file ({e})") from None
    try:
        return weights_from_json(obj)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def weights_from_json(obj: dict[str, Any]) -> np.ndarray:
    """The weight vector of a weights file's contents; refuses a file of other features."""
    if not isinstance(obj, dict) or not isinstance(obj.get("features"), list) \
            or not isinstance(obj.get("weights"), dict):
        raise ValueError(f"a weights file is an object with a 'features' list and a 'weights' object, "
                         f"got {brief(obj)}")
    missing = [f for f in FEATURES if f not in obj["weights"]]
    if list(obj["features"]) == list(FEATURES) and missing:
        raise ValueError(f"the weights file has no weight for {missing}")
    if list(obj["features"]) != list(FEATURES):
        raise ValueError(f"the weights file's features {obj['features']} are not this model's {list(FEATURES)}")
    w = np.array([float(obj["weights"][f]) for f in FEATURES], dtype=np.float64)
    if not np.all(np.isfinite(w)):
        raise ValueError("the weights file holds a weight that is not a finite number")
    return w


def hand_weights(view: View, theta: np.ndarray | None = None) -> np.ndarray:
    """Each unseen card's weight ``exp(theta . x)`` (``view.unseen()`` order; ``theta``: the
    shipped weights by default). Only ratios matter; the largest weight is 1."""
    theta = shipped_weights() if theta is None else np.asarray(theta, np.float64)
    if theta.shape != (N_FEATURES,) or not np.all(np.isfinite(theta)):  # (else a matmul error, or nan weights)
        raise ValueError(f"theta must be {N_FEATURES} finite weights, one per feature {list(FEATURES)}, "
                         f"got shape {theta.shape}")
    _, x = card_features(view)
    logw = x @ theta
    return np.exp(logw - logw.max()) if len(logw) else logw


# --- the exact distribution: elementary symmetric polynomials ---------------------------------


def _forward(w: np.ndarray, n: int) -> np.ndarray:
    """``F[i, r]`` = e_r(w_0 .. w_{i-1}), r = 0..n (for a batch: ``w`` of shape (..., k))."""
    k = w.shape[-1]
    f = np.zeros(w.shape[:-1] + (k + 1, n + 1))
    f[..., 0, 0] = 1.0
    for i in range(k):
        f[..., i + 1, :] = f[..., i, :]
        f[..., i + 1, 1:] += w[..., i, None] * f[..., i, :-1]
    return f


def _weights_and_size(w: Any, n: Any) -> tuple[np.ndarray, int]:
    """``w`` as one row of weights (finite, at least 0) and ``n`` as a hand size 0..len(w) that
    the positive weights can fill; a ValueError naming the problem (it was an IndexError, a math
    domain error or a silent nan)."""
    w = np.asarray(w, np.float64)
    if w.ndim != 1 or not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError(f"w must be one row of finite weights, each 0 or more, got shape {w.shape}")
    size = whole_number(n)
    if size is None or not 0 <= size <= len(w):
        raise ValueError(f"n must be a whole number of cards 0..{len(w)} (the weights given), got {n!r}")
    if np.count_nonzero(w) < size:
        raise ValueError(f"no {size}-card hand has a weight above 0: only {np.count_nonzero(w)} weights are")
    return w, size


def log_esp(w: np.ndarray, n: int) -> float:
    """log e_n(w): the log of the sum over every n-card subset of the product of its weights."""
    w, n = _weights_and_size(w, n)
    return float(math.log(_forward(w, n)[-1, n]))


def inclusion_probabilities(w: np.ndarray, n: int) -> np.ndarray:
    """The exact chance that each card is among the ``n`` dealt, when a hand ``S`` has probability
    proportional to ``prod_{i in S} w_i``: ``w_i e_{n-1}(w without i) / e_n(w)``. Sums to ``n``."""
    w, n = _weights_and_size(w, n)
    k = len(w)
    if n == 0:
        return np.zeros(k)
    f = _forward(w, n)
    b = _forward(w[::-1], n)[::-1]  # b[i, r] = e_r(w_i .. w_{k-1})
    out = np.empty(k)
    for i in range(k):
        out[i] = w[i] * float(np.dot(f[i, :n], b[i + 1, n - 1::-1]))
    return out / f[-1, n]


def sample_hands(w: np.ndarray, n: int, rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """``count`` hands drawn as ``sample_hand`` draws one, from one table (its dynamic programme is the
    cost: the endgame search's sampled worlds draw dozens of hands of the same weights)."""
    w, n = _weights_and_size(w, n)
    f = _forward(w, n)
    return [_draw(w, n, f, rng) for _ in range(count)]


def _draw(w: np.ndarray, n: int, f: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One hand from ``f = _forward(w, n)`` (``sample_hand``)."""
    taken = []
    r = n
    for i in range(len(w) - 1, -1, -1):
        if r == 0:
            break
        if rng.random() * f[i + 1, r] < w[i] * f[i, r - 1]:
            taken.append(i)
            r -= 1
    return np.array(taken[::-1], dtype=np.int64)


def sample_hand(w: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """The indices (ascending) of ``n`` cards drawn exactly from the model's law, a hand ``S`` with
    probability proportional to ``prod_{i in S} w_i``: sequential conditional Poisson sampling from the
    table of ``_forward``, from the last card down: card ``i`` is taken, ``r`` cards still to deal, with
    probability ``w_i e_{r-1}(w_0..w_{i-1}) / e_r(w_0..w_i)`` (``core.policy.determinize_weighted`` does
    the same, compiled, in the play-outs). Equal weights give every ``n``-card hand alike."""
    w, n = _weights_and_size(w, n)
    return _draw(w, n, _forward(w, n), rng)


def uniform_log_likelihood(k: int, n: int) -> float:
    """The log-probability of any one n-card hand of k unseen cards under the uniform deal."""
    if whole_number(k) is None or whole_number(n) is None or not 0 <= n <= k:
        raise ValueError(f"k and n must be whole numbers with 0 <= n <= k (an n-card hand of k cards), "
                         f"got {k!r}, {n!r}")
    return -math.log(math.comb(k, n))
