"""A value of the sampled world, compiled: a small MLP read by the search kernels.

The search only ever holds worlds drawn from a belief, so a network that
values a *world* (every seat's cards known) never sees the real hidden cards:
it is evaluated on determinizations, as PIMC-with-AlphaZero systems do, and
trained on the true states of self-play games. Its input is the concatenation
of every seat's information-state tensor in the world (`Kernel.info_tensor`
for seats ``0..P-1``): generic for any game, and together they hold every
private observation. The first layer is applied sparsely (information-state
tensors are mostly zeros), so one evaluation costs about as much as a few
random playouts.

Weights (float32, from `research.world_value.net.WorldValueNet.export`):
``(W1[P*T, H], b1[H], W2[H, H], b2[H], W3[H, P], b3[P])``; the value of seat
p is ``tanh(W3^T relu(W2^T relu(W1^T x + b1) + b2) + b3)[p]`` in [-1, 1] (the
seat's return), and the search reads it as the score ``(v + 1) / 2``.
"""

from __future__ import annotations

import functools
import math

import numba as nb
import numpy as np

from isz.games.kernel import Kernel


@functools.cache
def make_world_value(kernel: Kernel):
    """Compiled ``world_features`` and ``world_scores`` for one game."""
    info_tensor = kernel.info_tensor

    @nb.njit(cache=True)
    def world_features(states, params, num_players, out):
        """out[b] = concat over seats p of info_tensor(states[b], p): float32[B, P*T]."""
        t = out.shape[1] // num_players
        for b in range(states.shape[0]):
            for p in range(num_players):
                info_tensor(states[b], params, p, out[b, p * t:(p + 1) * t])

    @nb.njit(cache=True)
    def world_scores(s, params, w, tbuf, h1, h2, out):
        """The net's score (v + 1) / 2 of every seat in world ``s`` into ``out``
        (float64[P]); ``tbuf`` float32[T], ``h1``/``h2`` float32[H] scratch."""
        w1, b1, w2, b2, w3, b3 = w
        t = tbuf.shape[0]
        width = h1.shape[0]
        h1[:] = b1
        for p in range(out.shape[0]):
            info_tensor(s, params, p, tbuf)
            base = p * t
            for i in range(t):
                x = tbuf[i]
                if x != 0.0:
                    row = w1[base + i]
                    for j in range(width):
                        h1[j] += x * row[j]
        for j in range(width):
            if h1[j] < 0.0:
                h1[j] = 0.0
        h2[:] = b2
        for i in range(width):
            x = h1[i]
            if x != 0.0:
                row = w2[i]
                for j in range(width):
                    h2[j] += x * row[j]
        for p in range(out.shape[0]):
            v = b3[p]
            for j in range(width):
                if h2[j] > 0.0:
                    v += h2[j] * w3[j, p]
            out[p] = 0.5 * (math.tanh(v) + 1.0)

    return world_features, world_scores


def random_weights(num_players: int, tensor_size: int, width: int, seed: int = 0):
    """Weights of the layout above drawn at random (tests, benches)."""
    rng = np.random.default_rng(seed)
    d = num_players * tensor_size
    f = np.float32
    return (rng.normal(0, d ** -0.5, (d, width)).astype(f), np.zeros(width, f),
            rng.normal(0, width ** -0.5, (width, width)).astype(f), np.zeros(width, f),
            rng.normal(0, width ** -0.5, (width, num_players)).astype(f),
            np.zeros(num_players, f))
