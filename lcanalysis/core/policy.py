"""The compiled heuristic policy of the playing agents: a fast expedition estimate, the greedy and
heuristic turn choosers, determinization of a view and rollouts. All of it works on the kernel's
int32 state (``core/kernel.py``) and reads the player's side of the table through
``core/features.py``.

Information discipline: a policy for player ``p`` reads only what ``p`` can see in the state
(its own hand, both expeditions, the discard piles, the size of the draw pile and the turn
counters). It never reads the opponent's hand or the order of the draw pile, so it can be run
on any determinization of a view and gives the same turn. (The one place hidden cards are read
is ``rollout``, which plays *both* sides of a sampled world, each with its own information.)

The estimate (``heuristic_colour_estimate``): for each colour, the expected final expedition is
what lies on it now, plus a fraction ``A`` of the hand's numbers above its top (cards in hand
still need a turn to be placed), plus a fraction ``q`` of the unseen numbers above its top (the
chance the player draws one in time, ``q = QF * turns_left / unseen``). An opened colour scores
``(S - 20) * (1 + wagers)`` with a smooth +20 bonus as the expected count nears 8; an unopened
colour is worth ``B * max(0, best over the wagers in hand)``: the player opens it only if that
pays. Placing a card changes one colour; the turn's score adds what a discard hands the
opponent, what a discard-pile draw gives and denies, and a constant for an unknown card from
the deck. This is a cruder, faster value than the hand evaluator's (``evaluator.py``), tuned for
play: the agents' and the advisor's rollouts run on it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from lcanalysis.core import features as F
from lcanalysis.core import kernel as K

# parameter vector layout
P_A, P_QF, P_B, P_DANGER, P_DANGER_NEW, P_DENY, P_DECK, P_STALL, P_CROWD, P_PILE_MIN, P_TURN = range(11)
N_PARAMS = 11

#: the heuristic agent: card counting, hand-to-turns pressure, discard danger, denial, stalling
HEURISTIC_PARAMS = np.array([0.75, 0.6, 1.0, 0.9, 0.3, 0.5, 1.5, 1.0, 1.0, 1.0, 0.0], dtype=np.float64)
#: the greedy agent: its own hand only (no counting, no opponent, always the deck unless a pile
#: card improves a colour at once)
GREEDY_PARAMS = np.array([0.95, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], dtype=np.float64)
#: the heuristic that also stalls: a discard-pile draw after a play is credited ``P_TURN`` times
#: the value of the turn it gains (the deck does not shrink) when the hand holds more wanted
#: cards than turns
STALLING_PARAMS = np.array([0.75, 0.6, 1.0, 0.9, 0.3, 0.5, 1.5, 1.0, 1.0, 1.0, 0.5], dtype=np.float64)
#: the stalling heuristic tuned again by coordinate search on compiled duplicate self-play
#: (``studies.policy_tune``, its file data/simulated/policy_tune.json): more card counting (QF), less
#: fear of a discard, a higher value of an unknown deck card, a stronger wish to stall; on 30,000
#: held-out deals +5.2 points a round against STALLING_PARAMS and +9.2 against the heuristic (stalling:
#: +6.5). No stronger as the search agent's play-outs at 100 ms (docs/agents.md, "Screening a change").
TUNED_PARAMS = np.array([0.75, 0.7, 1.0, 0.6, 0.2, 0.5, 2.25, 1.0, 1.0, 1.0, 0.725], dtype=np.float64)


@njit(cache=True)
def _bonus(n):
    """The 8-card bonus made smooth for an expected card count: 0 up to 6 cards, then rising
    linearly to the whole bonus at 8."""
    if n >= K.BONUS_CARDS:
        return float(K.BONUS)
    ramp = K.BONUS_CARDS - 2.0
    if n <= ramp:
        return 0.0
    return K.BONUS / 2.0 * (n - ramp)


@njit(cache=True)
def heuristic_colour_estimate(w, mask, hmask, hw, umask, a, q, b):
    """The heuristic policy's estimate of one colour's final score for its owner (see the module
    docstring): fractions ``a`` of the hand's and ``q`` of the unseen numbers above the top."""
    top = K.top_rank(mask)
    cs, cn = K.mask_sum_count(mask, 0)
    hs, hn = K.mask_sum_count(hmask, top)
    us, un = K.mask_sum_count(umask, top)
    s = cs + a * hs + q * us
    n = cn + w + a * hn + q * un
    started = w > 0 or mask != 0
    if started:
        v = K.points_before_bonus(w, s) + _bonus(n)
        if mask == 0 and hw > 0 and s > K.EXPEDITION_COST:
            v += a * hw * (s - K.EXPEDITION_COST)  # more wagers may still go on
        return v
    best = 0.0
    for j in range(hw + 1):
        val = K.points_before_bonus(j, s) + _bonus(n + a * j)
        best = max(best, val)
    return b * best


