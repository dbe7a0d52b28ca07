"""Per-game compiled helpers shared by the search kernels.

Search kernels are specialised per game: a factory closes over the game's
`Kernel` functions and numba compiles (and caches) one version per game.
Scores inside search are ``(return + 1) / 2`` in [0, 1], the seed's scale, so
the seed's exploration constant 0.7 keeps its meaning.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numba as nb
import numpy as np

from isz.games.base import Game
from isz.games.kernel import Kernel
from isz.rng import rand_below, rand_float, sample_index
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


@functools.cache
def make_action_score(kernel: Kernel):
    """Compiled ``score(s, params, p, a, w) -> float``: `Kernel.action_score` where the
    game describes its moves, else ``w[a]`` (each action id its own feature)."""
    if kernel.action_score is not None:
        return kernel.action_score

    @helper
    def action_bias(s, params, p, a, w):
        return w[a]

    return action_bias


@functools.cache
def make_move_features(kernel: Kernel):
    """Compiled ``features(s, params, p, la, n, out)``: ``out[i, j]`` = feature j of
    move ``la[i]`` of seat ``p`` in world ``s`` (i < n; ``out`` float64[>= n, F]), read
    through unit weight vectors (`make_action_score` is linear in its weights)."""
    score = make_action_score(kernel)

    @nb.njit
    def features(s, params, p, la, n, out):
        e = np.zeros(out.shape[1])
        for j in range(out.shape[1]):
            e[j] = 1.0
            for i in range(n):
                out[i, j] = score(s, params, p, la[i], e)
            e[j] = 0.0

    return features


def num_playout_weights(game: Game) -> int:
    """F, the length of the ``policy`` leaf's weights for ``game`` (`make_action_score`)."""
    return game.kernel.num_action_features or game.num_actions


def policy_leaf(kernel: Kernel, choose):
    """The compiled leaf ``(s, params, me, rng, b, k)`` that plays world ``s`` to its end
    by ``choose(s, params, p, rng, la, n, k) -> action`` (a `helper`: seat ``p`` to move,
    legal actions ``la[:n]``, ``k`` the search's knobs), chance by its law, and scores
    it."""
    current_player, legal_actions, apply_action = (
        kernel.current_player, kernel.legal_actions, kernel.apply_action)
    sample_chance, _, terminal_scores = make_playout(kernel)

    @helper
    def leaf(s, params, me, rng, b, k):
        while True:
            p = current_player(s, params)
            if p == TERMINAL:
                break
            if p == CHANCE:
                a = sample_chance(s, params, rng, b.ca, b.cp)
            else:
                a = choose(s, params, p, rng, b.la, legal_actions(s, params, b.la), k)
            apply_action(s, params, a)
        terminal_scores(s, params, b.ret, b.scores)

    return leaf


def _policy_leaf(kernel: Kernel):
    score = make_action_score(kernel)

    @helper
    def softmax_move(s, params, p, rng, la, n, k):
        best, total = la[0], 0.0
        for i in range(n):  # one pass: reservoir sampling on exp(score)
            e = math.exp(min(score(s, params, p, la[i], k.playout_w), 50.0))
            total += e
            if rand_float(rng) * total < e:
                best = la[i]
        return best

    return policy_leaf(kernel, softmax_move)


LEAVES = {"playout": _playout_leaf, "policy": _policy_leaf}
"""How a rollout search (`isz.search.so_ismcts`) scores the world where a simulation
left its tree: name -> factory ``(kernel) -> leaf``. ``leaf(s, params, me, rng, b, k)``
writes each player's score in [0, 1] of world ``s`` (a state below the tree, perhaps
terminal; ``me`` the searching seat) into ``b.scores``; it may change ``s`` and the
other scratch buffers of ``b``; ``k``: the search's run-time knobs, for a leaf that
needs data of its own. ``playout``: one uniformly random playout (the seed's);
``policy``: one playout in which every seat plays move ``a`` with probability ∝
exp(`make_action_score`) under the weights ``k.playout_w`` (a fast policy fitted to
the planner's moves, `isz.training.playout_fit`; all zeros plays uniformly)."""


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
