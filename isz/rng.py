"""A tiny explicit-state PRNG for compiled kernels (splitmix64).

Numba's own `np.random` keeps hidden per-thread state; isz kernels instead take
a ``uint64[1]`` array, so every random choice flows from an explicit seed drawn
from the caller's `numpy.random.Generator` (`isz.types.seed_from`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0


def new_rng(seed: int) -> np.ndarray:
    """Kernel RNG state (``uint64[1]``) from an integer seed."""
    return np.array([np.uint64(seed & 0xFFFFFFFFFFFFFFFF)], dtype=np.uint64)


@nb.njit(cache=True, inline="always")
def next_u64(rng):
    """Advance the state and return 64 random bits."""
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@nb.njit(cache=True, inline="always")
def rand_below(rng, n):
    """Uniform integer in [0, n) (n >= 1); modulo bias < 2**-40 for n < 2**24."""
    return np.int64(next_u64(rng) % np.uint64(n))


@nb.njit(cache=True, inline="always")
def rand_float(rng):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(rng) >> _S11) * _INV53


@nb.njit(cache=True)
def shuffle_prefix(rng, arr, n):
    """Fisher-Yates shuffle of ``arr[:n]`` in place."""
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t


@nb.njit(cache=True)
def sample_index(rng, probs, n):
    """Index i < n drawn with probability ``probs[i]`` (probs sum to ~1)."""
    u = rand_float(rng)
    acc = 0.0
    for i in range(n - 1):
        acc += probs[i]
        if u < acc:
            return i
    return n - 1