@njit(cache=True, inline="always")
def _pressured_values(hmask, hw, emask, ew, umask, unseen, my_turns, params, out):
    """Each colour's ``heuristic_colour_estimate`` (``out``) with the hand-pressure factor: more
    wanted cards in hand than turns left lowers A, what a card in hand is worth. Returns (A, q)
    used. Numba inlines it into its callers."""
    nc = len(hmask)
    q = 0.0
    if unseen > 0:
        q = min(1.0, params[P_QF] * my_turns / unseen)
    a = params[P_A]
    b = params[P_B]
    wanted = 0
    for c in range(nc):
        out[c] = heuristic_colour_estimate(ew[c], emask[c], hmask[c], hw[c], umask[c], a, q, b)
        if ew[c] > 0 or emask[c] != 0 or out[c] > 0.0:
            wanted += K.mask_sum_count(hmask[c], K.top_rank(emask[c]))[1]
    turns = max(my_turns, 1)
    if params[P_CROWD] > 0.0 and wanted > turns:
        a = a * turns / wanted
        for c in range(nc):
            out[c] = heuristic_colour_estimate(ew[c], emask[c], hmask[c], hw[c], umask[c], a, q, b)
    return a, q


@njit(cache=True)
def _danger(c, r, omask, ow, params):
    """What discarding colour c rank r (number r+1) may hand the opponent."""
    if r == 0:
        return 0.0
    v = r + 1.0
    if ow[c] > 0 or omask[c] != 0:
        if r > K.top_rank(omask[c]):
            return params[P_DANGER] * v * (1.0 + ow[c])
        return 0.0
    return params[P_DANGER_NEW] * v


