"""The compiled rules of small two-player Lost Cities (`examples/lost_cities.py` has the
game, its parameters, its state layout and its text): set-up, plays, draws, takes, scores,
what each seat observes, its information tensor and its resampler."""

from __future__ import annotations

import numba as nb
import numpy as np

from isz import CHANCE, TERMINAL
from isz.games import Kernel, deal_from, popcount, rand_below, seat_draws_key, shuffle_prefix

N, TURN, PHASE, TURNS, LAST, OUT, HANDS, EXP, KNOWN, HEIGHT = 0, 1, 2, 3, 4, 5, 6, 8, 10, 12
DEAL, PLAY, DRAW, CARD, OVER = range(5)  # phases
K_DEAL, K_PLAY, K_DRAW, K_CARD = range(4)  # step kinds (a play or a discard is K_PLAY)
COLORS = "YBWGR"


@nb.njit(cache=True)
def _reset(s, params):
    """The empty history: nothing dealt, phase deal, empty piles."""
    s[:] = -1
    s[params[6]:] = 0  # no step, seat 0, phase deal (0), no card out, empty masks, piles
    s[params[6] + LAST] = -1


@nb.njit(cache=True)
def current_player(s, params):
    ph = s[params[6] + PHASE]
    return TERMINAL if ph == OVER else (s[params[6] + TURN] if ph == PLAY or ph == DRAW else CHANCE)


@nb.njit(cache=True)
def _playable(exp, c, params):
    """Can card ``c`` go onto expedition mask ``exp``: a wager before any number of its
    color, a number above every card there (ids ascend with the value)."""
    W, R = params[1], params[2]
    k, j = c // (W + R), c % (W + R)
    col = (exp >> (k * (W + R))) & ((1 << (W + R)) - 1)
    return (col >> W) == 0 if j < W else (col >> j) == 0


@nb.njit(cache=True)
def _top(s, params, k):
    L, K, W, R = params[6], params[0], params[1], params[2]
    h = s[L + HEIGHT + k]
    return s[L + HEIGHT + K + k * (W + R) + h - 1] if h > 0 else -1


@nb.njit(cache=True)
def legal_actions(s, params, out):
    K, C, L = params[0], params[4], params[6]
    me, n = s[L + TURN], 0
    if s[L + PHASE] == DRAW:
        out[0], n = 2 * C, 1
        for k in range(K):
            top = _top(s, params, k)
            if top >= 0 and top != s[L + LAST]:
                out[n], n = 2 * C + 1 + k, n + 1
        return n
    hand, exp = s[L + HANDS + me], s[L + EXP + me]
    for c in range(C):
        if (hand >> c) & 1 and _playable(exp, c, params):
            out[n], n = c, n + 1
    for c in range(C):
        if (hand >> c) & 1:
            out[n], n = C + c, n + 1
    return n


@nb.njit(cache=True)
def chance_outcomes(s, params, out_a, out_p):
    return deal_from(s[params[6] + OUT], params[4], out_a, out_p)


@nb.njit(cache=True)
def _end_turn(s, params):
    L = params[6]
    s[L + TURN], s[L + TURNS], s[L + LAST] = 1 - s[L + TURN], s[L + TURNS] + 1, -1
    deck = params[4] - popcount(s[L + OUT])
    s[L + PHASE] = OVER if deck == 0 or s[L + TURNS] == params[7] else PLAY


