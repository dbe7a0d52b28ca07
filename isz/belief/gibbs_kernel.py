"""Compiled moves of the TTCG Gibbs sampler (seed 003) over trick-taking deals.

A chain state is a deal: ``masks`` int64[R], the unknown cards of each row
(other seats, then the stock; `isz.belief.tricks_constraints`). Two
Metropolis-Hastings moves, each picked with probability 1/2 (each satisfies
detailed balance, so their mixture does):

- **ring** (seed 003's RingSwap): a circuit is a cycle of distinct rows
  ``rho_0 .. rho_L`` and distinct suits ``s_0 .. s_L`` in which ``rho_t`` hands
  one card of suit ``s_t`` to ``rho_{t+1}`` (receivers not void in it). Every
  row's size stays, every suit's total stays, voids stay respected: the
  suit-length assignment moves by a unit cycle, and cycles of any length up to
  ``min(R, S)`` connect all assignments (they are the circuits of the
  bipartite row-suit graph, a Markov basis for tables with fixed margins and
  structural zeros). The neighbour set ``Omega(sigma)`` is every (circuit,
  choice of the handed cards); ``|Omega| = sum over circuits of prod_t
  A[rho_t, s_t]``. A neighbour is drawn uniformly (circuit in proportion to
  its card choices, then the cards), the move is reversed by the reverse
  circuit, so the MH ratio is ``P(h') |Omega(sigma)| / (P(h) |Omega(sigma')|)``.
- **swap**: two unknown cards of one suit held by different rows, drawn
  uniformly, change rows. The proposal is symmetric and keeps the table, and
  makes the chain irreducible over the deals within a suit-length assignment
  (reach depends on them).

``P`` is the unnormalised reach of the other seats' past decisions. Under the
uniform policy (compiled here) a play has probability ``1 / #legal``: the
number of cards of the led suit in hand then, or the whole hand when void or
leading; the hand then is the cards held now plus those the seat played from
that play on (public). Bids are uniform over legal bids whatever the cards.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from isz.games.cards import popcount
from isz.rng import rand_below, rand_float

RING, SWAP = 1, 2
# A swap redraws its card pair until the two cards lie in different rows: uniform
# over cross-row same-suit pairs, whose number a swap does not change (the table
# stays), so the proposal stays symmetric; after this many misses it is a no-op.
_SWAP_TRIES = 32


@nb.njit(cache=True)
def _omega(masks, suitmask, crow, csuit, clen, w):
    """|Omega|: w[k] <- card choices of circuit k at ``masks``; returns their sum."""
    tot = 0.0
    for k in range(clen.shape[0]):
        x = 1.0
        for t in range(clen[k]):
            x *= popcount(masks[crow[k, t]] & suitmask[csuit[k, t]])
            if x == 0.0:
                break
        w[k] = x
        tot += x
    return tot


@nb.njit(cache=True, inline="always")
def _nth_bit(m, j):
    """The j-th lowest set bit of m, as a mask."""
    for _ in range(j):
        m &= m - 1
    return m & -m


@nb.njit(cache=True, inline="always")
def _row_of(masks, bit):
    for r in range(masks.shape[0]):
        if masks[r] & bit:
            return r
    return -1


@nb.njit(cache=True)
def propose(masks, new, w, suitmask, unknown, usuit, suit_start, crow, csuit, clen, rng):
    """new <- a proposal from ``masks``; returns (kind: 0 none / RING / SWAP,
    log q-ratio ``log |Omega(sigma)| - log |Omega(sigma')|``, 0 for a swap)."""
    new[:] = masks
    if rand_float(rng) < 0.5:
        big_w = _omega(masks, suitmask, crow, csuit, clen, w)
        if big_w == 0.0:
            return 0, 0.0
        u, k = rand_float(rng) * big_w, -1
        for i in range(clen.shape[0]):
            if w[i] > 0.0:  # the last positive one catches rounding at the top
                k = i
                if u < w[i]:
                    break
                u -= w[i]
        n = clen[k]
        for t in range(n):
            r, nxt = crow[k, t], crow[k, (t + 1) % n]
            m = masks[r] & suitmask[csuit[k, t]]
            bit = _nth_bit(m, rand_below(rng, popcount(m)))
            new[r] ^= bit
            new[nxt] |= bit
        return RING, math.log(big_w) - math.log(_omega(new, suitmask, crow, csuit, clen, w))
    m = unknown.shape[0]
    if m < 2:
        return 0, 0.0
    for _ in range(_SWAP_TRIES):
        i = rand_below(rng, m)
        s = usuit[i]
        ns = suit_start[s + 1] - suit_start[s]
        if ns < 2:
            continue
        j = suit_start[s] + rand_below(rng, ns - 1)
        if j >= i:
            j += 1
        a, b = np.int64(1) << unknown[i], np.int64(1) << unknown[j]
        ra, rb = _row_of(masks, a), _row_of(masks, b)
        if ra != rb:
            new[ra] ^= a | b
            new[rb] ^= a | b
            return SWAP, 0.0
    return 0, 0.0


@nb.njit(cache=True)
def log_reach_uniform(masks, prow, pled, plater, suitmask):
    """log reach of the other seats' plays under the uniform policy (module docstring)."""
    tot = 0.0
    for k in range(prow.shape[0]):
        r = prow[k]
        if r < 0:
            continue
        h = masks[r] | plater[k]
        if pled[k] >= 0:
            f = popcount(h & suitmask[pled[k]])
            if f > 0:
                tot -= math.log(f)
                continue
        tot -= math.log(popcount(h))
    return tot


@nb.njit(cache=True)
def run_uniform(starts, burn, per, thin, suitmask, unknown, usuit, suit_start, crow, csuit,
                clen, prow, pled, plater, rng, out, stats):
    """Chains from starts[C, R] under the uniform policy: sample j of chain c (after
    ``burn + j * thin`` transitions) into out[j * C + c]; stats += (proposals, accepts)
    per kind: [ring, ring ok, swap, swap ok]."""
    n_chains, rows = starts.shape
    cur, new = np.empty(rows, dtype=np.int64), np.empty(rows, dtype=np.int64)
    w = np.empty(max(clen.shape[0], 1))
    for c in range(n_chains):
        cur[:] = starts[c]
        lp = log_reach_uniform(cur, prow, pled, plater, suitmask)
        step = 0
        for j in range(per):
            until = burn + j * thin
            while step < until:
                step += 1
                kind, logq = propose(cur, new, w, suitmask, unknown, usuit, suit_start, crow,
                                     csuit, clen, rng)
                if kind == 0:
                    continue
                stats[2 * kind - 2] += 1
                lp2 = log_reach_uniform(new, prow, pled, plater, suitmask)
                d = lp2 - lp + logq
                if d >= 0.0 or rand_float(rng) < math.exp(d):
                    cur[:] = new
                    lp = lp2
                    stats[2 * kind - 1] += 1
            out[j * n_chains + c] = cur


@nb.njit(cache=True)
def propose_batch(cur, new, kind, logq, suitmask, unknown, usuit, suit_start, crow, csuit,
                  clen, rng):
    """`propose` for every chain (row) of cur[C, R] into new, kind[C], logq[C]."""
    w = np.empty(max(clen.shape[0], 1))
    for c in range(cur.shape[0]):
        kind[c], logq[c] = propose(cur[c], new[c], w, suitmask, unknown, usuit, suit_start,
                                   crow, csuit, clen, rng)


@nb.njit(cache=True)
def accept_batch(cur, new, kind, log_ratio, rng, stats):
    """MH step for every chain with a proposal: accept with min(1, exp(log_ratio)).
    Returns bool[C], True where accepted."""
    ok = np.zeros(cur.shape[0], dtype=np.bool_)
    for c in range(cur.shape[0]):
        if kind[c] == 0:
            continue
        stats[2 * kind[c] - 2] += 1
        d = log_ratio[c]
        if d >= 0.0 or rand_float(rng) < math.exp(d):
            cur[c] = new[c]
            ok[c] = True
            stats[2 * kind[c] - 1] += 1
    return ok