@njit(cache=True)
def policy_scores(s, params, moves, scores):
    """Score every legal whole turn for the player to move; return the number of turns.

    Reads only the mover's information. In the draw step only sources are scored.
    """
    n = K.gen_moves(s, moves)
    if n == 0:
        return 0
    nc = s[K.H_NC]
    p = s[K.H_TO_MOVE]
    base = nc + 1
    block = np.empty((F.N_FEATURES, nc), np.int64)
    unseen = F.colour_features(s, p, block)
    hmask, hw, emask, ew, omask, ow, umask, ptop = block
    my_turns = F.turns_left(K.deck_left(s), True)
    base_v = np.zeros(nc, np.float64)
    a, q = _pressured_values(hmask, hw, emask, ew, umask, unseen, my_turns, params, base_v)
    b = params[P_B]
    # what one more turn is worth to a crowded hand: a discard-pile draw leaves the deck as it is
    turn_gain = 0.0
    if params[P_TURN] > 0.0 and a < params[P_A]:
        more = np.zeros(nc, np.float64)
        _pressured_values(hmask, hw, emask, ew, umask, unseen, my_turns + 1, params, more)
        for c in range(nc):
            turn_gain += more[c] - base_v[c]
        turn_gain = params[P_TURN] * max(turn_gain, 0.0)
    # value of a card drawn from a discard pile, per colour, for the current tops
    pile_gain = np.zeros(nc, np.float64)
    for c in range(nc):
        t = ptop[c]
        if t < 0:
            continue
        if t == 0:
            g = heuristic_colour_estimate(ew[c], emask[c], hmask[c], hw[c] + 1, umask[c], a, q, b) - base_v[c]
        else:
            g = heuristic_colour_estimate(ew[c], emask[c], hmask[c] | (1 << (t - 1)), hw[c], umask[c], a, q,
                                          b) - base_v[c]
        if g < params[P_PILE_MIN]:
            g = -1e9 if params[P_STALL] <= 0.0 else g - 2.0
        else:
            if t > 0 and F.still_fits(ow[c], omask[c], t):
                g += params[P_DENY] * (t + 1.0) * (1.0 + ow[c])
        pile_gain[c] = g
    deck_v = params[P_DECK]
    ntypes = K.RANKS * nc
    # the moves come grouped by placement (``gen_moves``): its part of the score is computed once
    # for all of its sources, the same operations in the same order as per move
    last = -1
    placed = 0.0
    pc = -1
    plays = False  # a stall is credited only with a play: the turn gained goes to progress, so no endless loop
    for i in range(n):
        m = moves[i]
        place = m // base
        src = m % base
        if place != last:
            last = place
            placed = 0.0
            pc = -1
            plays = False
            if place < 2 * ntypes:
                t = place // 2
                c = t // K.RANKS
                r = t % K.RANKS
                disc = place % 2
                nhm = hmask[c]
                nhw = hw[c]
                if r == 0:
                    nhw -= 1
                else:
                    nhm &= ~(1 << (r - 1))
                if disc == 0:
                    plays = True
                    nem = emask[c]
                    new = ew[c]
                    if r == 0:
                        new += 1
                    else:
                        nem |= 1 << (r - 1)
                    v = heuristic_colour_estimate(new, nem, nhm, nhw, umask[c], a, q, b)
                else:
                    v = heuristic_colour_estimate(ew[c], emask[c], nhm, nhw, umask[c], a, q, b)
                    v -= _danger(c, r, omask, ow, params)
                    pc = c
                placed = v - base_v[c]
                if disc == 1 and r > 0:
                    placed -= 0.01 * r  # among equals, give away the lowest
        sc = placed
        if src == 0:
            sc += deck_v
        else:
            c2 = src - 1
            stall = turn_gain if plays else 0.0
            if c2 == pc:  # drawing from the pile just discarded onto (allowed without no_redraw)
                sc += stall
            else:
                sc += pile_gain[c2] + stall
        scores[i] = sc
    return n


@njit(cache=True)
def colour_values(s, p, params, out):
    """Player p's expected final score per colour (``out``, length NC), from p's information only,
    with the hand-pressure factor of ``policy_scores``. Returns (A, q) used."""
    block = np.empty((F.N_FEATURES, s[K.H_NC]), np.int64)
    unseen = F.colour_features(s, p, block)
    my_turns = F.turns_left(K.deck_left(s), s[K.H_TO_MOVE] == p)
    return _pressured_values(block[F.HAND_MASK], block[F.HAND_WAGERS], block[F.OWN_MASK], block[F.OWN_WAGERS],
                             block[F.UNSEEN_MASK], unseen, my_turns, params, out)


@njit(cache=True)
def policy_move(s, params):
    """The policy's turn for the player to move: the first of the best-scored turns."""
    return best_scored(s, params, np.empty(K.MAX_MOVES, np.int32), np.empty(K.MAX_MOVES, np.float64))


@njit(cache=True)
def best_scored(s, params, moves, scores):
    """``policy_move`` with its work arrays given: the play-out loops allocate them once."""
    n = policy_scores(s, params, moves, scores)
    best = 0
    for i in range(1, n):
        if scores[i] > scores[best]:
            best = i
    return moves[best]


@njit(cache=True)
def random_move(s, seed):
    """A uniformly random legal whole turn."""
    np.random.seed(seed)
    moves = np.empty(K.MAX_MOVES, np.int32)
    n = K.gen_moves(s, moves)
    return moves[np.random.randint(n)]


@njit(cache=True)
def rollout(s, params_a, params_b, player_a):
    """Play to the end (draw pile empty or turn cap), player_a with params_a and the other with
    params_b; returns the score of player_a minus the other's. Mutates s."""
    moves = np.empty(K.MAX_MOVES, np.int32)
    scores = np.empty(K.MAX_MOVES, np.float64)
    while not K.is_over(s):
        m = best_scored(s, params_a if s[K.H_TO_MOVE] == player_a else params_b, moves, scores)
        K.apply_move(s, m)
    return K.player_score(s, player_a) - K.player_score(s, 1 - player_a)


