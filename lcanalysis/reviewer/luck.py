"""The luck of a deck draw: value after drawing the card drawn minus the mean over the cards that
could have been drawn, from twin worlds (``lcanalysis.reviewer``'s docstring, "Luck")."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from lcanalysis.core import kernel as K
from lcanalysis.core import policy as P
from lcanalysis.game.cards import Card
from lcanalysis.game.moves import Move
from lcanalysis.game.view import View
from lcanalysis.reviewer.settings import ReviewError
from lcanalysis.rollouts import view_state

# --- luck of a deck draw ---------------------------------------------------------------------------


def draw_luck(view: View, move: Move | str, drawn: Card | str, worlds: int, seed: int = 0,
              params: np.ndarray = P.HEURISTIC_PARAMS, pile: Sequence[Card] | None = None,
              hand_model: bool = False) -> dict[str, float]:
    """The luck of drawing ``drawn`` with the turn ``move`` (which draws from the deck), from
    ``view`` (the drawing player's, before the turn): value after the draw minus the mean value
    over the possible draws, estimated in ``worlds`` twin worlds (module docstring).

    Returns ``{"luck", "stderr", "before", "after", "worlds"}``: ``before`` is the mean over the
    possible draws (the turn's value), ``after`` the value given the card drawn.

    ``pile``: the cards really in the draw pile, when the record knows them (a full deal). The
    card the luck is measured against is then drawn from that pile, not from every card the
    drawer cannot see: the opponent keeps the cards they chose to keep, so the unseen cards are
    not a fair picture of the pile, and measured that way the luck of real draws averaged -0.57
    points a draw (nine standard errors below zero over 8,800 draws). Against the real pile the
    luck's mean is zero by construction: the card drawn and the card compared are alike.

    ``hand_model`` (a one-player record, no ``pile``): deal the opponent's unknown cards by the
    opponent-hand model (``lcanalysis.hand_model``) instead of uniformly, so that the cards the
    opponent chose to keep are less likely to be the pile's (``_modelled_luck``)."""
    nc = view.colors
    if isinstance(move, str):
        move = Move.parse(move, nc)
    if isinstance(drawn, str):
        drawn = Card.parse(drawn, nc)
    if not move.draws_from_deck:
        raise ReviewError(f"{move} does not draw from the deck: its draw has no luck")
    if view.viewer != view.to_move:
        raise ReviewError("luck is rated from the view of the player who draws, before the turn")
    base, pool, u, opp = view_state(view)
    card = drawn.type
    if card not in pool:
        raise ReviewError(f"{drawn} is not among the cards player {view.viewer} cannot see")
    code = move.code(nc)
    me = view.to_move
    oh = K.off_hand(nc, opp)
    od = K.off_deck(nc)
    pos0 = int(base[K.H_DECK_POS])
    k = len(pool)
    rng = np.random.default_rng(seed)
    worlds = max(2, int(worlds))
    before = np.empty(worlds)
    after = np.empty(worlds)
    s = np.empty_like(base)

    def play(perm: np.ndarray) -> float:
        s[:] = base
        np.add.at(s, oh + perm[:u], 1)
        s[od + pos0:od + pos0 + k - u] = perm[u:]
        s[K.H_DECK_END] = pos0 + k - u
        K.apply_move(s, code)
        return float(P.rollout(s, params, params, me))

    if hand_model and pile is None:
        return _modelled_luck(view, pool, u, card, worlds, rng, play)
    choices = None if pile is None else np.array([c.type for c in pile], dtype=pool.dtype)

    def with_on_top(perm: np.ndarray, t: int) -> np.ndarray:
        """The world with a card of type ``t`` swapped to the top of the draw pile."""
        out = perm.copy()
        if out[u] != t:
            where = np.flatnonzero(out == t)
            j = int(where[rng.integers(len(where))])
            out[u], out[j] = out[j], out[u]
        return out

    for i in range(worlds):
        perm = rng.permutation(pool)
        if choices is not None:  # compare with a card of the real pile, on top of the same world
            perm = with_on_top(perm, int(choices[rng.integers(len(choices))]))
        before[i] = play(perm)
        after[i] = before[i] if perm[u] == card else play(with_on_top(perm, card))
    d = after - before
    return {"luck": float(d.mean()), "stderr": float(d.std(ddof=1) / math.sqrt(worlds)),
            "before": float(before.mean()), "after": float(after.mean()), "worlds": worlds}


def modelled_twins(pool: np.ndarray, u: int, card: int, w_all: np.ndarray, worlds: int, rng: np.random.Generator):
    """The twin worlds of ``_modelled_luck``: for each, ``(after, before, ratio)``, where ``after``
    and ``before`` list the opponent's ``u`` unknown cards then the pile from the top (``before``
    None: the same world), ``card`` on top of ``after``, and ``ratio`` the weight of ``before``."""
    k = len(pool)
    at = int(np.flatnonzero(pool == card)[0])
    rest_pool = np.delete(pool, at)
    w = np.delete(w_all, at)
    table = P.esp_table(w, u)
    for _ in range(worlds):
        take = np.zeros(k - 1, bool)
        r = u
        for j in range(k - 1):  # card j joins the hand with probability w_j e_{r-1}(w[j+1:]) / e_r(w[j:])
            if r > 0 and rng.random() * table[j, r] < w[j] * table[j + 1, r - 1]:
                take[j] = True
                r -= 1
        after = np.concatenate([rest_pool[take], [card], rng.permutation(rest_pool[~take])]).astype(pool.dtype)
        j = int(rng.integers(k))
        if j == u:
            yield after, None, 1.0
            continue
        ratio = float(w_all[at] / w[np.flatnonzero(take)[j]]) if j < u else 1.0
        before = after.copy()
        before[u], before[j] = before[j], before[u]
        yield after, before, ratio


def _modelled_luck(view: View, pool: np.ndarray, u: int, card: int, worlds: int, rng: np.random.Generator,
                   play: Callable[[np.ndarray], float]) -> dict[str, float]:
    """``draw_luck`` under the opponent-hand model: a world deals the opponent's ``u`` unknown cards
    ``H`` with probability proportional to the product of the model's card weights ``w`` over
    ``H`` (conditional Poisson sampling, exact), the rest in uniform order is the pile.

    *After* (the law given the card drawn on top): one copy of it on top, ``H`` dealt by the
    model from the other cards, the rest shuffled below; for a card of one copy that is exactly
    the model's law given that card on top, and for the three wagers of a colour too (the chance
    of a hand is then proportional to its weight times the copies left in the pile, which is what
    picking one copy first gives). *Before* (the model's law): the twin of each after-world with
    the card on top swapped with a slot chosen uniformly among all ``k`` unseen places. A twin
    whose swap stays in the pile has the model's chance up to a constant; one that puts the card
    into ``H`` in place of card ``x`` has it times ``w[card] / w[x]``, so the mean before the draw
    is weighted by those ratios (self-normalized). Equal weights give the uniform deal, and then
    every ratio is 1. Pairing each world with its twin keeps the error small."""
    from lcanalysis.hand_model import hand_weights

    after = np.empty(worlds)
    before = np.empty(worlds)
    ratio = np.empty(worlds)
    for i, (perm_after, perm_before, r) in enumerate(modelled_twins(pool, u, card, hand_weights(view), worlds, rng)):
        after[i] = play(perm_after)
        before[i] = after[i] if perm_before is None else play(perm_before)
        ratio[i] = r
    value_after = float(after.mean())
    value_before = float((ratio * before).sum() / ratio.sum())
    z = (after - value_after) - ratio * (before - value_before) / ratio.mean()  # each world's influence
    return {"luck": value_after - value_before, "stderr": float(z.std(ddof=1) / math.sqrt(worlds)),
            "before": value_before, "after": value_after, "worlds": worlds}
