"""Per-game compiled helpers shared by the search kernels.

Search kernels are specialised per game: a factory closes over the game's
`Kernel` functions and numba compiles (and caches) one version per game.
Scores inside search are ``(return + 1) / 2`` in [0, 1], the seed's scale, so
the seed's exploration constant 0.7 keeps its meaning.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numba as nb
import numpy as np

from isz.games.base import Game
from isz.games.kernel import Kernel
from isz.rng import rand_below, sample_index
from isz.search.jit import helper
from isz.types import CHANCE, TERMINAL, IszError


class Scratch(NamedTuple):
    """Per-search scratch buffers sized for one game (compiled code takes them as one
    argument): the simulation's world ``s``; legal actions ``la``, their edge labels
    ``lab``, untried labels ``untried`` (int64[num_actions]); chance outcomes ``ca``
    and probabilities ``cp``; returns ``ret`` and scores ``scores`` (float64[P]);
    tree cursors ``cur`` (int64[P]); an information-state tensor ``tbuf``."""

    s: np.ndarray
    la: np.ndarray
    lab: np.ndarray
    untried: np.ndarray
    ca: np.ndarray
    cp: np.ndarray
    ret: np.ndarray
    scores: np.ndarray
    cur: np.ndarray
    tbuf: np.ndarray

    @classmethod
    def of(cls, game: Game) -> Scratch:
        actions = max(game.num_actions, 1)
        chances = max(game.max_chance_outcomes, 1)
        return cls(np.empty(game.state_size, dtype=np.int64),
                   np.empty(actions, dtype=np.int64), np.empty(actions, dtype=np.int64),
                   np.empty(actions, dtype=np.int64), np.empty(chances, dtype=np.int64),
                   np.empty(chances, dtype=np.float64),
                   np.empty(game.num_players, dtype=np.float64),
                   np.empty(game.num_players, dtype=np.float64),
                   np.empty(game.num_players, dtype=np.int64),
                   np.empty(game.tensor_size, dtype=np.float32))


@nb.njit(cache=True)
def load_world(s, world):
    """``s[:] = world`` without a temporary (kernel entry points run without numba's
    reference counting, which a slice copy needs)."""
    for i in range(s.shape[0]):
        s[i] = world[i]


@functools.cache
def make_playout(kernel: Kernel):
    """Compiled ``step_chance``, ``random_playout`` and ``terminal_scores`` for one game."""
    current_player = kernel.current_player
    legal_actions = kernel.legal_actions
    chance_outcomes = kernel.chance_outcomes
    apply_action = kernel.apply_action
    returns = kernel.returns

    @helper
    def sample_chance(s, params, rng, ca, cp):
        """A chance outcome at ``s`` drawn with its probability (not applied)."""
        n = chance_outcomes(s, params, ca, cp)
        return ca[sample_index(rng, cp, n)]

    @helper
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

    @helper
    def terminal_scores(s, params, ret, scores):
        """Per-player scores in [0, 1] of a terminal state."""
        returns(s, params, ret)
        for i in range(ret.shape[0]):
            scores[i] = 0.5 * (ret[i] + 1.0)

    return sample_chance, random_playout, terminal_scores


@functools.cache
def make_playout_scores(kernel: Kernel):
    """Compiled ``playout_scores(s, params, rng, b)``: play ``s`` out at random (in
    place) and write each player's score in [0, 1] into ``b.scores`` (``b``: the
    search's `Scratch`)."""
    _, random_playout, terminal_scores = make_playout(kernel)

    @helper
    def playout_scores(s, params, rng, b):
        random_playout(s, params, rng, b.la, b.ca, b.cp)
        terminal_scores(s, params, b.ret, b.scores)

    return playout_scores


def _playout_leaf(kernel: Kernel):
    playout_scores = make_playout_scores(kernel)

    @helper
    def playout_leaf(s, params, me, rng, b, k):
        playout_scores(s, params, rng, b)

    return playout_leaf


LEAVES = {"playout": _playout_leaf}
"""How a rollout search (`isz.search.so_ismcts`) scores the world where a simulation
left its tree: name -> factory ``(kernel) -> leaf``. ``leaf(s, params, me, rng, b, k)``
writes each player's score in [0, 1] of world ``s`` (a state below the tree, perhaps
terminal; ``me`` the searching seat) into ``b.scores``; it may change ``s`` and the
other scratch buffers of ``b``; ``k``: the search's run-time knobs, for a leaf that
needs data of its own. ``playout``: one uniformly random playout (the seed's)."""


@functools.cache
def make_leaf(kernel: Kernel, name: str):
    """The compiled leaf ``name`` of `LEAVES` for one game."""
    if name not in LEAVES:
        raise IszError(f"unknown leaf {name!r}; allowed: {', '.join(LEAVES)}")
    return LEAVES[name](kernel)


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

        @helper
        def keyed_label(s, params, player, buf):
            return info_key(s, params, player)

        return keyed_label

    @helper
    def info_label(s, params, player, buf):
        info_tensor(s, params, player, buf)
        bits = buf.view(np.uint32)
        h = _FNV_OFFSET
        for i in range(bits.shape[0]):
            h = (h ^ np.uint64(bits[i])) * _FNV_PRIME
        return np.int64(h >> np.uint64(1))

    return info_label