@njit(cache=True)
def stream_keys(s, keys):
    """Draw streams for the deck of world ``s``: ``keys[p, j]`` is player p's random priority of
    the card in deck slot ``j``. Uses numba's global random state."""
    for j in range(s[K.H_DECK_POS], s[K.H_DECK_END]):
        keys[0, j] = np.random.random()
        keys[1, j] = np.random.random()


@njit(cache=True)
def stream_move(s, m, keys):
    """``apply_move``, but a deck draw takes the card left in the pile that comes first in the
    mover's stream (``stream_keys``): it is brought to the top, its keys with it.

    Why: in a world with one fixed deck order, a turn that takes a discard-pile card shifts every
    later deck card to the other player, so two candidate turns that differ in one pile draw see
    unrelated draws and their paired difference is noisy. With a stream per player each keeps
    receiving the same cards. Still the chance law of the game: the mover's keys of the cards
    left are in uniformly random order whatever was drawn before, so the card drawn is uniform
    over the cards in the pile."""
    nc = s[K.H_NC]
    if m % (nc + 1) == 0:
        p = s[K.H_TO_MOVE]
        pos = s[K.H_DECK_POS]
        first = pos
        for j in range(pos + 1, s[K.H_DECK_END]):
            if keys[p, j] < keys[p, first]:
                first = j
        if first != pos:
            od = K.off_deck(nc)
            t = s[od + pos]
            s[od + pos] = s[od + first]
            s[od + first] = t
            for q in range(2):
                k = keys[q, pos]
                keys[q, pos] = keys[q, first]
                keys[q, first] = k
    return K.apply_move(s, m)


@njit(cache=True)
def rollout_streams(s, params_a, params_b, player_a, keys):
    """``rollout`` with every deck draw taken from the drawer's stream (``stream_move``)."""
    moves = np.empty(K.MAX_MOVES, np.int32)
    scores = np.empty(K.MAX_MOVES, np.float64)
    while not K.is_over(s):
        m = best_scored(s, params_a if s[K.H_TO_MOVE] == player_a else params_b, moves, scores)
        stream_move(s, m, keys)
    return K.player_score(s, player_a) - K.player_score(s, 1 - player_a)


@njit(cache=True)
def start_candidate(s, w, cand, streams, keys0, keys):
    """``s``: world ``w`` with the candidate turn ``cand`` played; with ``streams``, ``keys``: the
    world's streams (``keys0``, drawn once a world by ``stream_keys``) as that turn leaves them. Every
    candidate of a world starts from the same deal and the same streams (common random numbers)."""
    s[:] = w
    if streams:
        keys[:, :] = keys0
        stream_move(s, cand, keys)
    else:
        K.apply_move(s, cand)


@njit(cache=True)
def _play_candidates(w, cands, params_me, params_opp, me, values, col, streams, keys0, keys):
    """Every candidate turn played out from world ``w`` into ``values[:, col]``; with ``streams``
    the deck draws come from per-player streams drawn here (``stream_move``)."""
    s = np.empty_like(w)
    if streams:
        stream_keys(w, keys0)
    for k in range(len(cands)):
        start_candidate(s, w, cands[k], streams, keys0, keys)
        if streams:
            values[k, col] = rollout_streams(s, params_me, params_opp, me, keys)
        else:
            values[k, col] = rollout(s, params_me, params_opp, me)