@nb.njit(cache=True)
def apply_action(s, params, a):
    K, W, R, H, C, L = params[0], params[1], params[2], params[3], params[4], params[6]
    n, ph, me = s[L + N], s[L + PHASE], s[L + TURN]
    s[n], s[L + N] = a, n + 1
    if ph == DEAL or ph == CARD:
        s[L + OUT] |= 1 << a
        s[L + HANDS + (n % 2 if ph == DEAL else me)] |= 1 << a
        if ph == CARD:
            _end_turn(s, params)
        elif n + 1 == 2 * H:
            s[L + PHASE] = PLAY
    elif ph == PLAY:
        c = a % C
        s[L + HANDS + me] &= ~(1 << c)
        s[L + KNOWN + me] &= ~(1 << c)
        if a < C:
            s[L + EXP + me] |= 1 << c
        else:
            k = c // (W + R)
            h = s[L + HEIGHT + k]
            s[L + HEIGHT + K + k * (W + R) + h], s[L + HEIGHT + k] = c, h + 1
            s[L + LAST] = c
        s[L + PHASE] = DRAW
    elif a == 2 * C:
        s[L + PHASE] = CARD
    else:
        k = a - 2 * C - 1
        c = _top(s, params, k)
        s[L + HEIGHT + k] -= 1
        s[L + HANDS + me] |= 1 << c
        s[L + KNOWN + me] |= 1 << c
        _end_turn(s, params)


@nb.njit(cache=True)
def _color_score(exp, params, k):
    """(sum of the numbers - cost) x (1 + wagers) of color k in mask ``exp``; 0 if empty."""
    W, R = params[1], params[2]
    col = (exp >> (k * (W + R))) & ((1 << (W + R)) - 1)
    if col == 0:
        return 0
    total, wagers = -params[8], 0
    for j in range(W + R):
        if (col >> j) & 1:
            if j < W:
                wagers += 1
            else:
                total += j - W + 2
    return total * (1 + wagers)


@nb.njit(cache=True)
def _score(s, params, q):
    total = 0
    for k in range(params[0]):
        total += _color_score(s[params[6] + EXP + q], params, k)
    return total


@nb.njit(cache=True)
def returns(s, params, out):
    d = _score(s, params, 0) - _score(s, params, 1)
    out[0] = 1.0 if d > 0 else (-1.0 if d < 0 else 0.0)
    out[1] = -out[0]


@nb.njit(cache=True)
def observe(s, params, a, player):
    L, ph = params[6], s[params[6] + PHASE]
    if (ph == DEAL and s[L + N] % 2 != player) or (ph == CARD and s[L + TURN] != player):
        return -1  # "a card went to the other seat": one token whatever the card
    return a


@nb.njit(cache=True)
def _scan(s, params):
    """(steps n, then per step its kind and its owner: the receiver or the actor), from
    the public steps only: a draw from the deck is followed by its card."""
    C, deal, n = params[4], 2 * params[3], s[params[6] + N]
    kind, owner = np.full(n, K_DEAL), np.full(n, -1)
    cur, nxt = 0, K_PLAY
    for i in range(n):
        if i < deal:
            owner[i] = i % 2
            continue
        kind[i], owner[i] = nxt, cur
        if nxt == K_PLAY:
            nxt = K_DRAW
        elif nxt == K_DRAW and s[i] == 2 * C:
            nxt = K_CARD
        else:
            cur, nxt = 1 - cur, K_PLAY
    return n, kind, owner


@nb.njit(cache=True)
def view_tokens(s, params, player, out):
    """The player's observations in order into ``out``, its dealt cards sorted."""
    n, kind, owner = _scan(s, params)
    return _tokens(s, params, player, n, kind, owner, out)


@nb.njit(cache=True)
def _tokens(s, params, player, n, kind, owner, out):
    """`view_tokens` from a `_scan` already made (``info_tensor`` needs both)."""
    out[:n] = np.where(((kind == K_DEAL) | (kind == K_CARD)) & (owner != player), -1, s[:n])
    own = np.arange(player, min(n, 2 * params[3]), 2)
    out[own] = np.sort(out[own])
    return n


