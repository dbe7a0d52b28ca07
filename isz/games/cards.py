"""Kernel helpers for card games, in the package's games and outside it.

`popcount`: the cards in a card mask. `deal_from`: a chance node that deals one of the
cards not yet out, each alike. `seat_draws_key`, for ``info_key`` in games whose
seats draw cards during play: among worlds that share one public history, a seat's
information state is the set of cards it was dealt (the order of a deal is not seen)
and each card it drew, with the step it came at (two worlds can give one hand by other
draws); the key hashes exactly that (`examples/crazy_eights.py`,
`examples/lost_cities_rules.py`).
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, inline="always")
def popcount(m):
    """Number of set bits of card mask ``m`` (the cards in a hand)."""
    n = 0
    while m != 0:
        m &= m - 1
        n += 1
    return n


@nb.njit(cache=True)
def deal_from(gone, n, out_a, out_p):
    """A deal of one card among ``0..n-1`` less those in mask ``gone``, each alike: writes
    them (ascending) to ``out_a`` and ``1 / k`` to ``out_p[:k]``; returns ``k`` (at least
    one card must be left). The shape of a kernel's ``chance_outcomes``."""
    k = 0
    for c in range(n):
        if not (gone >> c) & 1:
            out_a[k] = c
            k += 1
    out_p[:k] = 1.0 / k
    return k


@nb.njit(cache=True)
def seat_draws_key(tokens, n, kind, owner, player, dealt_kind, drawn_kind):
    """A non-negative int64 that tells ``player``'s views apart among worlds sharing a
    public history: the set of cards dealt to it (steps ``i < n`` with ``kind[i] ==
    dealt_kind`` and ``owner[i] == player``, card ``tokens[i]`` < 64) and the sequence
    of cards drawn by it (``kind[i] == drawn_kind``), each with its step ``i``.

    ``tokens``: int64[>= n], a card id per step; ``kind``, ``owner``: int64[>= n], the
    step's kind and the seat it concerns. A splitmix64-style hash: distinct inputs
    collide with odds about 2^-63.
    """
    dealt, h = 0, np.uint64(0x9E3779B97F4A7C15)
    for i in range(n):
        if owner[i] == player and kind[i] == dealt_kind:
            dealt |= 1 << tokens[i]  # a set: the order it was dealt in is not seen
        elif owner[i] == player and kind[i] == drawn_kind:
            h = (h ^ np.uint64(64 * i + tokens[i] + 1)) * np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(31)
    h = (h ^ np.uint64(dealt)) * np.uint64(0x94D049BB133111EB)
    return np.int64((h ^ (h >> np.uint64(29))) >> np.uint64(1))
