"""Per-game compiled helpers shared by the search kernels.

Search kernels are specialised per game: a factory closes over the game's
`Kernel` functions and numba compiles (and caches) one version per game.
Scores inside search are ``(return + 1) / 2`` in [0, 1], the seed's scale, so
the seed's exploration constant 0.7 keeps its meaning.
"""

from __future__ import annotations

import functools

import numba as nb
import numpy as np

from isz.games.kernel import Kernel
from isz.rng import rand_below, sample_index
from isz.types import CHANCE, TERMINAL


@functools.cache
def make_playout(kernel: Kernel):
    """Compiled ``step_chance``, ``random_playout`` and ``terminal_scores`` for one game."""
    current_player = kernel.current_player
    legal_actions = kernel.legal_actions
    chance_outcomes = kernel.chance_outcomes
    apply_action = kernel.apply_action
    returns = kernel.returns

    @nb.njit(cache=True)
    def sample_chance(s, params, rng, ca, cp):
        """A chance outcome at ``s`` drawn with its probability (not applied)."""
        n = chance_outcomes(s, params, ca, cp)
        return ca[sample_index(rng, cp, n)]

    @nb.njit(cache=True)
    def random_playout(s, params, rng, la, ca, cp):
        """Play uniformly random legal actions (and chance) to the end, in place."""
        while True:
            p = current_player(s, params)
            if p == TERMINAL:
                return
            if p == CHANCE:
                a = sample_chance(s, params, rng, ca, cp)
            else:
                n = legal_actions(s, params, la)
                a = la[rand_below(rng, n)]
            apply_action(s, params, a)

    @nb.njit(cache=True)
    def terminal_scores(s, params, ret, scores):
        """Per-player scores in [0, 1] of a terminal state."""
        returns(s, params, ret)
        for i in range(ret.shape[0]):
            scores[i] = 0.5 * (ret[i] + 1.0)

    return sample_chance, random_playout, terminal_scores


_FNV_OFFSET = np.uint64(0xCBF29CE484222325)
_FNV_PRIME = np.uint64(0x100000001B3)


@functools.cache
def make_info_label(kernel: Kernel):
    """Compiled ``info_label(s, params, player, buf) -> int`` telling apart the
    player's information states in world ``s``: `Kernel.info_key` when the game
    has one, else a 63-bit hash of its `Kernel.info_tensor` (``buf``: scratch)."""
    info_tensor = kernel.info_tensor
    if kernel.info_key is not None:
        info_key = kernel.info_key

        @nb.njit(cache=True)
        def keyed_label(s, params, player, buf):
            return info_key(s, params, player)

        return keyed_label

    @nb.njit(cache=True)
    def info_label(s, params, player, buf):
        info_tensor(s, params, player, buf)
        bits = buf.view(np.uint32)
        h = _FNV_OFFSET
        for i in range(bits.shape[0]):
            h = (h ^ np.uint64(bits[i])) * _FNV_PRIME
        return np.int64(h >> np.uint64(1))

    return info_label
