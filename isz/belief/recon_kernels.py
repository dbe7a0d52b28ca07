"""Compiled kernels of the recon filters (`isz.belief.particle`): exact forward filter,
backward sampling, the particles' motion step and their run over turns.

Shapes: ``T`` turns, ``n`` slots, ``N`` particles. ``obs`` int64[T] is the reading
of each recon turn (-1: none), ``rpos`` int64[T] the recon's slot at each turn,
``mot`` float64[T, n, 3] a Markov motion model (P(hold, left, right | slot)).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz.games.recon import ADVERSARY, HOLD, LEFT, RIGHT, pick_index, ring_step, sensor_likelihood
from isz.rng import rand_float

MOVES = (HOLD, LEFT, RIGHT)


@nb.njit(cache=True)
def forward(t, obs, rpos, mot, params, alpha):
    """Exact filter into alpha[:t+1] (float[T+1, slots]); False if a reading is impossible."""
    n = params[0]
    alpha[0, :] = 1.0 / n
    for i in range(t):
        if i % 2 == ADVERSARY:
            alpha[i + 1, :] = 0.0
            for x in range(n):
                for j in range(3):
                    alpha[i + 1, ring_step(x, MOVES[j], n)] += alpha[i, x] * mot[i, x, j]
            continue
        if obs[i] >= 0:
            tot = 0.0
            for x in range(n):
                alpha[i, x] *= sensor_likelihood(params, obs[i], x, rpos[i])
                tot += alpha[i, x]
            if tot <= 0.0:
                return False
            alpha[i, :] /= tot
        alpha[i + 1, :] = alpha[i, :]
    return True


@nb.njit(cache=True)
def backward(t, alpha, mot, params, rng, start, slot, moves):
    """Row k of (start, slot, moves[:, :t]) <- one trajectory from the exact posterior."""
    n = params[0]
    w = np.empty(3)
    for k in range(slot.shape[0]):
        x = pick_index(rng, alpha[t], n, False)
        slot[k] = x
        for i in range(t - 1 - t % 2, 0, -2):  # the adversary (odd) turns, last first
            # P(x_i = y | x_{i+1} = x, readings before i) ∝ alpha[i, y] * motion(y -> x);
            # move j reaches x from y = x stepped by the opposite move (3 - j) % 3
            for j in range(3):
                y = ring_step(x, MOVES[(3 - j) % 3], n)
                w[j] = alpha[i, y] * mot[i, y, j]
            j = pick_index(rng, w, 3, False)
            moves[k, i] = MOVES[j]
            x = ring_step(x, MOVES[(3 - j) % 3], n)
        start[k] = x


@nb.njit(cache=True)
def predict(rng, rows, group, n, slot, moves):
    """One motion draw per particle, stratified per group: particle k moves by
    ``rows[group[k]]`` (float[G, 3]: hold, left, right); of the m particles of a
    group, m * rows[g, j] +- 1 make move j, yet each particle's own draw is exactly
    rows[g]. A Markov model groups by slot (``group = slot``, ``rows = mot[i]``); a
    policy on each particle's own view groups particles sharing a trajectory."""
    big_n = slot.shape[0]
    keys = np.empty(big_n)
    for k in range(big_n):  # by group, in random order within a group
        keys[k] = group[k] + rand_float(rng)
    order = np.argsort(keys)
    g0 = 0
    while g0 < big_n:
        x, g1 = group[order[g0]], g0 + 1
        while g1 < big_n and group[order[g1]] == x:
            g1 += 1
        cum, u0 = np.cumsum(rows[x]), rand_float(rng)
        for j in range(g0, g1):  # side="right" never lands on a zero-probability move
            m = np.searchsorted(cum, (j - g0 + u0) / (g1 - g0) * cum[2], side="right")
            moves[order[j]] = MOVES[min(m, 2)]
        g0 = g1
    for k in range(big_n):
        slot[k] = ring_step(slot[k], moves[k], n)


@nb.njit(cache=True)
def pf_run(i0, i1, obs, rpos, mot, params, thresh, seeds, slot, start, moves, w, stats):
    """Advance the particles over turns [i0, i1): -1, or the turn where every weight
    vanished. ``stats`` int64[3]: resamples, depletions, readings weighed in."""
    n, big_n = params[0], slot.shape[0]
    rng = np.zeros(1, dtype=np.uint64)
    for i in range(i0, i1):
        rng[0] = seeds[i]
        if i % 2 == ADVERSARY:
            predict(rng, mot[i], slot, n, slot, moves[:, i])
        elif obs[i] >= 0:
            stats[2] += 1
            for k in range(big_n):
                w[k] *= sensor_likelihood(params, obs[i], slot[k], rpos[i])
            tot = np.sum(w)
            if tot <= 0.0:
                return i
            w /= tot
            if 1.0 / np.sum(w * w) < thresh * big_n:
                # systematic resampling: one uniform, N evenly spaced points on the CDF
                idx = np.searchsorted(np.cumsum(w), (rand_float(rng) + np.arange(big_n)) / big_n)
                idx = np.minimum(idx, big_n - 1)
                slot[:], start[:], moves[:], w[:] = slot[idx], start[idx], moves[idx], 1 / big_n
                stats[0] += 1
    return -1
