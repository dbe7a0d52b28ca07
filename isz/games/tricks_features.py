"""Move features of the trick games (`Kernel.action_score`): what a fast playout policy
of a trick game reads, a few numbers a move, computed from the world without a buffer.

Card ``c`` of seat ``p`` (F_CARD = 2 × 10): the same ten numbers in the first half when
``p`` still wants tricks (fewer won than bid, or no bidding) and in the second when it
does not, zero in the other half:

    rank (0 low .. 1 ace) | trump | takes (c beats the trick so far) | takes × rank |
    leading × rank | leading × trump | last to play × takes | last × takes × rank |
    the seat winning the trick so far wants tricks | that × takes

Bid ``b`` of seat ``p`` (4 more): with ``e`` the seat's sure-ish tricks (trumps from the
ten up, side aces and kings), |b − e|, b − e, b = 0, b = e. Signs: larger scores are
likelier moves; every feature is in [0, 1] but the bid gaps, in tricks.

Then card ``c`` of seat ``p`` against its own hand and the world's other hands (3 ×
HAND = 24 more; the same eight numbers in the first third when ``p`` wants tricks, the second
when it has made its bid exactly, the third when it is over it, zero in the others):

    boss (no other hand holds a higher card of c's suit) | length (p's cards of c's
    suit / p's cards) | highest (c is p's highest card of its suit) | off-suit × rank
    (p follows a trick and c is not of the led suit) | leading × length | leading ×
    boss | leading × lowest (c is p's lowest of its suit) | rank × urgency (tricks
    still needed / tricks left, 0 without bidding)

Features are only ever appended: a fit of the first F_OLD (checkpoints from before the
hand block) still plays, the hand block at weight 0 (`Kernel.earlier_action_features`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz.games import tricks_kernel as K
from isz.games.cards import popcount

HALF = 10
F_CARD = 2 * HALF
F_OLD = F_CARD + 4  # the features before the hand block (fits of 24 still play)
HAND = 8
F = F_OLD + 3 * HAND


@nb.njit(cache=True, inline="always")
def wants_tricks(s, kp, p):
    """Seat ``p`` still wants tricks in world ``s``: fewer won than bid, or no bidding."""
    return kp[K.K_BIDDING] == 0 or s[K.WON + p] < s[K.BID + p]


@nb.njit(cache=True, inline="always")
def sure_tricks(s, kp, p):
    """Seat ``p``'s sure-ish tricks: trumps from the ten up, side aces and kings."""
    r, tsuit, hand, n = kp[K.K_R], s[K.TSUIT], s[K.HAND + p], 0
    for c in range(kp[K.K_C]):
        if (hand >> c) & 1:
            rank = c % r
            if (c // r == tsuit and rank >= r - 5) or (c // r != tsuit and rank >= r - 2):
                n += 1
    return n


@nb.njit(cache=True, inline="always")
def card_score(s, kp, p, c, w):
    """w[:F_CARD] · the card features of seat ``p`` playing ``c`` (module docstring)."""
    r = kp[K.K_R]
    lead = s[K.POS] == 0
    last = s[K.POS] == kp[K.K_P] - 1
    rank = (c % r) / (r - 1)
    trump = 1.0 if c // r == s[K.TSUIT] else 0.0
    takes = 1.0 if not lead and K.takes_trick(s, kp, c) else 0.0
    holder_wants = 1.0 if not lead and wants_tricks(s, kp, s[K.WSEAT]) else 0.0
    o = 0 if wants_tricks(s, kp, p) else HALF
    return (w[o] * rank + w[o + 1] * trump + w[o + 2] * takes + w[o + 3] * takes * rank
            + w[o + 4] * (rank if lead else 0.0) + w[o + 5] * (trump if lead else 0.0)
            + w[o + 6] * (takes if last else 0.0) + w[o + 7] * (takes * rank if last else 0.0)
            + w[o + 8] * holder_wants + w[o + 9] * holder_wants * takes)


@nb.njit(cache=True, inline="always")
def hand_score(s, kp, p, c, w):
    """w[F_OLD:] · the hand block of seat ``p`` playing ``c`` (module docstring)."""
    r, sc, hand = kp[K.K_R], kp[K.K_SUITOF + c], s[K.HAND + p]
    others = np.int64(0)
    for q in range(kp[K.K_P]):
        if q != p:
            others |= s[K.HAND + q]
    suit, above = kp[K.K_SUITMASK + sc], ~((np.int64(2) << c) - 1)
    mine = hand & suit
    boss = 1.0 if others & suit & above == 0 else 0.0
    length = popcount(mine) / popcount(hand)
    highest = 1.0 if mine & above == 0 else 0.0
    lowest = 1.0 if mine & ((np.int64(1) << c) - 1) == 0 else 0.0
    rank = (c % r) / (r - 1)
    lead = s[K.POS] == 0
    off = 0.0 if lead or sc == kp[K.K_SUITOF + s[K.PLAYS + s[K.NPLAYED] - s[K.POS]]] else rank
    urgency, o = 0.0, F_OLD
    if kp[K.K_BIDDING] != 0:
        need = s[K.BID + p] - s[K.WON + p]
        left = kp[K.K_H] - s[K.TRICK]
        urgency = need / left if need > 0 and left > 0 else 0.0
        o = F_OLD if need > 0 else (F_OLD + HAND if need == 0 else F_OLD + 2 * HAND)
    lo = 1.0 if lead else 0.0
    return (w[o] * boss + w[o + 1] * length + w[o + 2] * highest + w[o + 3] * off
            + w[o + 4] * lo * length + w[o + 5] * lo * boss + w[o + 6] * lo * lowest
            + w[o + 7] * rank * urgency)


@nb.njit(cache=True)
def action_score(s, kp, p, a, w):
    """`Kernel.action_score` of the trick games: w · φ(s, p, a), φ float64[F]."""
    if s[K.PHASE] != K.PH_BID:
        return card_score(s, kp, p, a, w) + hand_score(s, kp, p, a, w)
    gap = float(a - kp[K.K_C] - sure_tricks(s, kp, p))
    return (w[F_CARD] * abs(gap) + w[F_CARD + 1] * gap
            + w[F_CARD + 2] * (1.0 if a == kp[K.K_C] else 0.0)
            + w[F_CARD + 3] * (1.0 if gap == 0.0 else 0.0))
