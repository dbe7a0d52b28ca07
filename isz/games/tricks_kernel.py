"""The compiled rules of `isz.games.tricks` (state, kparams and tensor layouts there).

Card sets are ``int64`` bitmasks (bit ``c`` = card ``c``, at most 52 cards, so
the sign bit is never touched); every quantity stays ``int64`` because numba
turns mixed ``uint64``/``int64`` arithmetic into float64.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz.games.cards import popcount
from isz.rng import rand_below, shuffle_prefix
from isz.types import CHANCE, TERMINAL

# -- state array --------------------------------------------------------------
PHASE, TURN, DEALER, NDEALT, TCARD, TSUIT, NBIDS, NPLAYED = 0, 1, 2, 3, 4, 5, 6, 7
LEADER, WCARD, WSEAT, POS, TRICK, USED, PLAYED = 8, 9, 10, 11, 12, 13, 14
HAND, INIT, BID, WON, PLAYS = 15, 19, 23, 27, 31  # HAND..WON: 4 seats each
PH_DEALER, PH_DEAL, PH_TRUMP, PH_BID, PH_PLAY, PH_OVER = 0, 1, 2, 3, 4, 5

# -- kparams ------------------------------------------------------------------
K_P, K_S, K_R, K_H, K_C, K_TMODE, K_BIDDING, K_HOOK = 0, 1, 2, 3, 4, 5, 6, 7
K_TLEAD = 8  # offset of TLEAD[H] in the state (= PLAYS + P*H)
K_T_INIT, K_T_TCARD, K_T_TSUIT, K_T_DEALER, K_T_BIDS, K_T_WON, K_T_TURN, K_T_SEAT = (
    9, 10, 11, 12, 13, 14, 15, 16)
K_T_PLAYS = 17
K_SUITMASK = 20  # S masks
K_SUITOF = 24    # C entries: suit of each card
TRUMP_NONE, TRUMP_FIXED, TRUMP_CARD = 0, 1, 2
BID_BONUS = 10


# Index of a lone set bit by de Bruijn multiplication (uint64 on both sides, so
# the product wraps instead of turning float), 8x faster than a shift loop.
_DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
_S58 = np.uint64(58)
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[((0x03F79D71B4CB0A89 << _i) & 0xFFFFFFFFFFFFFFFF) >> 58] = _i


@nb.njit(cache=True, inline="always")
def _write_bits(m, base, out, n):
    """Append the set bits of ``m`` (ascending, offset by ``base``) to ``out[n:]``."""
    while m != 0:
        low = m & -m
        out[n] = base + _BIT_INDEX[np.int64((np.uint64(low) * _DEBRUIJN) >> _S58)]
        n += 1
        m ^= low
    return n


@nb.njit(cache=True)
def _current_player(s, kp):
    ph = s[PHASE]
    if ph == PH_BID or ph == PH_PLAY:
        return s[TURN]
    if ph == PH_OVER:
        return TERMINAL
    return CHANCE


@nb.njit(cache=True)
def _legal_actions(s, kp, out):
    if s[PHASE] == PH_BID:
        h = kp[K_H]
        banned = -1
        if kp[K_HOOK] != 0 and s[NBIDS] == kp[K_P] - 1:
            total = 0
            for p in range(kp[K_P]):
                if s[BID + p] > 0:
                    total += s[BID + p]
            banned = h - total
        n = 0
        for b in range(h + 1):
            if b != banned:
                out[n] = kp[K_C] + b
                n += 1
        return n
    hand = s[HAND + s[TURN]]
    if s[POS] > 0:
        led = kp[K_SUITOF + s[PLAYS + s[NPLAYED] - s[POS]]]
        follow = hand & kp[K_SUITMASK + led]
        if follow != 0:
            return _write_bits(follow, 0, out, 0)
    return _write_bits(hand, 0, out, 0)


@nb.njit(cache=True)
def _chance_outcomes(s, kp, out_a, out_p):
    if s[PHASE] == PH_DEALER:
        n = kp[K_P]
        for i in range(n):
            out_a[i] = i
    else:
        c = kp[K_C]
        free = ((np.int64(1) << c) - 1) & ~s[USED]
        n = _write_bits(free, 0, out_a, 0)
    for i in range(n):
        out_p[i] = 1.0 / n
    return n


@nb.njit(cache=True)
def _after_deal(s, kp):
    if kp[K_TMODE] == TRUMP_CARD and s[TCARD] < 0:
        s[PHASE] = PH_TRUMP
    elif kp[K_BIDDING] != 0:
        s[PHASE] = PH_BID
    else:
        s[PHASE] = PH_PLAY
    s[TURN] = s[LEADER]


@nb.njit(cache=True, inline="always")
def takes_trick(s, kp, a):
    """Card ``a`` beats the card holding the trick on the table (``s[POS] > 0``): a
    higher card of its suit, or a trump on a card of another suit. Public for playout
    policies that play by the rules (`research.playouts`)."""
    sa = kp[K_SUITOF + a]
    sw = kp[K_SUITOF + s[WCARD]]
    return (sa == sw and a > s[WCARD]) or (sa != sw and sa == s[TSUIT])


@nb.njit(cache=True)
def _play(s, kp, a):
    p = s[TURN]
    bit = np.int64(1) << a
    s[HAND + p] &= ~bit
    s[PLAYED] |= bit
    s[PLAYS + s[NPLAYED]] = a
    s[NPLAYED] += 1
    if s[POS] == 0 or takes_trick(s, kp, a):
        s[WCARD] = a
        s[WSEAT] = p
    np1 = kp[K_P]
    if s[POS] + 1 < np1:
        s[POS] += 1
        s[TURN] = p + 1 if p + 1 < np1 else 0
        return
    w = s[WSEAT]
    s[WON + w] += 1
    s[POS] = 0
    s[TRICK] += 1
    s[LEADER] = w
    s[TURN] = w
    if s[TRICK] == kp[K_H]:
        s[PHASE] = PH_OVER
    else:
        s[kp[K_TLEAD] + s[TRICK]] = w


@nb.njit(cache=True)
def _apply_action(s, kp, a):
    ph = s[PHASE]
    if ph == PH_PLAY:
        _play(s, kp, a)
    elif ph == PH_DEAL:
        bit = np.int64(1) << a
        r = s[TURN]
        s[HAND + r] |= bit
        s[INIT + r] |= bit
        s[USED] |= bit
        s[NDEALT] += 1
        s[TURN] = r + 1 if r + 1 < kp[K_P] else 0
        if s[NDEALT] == kp[K_P] * kp[K_H]:
            _after_deal(s, kp)
    elif ph == PH_BID:
        p = s[TURN]
        s[BID + p] = a - kp[K_C]
        s[NBIDS] += 1
        s[TURN] = p + 1 if p + 1 < kp[K_P] else 0
        if s[NBIDS] == kp[K_P]:
            s[PHASE] = PH_PLAY
    elif ph == PH_TRUMP:
        s[TCARD] = a
        s[TSUIT] = kp[K_SUITOF + a]
        s[USED] |= np.int64(1) << a
        _after_deal(s, kp)
    else:  # PH_DEALER
        lead = a + 1 if a + 1 < kp[K_P] else 0
        s[DEALER] = a
        s[LEADER] = lead
        s[TURN] = lead
        s[kp[K_TLEAD]] = lead
        s[PHASE] = PH_DEAL


@nb.njit(cache=True)
def _points(s, kp, p):
    """Raw score of seat ``p``: tricks won, plus the bonus for an exact bid."""
    won = s[WON + p]
    if kp[K_BIDDING] != 0 and won == s[BID + p]:
        return won + BID_BONUS
    return won


@nb.njit(cache=True)
def _returns(s, kp, out):
    n = kp[K_P]
    for i in range(n):
        mine = _points(s, kp, i)
        x = 0.0
        for j in range(n):
            if j != i:
                other = _points(s, kp, j)
                if other < mine:
                    x += 1.0
                elif other == mine:
                    x += 0.5
        out[i] = 2.0 * x / (n - 1) - 1.0


@nb.njit(cache=True)
def _observe(s, kp, a, player):
    if s[PHASE] == PH_DEAL and s[TURN] != player:
        return -1
    return a


@nb.njit(cache=True, inline="always")
def _rel(seat, player, n):
    r = seat - player
    return r + n if r < 0 else r


@nb.njit(cache=True, inline="always")
def _play_seat(s, kp, i):
    """Seat that made the ``i``-th card play (public: from the trick leaders)."""
    n = kp[K_P]
    t = i // n
    seat = s[kp[K_TLEAD] + t] + (i - t * n)
    return seat - n if seat >= n else seat


@nb.njit(cache=True)
def _info_tensor(s, kp, player, out):
    out[:] = 0.0
    n, h, c = kp[K_P], kp[K_H], kp[K_C]
    hand, init = s[HAND + player], s[INIT + player]
    for card in range(c):
        if (hand >> card) & 1:
            out[card] = 1.0
        if (init >> card) & 1:
            out[kp[K_T_INIT] + card] = 1.0
    # the viewer's absolute seat: everything else is relative to it, and the value head
    # answers per absolute seat (with a dealer drawn by chance nothing else tells it)
    out[kp[K_T_SEAT] + player] = 1.0
    if s[TCARD] >= 0:
        out[kp[K_T_TCARD] + s[TCARD]] = 1.0
    if s[TSUIT] >= 0:
        out[kp[K_T_TSUIT] + s[TSUIT]] = 1.0
    if s[DEALER] < 0:
        return
    out[kp[K_T_DEALER] + _rel(s[DEALER], player, n)] = 1.0
    for p in range(n):
        r = _rel(p, player, n)
        out[kp[K_T_BIDS] + r * (h + 2) + s[BID + p] + 1] = 1.0
        for i in range(s[WON + p]):
            out[kp[K_T_WON] + r * h + i] = 1.0
    if s[PHASE] == PH_BID or s[PHASE] == PH_PLAY:
        out[kp[K_T_TURN] + _rel(s[TURN], player, n)] = 1.0
    base = kp[K_T_PLAYS]
    for i in range(s[NPLAYED]):
        off = base + i * (c + n)
        out[off + s[PLAYS + i]] = 1.0
        out[off + c + _rel(_play_seat(s, kp, i), player, n)] = 1.0


@nb.njit(cache=True)
def _received(s, kp, seat):
    """Cards dealt to ``seat`` so far (public: from the deal count and order)."""
    if s[DEALER] < 0:
        return 0
    n = kp[K_P]
    k = _rel(seat, s[kp[K_TLEAD]], n)  # the first receiver leads trick 0
    d = s[NDEALT]
    return d // n + (1 if k < d % n else 0)


@nb.njit(cache=True)
def _redeterminize(s, kp, player, rng, out):
    out[:] = s
    n, c = kp[K_P], kp[K_C]
    tbit = np.int64(1) << s[TCARD] if s[TCARD] >= 0 else np.int64(0)
    seen = s[INIT + player] | s[PLAYED] | tbit
    pool = np.empty(c, dtype=np.int64)
    m = _write_bits(((np.int64(1) << c) - 1) & ~seen, 0, pool, 0)
    shuffle_prefix(rng, pool, m)
    for p in range(n):
        if p != player:
            out[HAND + p] = 0
            out[INIT + p] = 0
    for i in range(s[NPLAYED]):
        p = _play_seat(s, kp, i)
        if p != player:
            out[INIT + p] |= np.int64(1) << s[PLAYS + i]
    k = 0
    used = s[INIT + player] | tbit
    for p in range(n):
        if p != player:
            for _ in range(_received(s, kp, p) - popcount(out[INIT + p])):
                bit = np.int64(1) << pool[k]
                k += 1
                out[HAND + p] |= bit
                out[INIT + p] |= bit
            used |= out[INIT + p]
    out[USED] = used


@nb.njit(cache=True)
def random_playouts(s0, kp, num_games, rng, width):
    """Play ``num_games`` uniformly random games from ``s0``; returns the total
    number of actions applied (the benchmark loop: kernel functions only);
    ``width`` >= max(num_actions, max_chance_outcomes)."""
    s = s0.copy()
    acts = np.empty(width, dtype=np.int64)
    probs = np.empty(width, dtype=np.float64)
    total = 0
    for _ in range(num_games):
        s[:] = s0
        while True:
            p = _current_player(s, kp)
            if p == TERMINAL:
                break
            if p == CHANCE:
                k = _chance_outcomes(s, kp, acts, probs)
            else:
                k = _legal_actions(s, kp, acts)
            _apply_action(s, kp, acts[rand_below(rng, k)])
            total += 1
    return total


@nb.njit(cache=True)
def _info_key(s, params, player):
    """The seat's private information among worlds of one public history: its hand."""
    return s[INIT + player]