@nb.njit(cache=True)
def info_tensor(s, params, player, out):
    K, C, D, L, T = params[0], params[4], params[5], params[6], params[7]
    out[:] = 0.0
    other = 1 - player
    for c in range(C):
        out[c] = (s[L + HANDS + player] >> c) & 1
        out[C + c] = (s[L + EXP + player] >> c) & 1
        out[2 * C + c] = (s[L + EXP + other] >> c) & 1
        out[5 * C + c] = (s[L + KNOWN + other] >> c) & 1
    for k in range(K):
        W_R = params[1] + params[2]
        for i in range(s[L + HEIGHT + k]):
            out[3 * C + s[L + HEIGHT + K + k * W_R + i]] = 1.0
        top = _top(s, params, k)
        if top >= 0:
            out[4 * C + top] = 1.0
    if s[L + LAST] >= 0:
        out[6 * C + s[L + LAST]] = 1.0
    n, kind, owner = _scan(s, params)
    tok = np.empty(L, np.int64)
    _tokens(s, params, player, n, kind, owner, tok)
    for i in range(n):
        if (kind[i] == K_DEAL or kind[i] == K_CARD) and owner[i] == player:
            out[7 * C + tok[i]] = (i + 1) / L
    b = 8 * C
    out[b] = s[L + PHASE] == PLAY
    out[b + 1] = s[L + PHASE] == DRAW
    out[b + 2] = (C - popcount(s[L + OUT])) / max(D, 1)
    out[b + 3] = s[L + TURNS] / T
    for k in range(K):
        out[b + 4 + k] = _color_score(s[L + EXP + player], params, k) / 50.0
        out[b + 4 + K + k] = _color_score(s[L + EXP + other], params, k) / 50.0
    b += 4 + 2 * K
    if s[L + PHASE] == PLAY or s[L + PHASE] == DRAW:
        out[b + (s[L + TURN] - player) % 2] = 1.0
    out[b + 2 + player] = 1.0
    for i in range(n):
        out[b + 4 + i] = (tok[i] + 2) / (2 * C + K + 3)


@nb.njit(cache=True)
def redeterminize(s, params, player, rng, out):
    """Redraw every card hidden from ``player`` uniformly over the histories its view
    allows: each card the other seat played or discarded before it was ever seen goes to
    one of that seat's deal or draw slots before that step (uniform among those still
    free, taken in step order: the slots before a step include those before any earlier
    one, so every matching is equally likely); the other hidden slots get the unseen
    cards in a uniform order. Its own dealt cards are sorted, so that the result depends
    on the view alone."""
    n, kind, owner = _scan(s, params)
    C = params[4]
    hist = s[:n].copy()
    hidden = ((kind == K_DEAL) | (kind == K_CARD)) & (owner != player)
    slots = np.nonzero(hidden)[0]  # their values are never read
    seen = 0
    for i in np.nonzero(~hidden & ((kind == K_DEAL) | (kind == K_CARD)))[0]:
        seen |= 1 << hist[i]  # own cards
    used = np.zeros(slots.size, np.bool_)
    for i in np.nonzero(kind == K_PLAY)[0]:  # in step order
        c = hist[i] % C
        if (seen >> c) & 1:
            continue  # own, or seen before: it came from a hand known to hold it
        seen |= 1 << c
        free = np.nonzero(~used & (owner[slots] == owner[i]) & (slots < i))[0]
        j = free[rand_below(rng, free.size)]
        used[j], hist[slots[j]] = True, c
    unseen = np.array([c for c in range(C) if not (seen >> c) & 1], np.int64)
    shuffle_prefix(rng, unseen, unseen.size)
    rest = slots[~used]
    hist[rest] = unseen[:rest.size]
    own = np.arange(player, min(n, 2 * params[3]), 2)
    hist[own] = np.sort(hist[own])
    _reset(out, params)  # replay: hands, piles and the deck follow the new cards
    for i in range(n):
        apply_action(out, params, hist[i])


@nb.njit(cache=True)
def info_key(s, params, player):
    """The player's dealt cards (a mask) and its draws (card and step), hashed: its
    view among worlds sharing one public history."""
    n, kind, owner = _scan(s, params)
    return seat_draws_key(s, n, kind, owner, player, K_DEAL, K_CARD)


@nb.njit(cache=True)
def history(s, params, out):
    n = s[params[6] + N]
    out[:n] = s[:n]
    return n


KERNEL = Kernel(current_player, legal_actions, chance_outcomes, apply_action, returns,
                observe, info_tensor, redeterminize, info_key=info_key, history=history)