@njit(cache=True)
def determinize(base, pool, n_unknown, opp, out, bias=1.0):
    """Write into ``out`` a copy of ``base`` with ``pool`` (the unseen card types) dealt: ``n_unknown``
    of them to the hand of ``opp`` and the rest, shuffled, as the draw pile.

    ``bias`` = 1 deals uniformly (every split equally likely). ``bias`` > 1 is a simple opponent
    model: a card the opponent can still place on an expedition it has opened is ``bias`` times as
    likely to be in its hand (players keep what they collect). Uses numba's global random state.
    """
    out[:] = base
    k = len(pool)
    perm = pool.copy()
    nc = base[K.H_NC]
    if bias != 1.0 and n_unknown > 0:
        wts = np.ones(k, np.float64)
        om = K.off_mask(nc, opp)
        ow = K.off_wagers(nc, opp)
        for i in range(k):
            t = perm[i]
            c = t // K.RANKS
            r = t % K.RANKS
            if F.still_fits(base[ow + c], base[om + c], r):
                wts[i] = bias
        for i in range(n_unknown):
            tot = 0.0
            for j in range(i, k):
                tot += wts[j]
            x = np.random.random() * tot
            j = i
            acc = wts[i]
            while acc < x and j < k - 1:
                j += 1
                acc += wts[j]
            tmp = perm[i]
            perm[i] = perm[j]
            perm[j] = tmp
            tw = wts[i]
            wts[i] = wts[j]
            wts[j] = tw
        for i in range(k - 1, n_unknown, -1):
            j = n_unknown + np.random.randint(i - n_unknown + 1)
            tmp = perm[i]
            perm[i] = perm[j]
            perm[j] = tmp
    else:
        for i in range(k - 1, 0, -1):
            j = np.random.randint(i + 1)
            tmp = perm[i]
            perm[i] = perm[j]
            perm[j] = tmp
    oh = K.off_hand(nc, opp)
    for i in range(n_unknown):
        out[oh + perm[i]] += 1
    od = K.off_deck(nc)
    pos = base[K.H_DECK_POS]
    for i in range(n_unknown, k):
        out[od + pos + i - n_unknown] = perm[i]
    out[K.H_DECK_END] = pos + k - n_unknown


@njit(cache=True)
def flat_mc(base, pool, n_unknown, opp, cands, first, last, seed, params_me, params_opp, values, bias=1.0,
            streams=False):
    """Evaluate each candidate turn on worlds ``first..last-1``, the same worlds for every
    candidate (common random numbers): world ``i`` is the deal of the unseen cards drawn with
    seed ``(seed, i)``, so a later call can extend the sample. ``values[k, i - first]`` is the
    final score difference for the mover after candidate ``k`` and heuristic play to the end.
    ``streams``: deck draws from per-player streams (``stream_move``), drawn after the deal.
    """
    me = base[K.H_TO_MOVE]
    w = np.empty_like(base)
    keys0 = np.empty((2, len(base)), np.float64)
    keys = np.empty_like(keys0)
    no_weights = np.empty(0, np.float64)  # (read only by a weighted deal)
    no_table = np.empty((1, 1), np.float64)
    for i in range(first, last):
        deal_world(base, pool, n_unknown, opp, w, seed, i, False, no_weights, no_table, bias)
        _play_candidates(w, cands, params_me, params_opp, me, values, i - first, streams, keys0, keys)


@njit(cache=True)
def deal_world(base, pool, n_unknown, opp, out, seed, i, weighted, w, table, bias):
    """World ``i`` of ``seed`` into ``out``: numba's random state seeded by ``(seed, i)``, then the unseen
    cards dealt by ``determinize_weighted`` (``weighted``: the card weights ``w`` and their
    ``table = esp_table(w, n_unknown)``) or by ``determinize`` (``bias``). The one deal of ``flat_mc``,
    ``flat_mc_weighted`` and the exact tail's play-outs (``search.tail.flat_mc_tail``), so that all of
    them play the same worlds, and a later call extends a sample world by world."""
    np.random.seed((seed * 1000003 + i * 7919 + 12345) % 4294967291)
    if weighted:
        determinize_weighted(base, pool, n_unknown, opp, out, w, table)
    else:
        determinize(base, pool, n_unknown, opp, out, bias)


@njit(cache=True)
def esp_table(w, n):
    """``e[i, r]`` = the elementary symmetric polynomial of degree ``r`` of ``w[i:]`` (r = 0..n): the
    sum over every ``r``-card subset of the cards ``i..`` of the product of their weights."""
    k = len(w)
    e = np.zeros((k + 1, n + 1), np.float64)
    e[k, 0] = 1.0
    for i in range(k - 1, -1, -1):
        e[i, 0] = 1.0
        for r in range(1, n + 1):
            e[i, r] = e[i + 1, r] + w[i] * e[i + 1, r - 1]
    return e


@njit(cache=True)
def determinize_weighted(base, pool, n_unknown, opp, out, w, table):
    """``determinize`` with the opponent's hand dealt from card weights (``lcanalysis.hand_model``):
    the ``n_unknown`` cards of ``pool`` it receives form a set ``S`` with probability proportional
    to the product of ``w`` over ``S`` (conditional Poisson sampling, exact: card ``i`` is taken with
    probability ``w[i] e_{r-1}(w[i+1:]) / e_r(w[i:])``, ``r`` the cards still to deal, from
    ``table = esp_table(w, n_unknown)``); the rest, shuffled uniformly, is the draw pile. Equal
    weights give the uniform deal. Uses numba's global random state."""
    out[:] = base
    k = len(pool)
    nc = base[K.H_NC]
    oh = K.off_hand(nc, opp)
    rest = np.empty(k - n_unknown, np.int32)
    r = n_unknown
    m = 0
    for i in range(k):
        if r > 0 and np.random.random() * table[i, r] < w[i] * table[i + 1, r - 1]:
            out[oh + pool[i]] += 1
            r -= 1
        else:
            rest[m] = pool[i]
            m += 1
    for i in range(m - 1, 0, -1):
        j = np.random.randint(i + 1)
        tmp = rest[i]
        rest[i] = rest[j]
        rest[j] = tmp
    od = K.off_deck(nc)
    pos = base[K.H_DECK_POS]
    for i in range(m):
        out[od + pos + i] = rest[i]
    out[K.H_DECK_END] = pos + m


@njit(cache=True)
def flat_mc_weighted(base, pool, n_unknown, opp, cands, first, last, seed, params_me, params_opp, values, w,
                     streams=False):
    """``flat_mc`` with the worlds dealt by ``determinize_weighted`` (the opponent's hand from the
    card weights ``w``, one per ``pool`` entry); world ``i`` is again a function of (seed, i)."""
    me = base[K.H_TO_MOVE]
    table = esp_table(w, n_unknown)
    ws = np.empty_like(base)
    keys0 = np.empty((2, len(base)), np.float64)
    keys = np.empty_like(keys0)
    for i in range(first, last):
        deal_world(base, pool, n_unknown, opp, ws, seed, i, True, w, table, 1.0)
        _play_candidates(ws, cands, params_me, params_opp, me, values, i - first, streams, keys0, keys)


@njit(cache=True)
def self_play_round(s, kinds, params0, params1, seed):
    """Self-play of compiled policies (kind 0 random, 1 parametrized policy) to the end of the
    round, all inside numba. Returns the turns played. Used by the benchmark and the studies."""
    np.random.seed(seed)
    moves = np.empty(K.MAX_MOVES, np.int32)
    t0 = s[K.H_TURN]
    while not K.is_over(s):
        p = s[K.H_TO_MOVE]
        if kinds[p] == 0:
            n = K.gen_moves(s, moves)
            m = moves[np.random.randint(n)]
        elif p == 0:
            m = policy_move(s, params0)
        else:
            m = policy_move(s, params1)
        K.apply_move(s, m)
    return s[K.H_TURN] - t0



@njit(cache=True)
def duplicate_differences(deals, params_a, params_b):
    """Duplicate self-play of two compiled policies: each dealt state (a row of ``deals``) played
    twice, ``params_a`` in seat 0 then in seat 1. Returns per deal the mean of ``a``'s two final score
    differences (a's score minus b's). The policies are deterministic, so this is a function of the
    deals alone. Used by the policy-tuning study (``studies.policy_tune``)."""
    n = deals.shape[0]
    out = np.empty(n, np.float64)
    kinds = np.array([1, 1], np.int64)
    for i in range(n):
        s = deals[i].copy()
        self_play_round(s, kinds, params_a, params_b, i)
        first = K.player_score(s, 0) - K.player_score(s, 1)
        s = deals[i].copy()
        self_play_round(s, kinds, params_b, params_a, i)
        second = K.player_score(s, 1) - K.player_score(s, 0)
        out[i] = (first + second) / 2.0
    return out
