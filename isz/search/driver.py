"""Python drivers of the compiled search loops: buffers, growth, budgets.

A search runs in chunks of iterations so that a wall-clock budget can be
checked between chunks and the node arrays can grow when full. Worlds come from
``sample_worlds(n) -> int64[n, state_size]`` (a belief bound to the view).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from isz.games.base import Game
from isz.rng import new_rng
from isz.search.mo_ismcts import MOKnobs, MOVariant, make_mo_ismcts
from isz.search.playout import Scratch, num_playout_weights
from isz.search.so_ismcts import SOKnobs, SOVariant, make_so_ismcts
from isz.search.tree import ChildIndex, Tree
from isz.types import IszError

Sampler = Callable[[int], np.ndarray]


@dataclass(frozen=True)
class Budget:
    """Stop after ``iterations`` or after ``seconds`` (whichever is set; both: first hit)."""

    iterations: int | None = None
    seconds: float | None = None
    chunk: int = 256

    def chunks(self):
        """Yield chunk sizes until the budget is spent.

        Under a wall-clock budget the first chunk is small (16) and later ones are
        sized from the rate measured so far to end near the deadline: a fixed chunk
        of 256 overshoots short budgets (PIMC splits 20 ms over 20 worlds)."""
        done, t0 = 0, time.perf_counter()
        while True:
            if self.iterations is not None and done >= self.iterations:
                return
            n = self.chunk if self.iterations is None else min(self.chunk,
                                                               self.iterations - done)
            if self.seconds is not None:
                elapsed = time.perf_counter() - t0
                if done and elapsed >= self.seconds:
                    return
                left = done / max(elapsed, 1e-9) * (self.seconds - elapsed) if done else 16
                n = max(1, min(n, int(left) + 1))
            yield n
            done += n


NO_SMOOTH = (0.0, 0.0, 0.0)


def so_search(game: Game, sample_worlds: Sampler, me: int, budget: Budget, *, c: float,
              seed: int, smooth: tuple[float, float, float] = NO_SMOOTH,
              root_prior: np.ndarray | None = None, c_prior: float = 0.0,
              root_value: np.ndarray | None = None, value_mix: float = 0.0,
              leaf: str = "playout", playout_weights=None) -> Tree:
    """Single-observer ISMCTS; returns the tree.

    ``smooth = (eta, gamma, d)`` turns on Smooth UCT selection (eta > 0).
    ``root_prior`` (float64[num_actions]) with ``c_prior > 0``: the root's moves
    are selected by PUCT on it, once each is tried (a network's policy: the
    planner's ``engine=so_ismcts``). ``root_value`` (float64[num_actions]: each
    root move's score in [0, 1] for ``me``, a value network's) with ``value_mix =
    lam > 0``: the root's PUCT (or its UCB, without a prior's ``c_prior > 0``) takes
    ``(1 - lam)`` the rollouts' mean + ``lam`` that score. ``leaf``: how the world
    below the tree is scored, a name of `isz.search.playout.LEAVES`;
    ``playout_weights``: the ``policy`` leaf's weights (F numbers,
    `isz.search.playout.num_playout_weights`; None: all zeros, uniform moves).
    """
    led = root_prior is not None and c_prior > 0
    prior = np.zeros(game.num_actions) if root_prior is None else \
        np.asarray(root_prior, dtype=np.float64)
    anchor = prior if root_value is None else np.asarray(root_value, dtype=np.float64)
    lam = float(value_mix) if root_value is not None else 0.0
    knobs = SOKnobs(float(c), _smooth(smooth), float(c_prior), prior, anchor, lam,
                    playout_w(game, playout_weights))
    return _so_run(game, sample_worlds, me, budget, SOVariant(
        smooth=knobs.smooth[0] > 0, root_prior=led, root_mix=not led and lam > 0,
        leaf=leaf), knobs, seed)


def uct_search(game: Game, state: np.ndarray, me: int, budget: Budget, *, c: float,
               seed: int, smooth: tuple[float, float, float] = NO_SMOOTH) -> Tree:
    """Plain UCT on one known state (edges are actions, classic ``ln N_parent``
    exploration)."""
    world = state[None, :]
    none = np.zeros(game.num_actions)
    knobs = SOKnobs(float(c), _smooth(smooth), 0.0, none, none, 0.0, playout_w(game, None))
    return _so_run(game, lambda n: world, me, budget, SOVariant(
        full_labels=True, parent_visits=True, smooth=knobs.smooth[0] > 0), knobs, seed)


def playout_w(game: Game, weights) -> np.ndarray:
    """float64[F]: the ``policy`` leaf's weights for ``game`` (None: zeros); a list of
    another length is refused naming F, but for one of the game's earlier feature counts
    (`Kernel.earlier_action_features`: a fit from before features were appended) the
    later features read weight 0."""
    f = num_playout_weights(game)
    if weights is None:
        return np.zeros(f)
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim == 1 and w.size in game.kernel.earlier_action_features:
        w = np.concatenate([w, np.zeros(f - w.size)])
    if w.shape != (f,) or not np.all(np.isfinite(w)):
        raise IszError(f"playout_weights must be {f} finite numbers for game "
                       f"{game.label!r} (its move features), got {w.size}")
    return w


def _smooth(smooth) -> tuple[float, float, float]:
    eta, gamma, d = smooth
    return float(eta), float(gamma), float(d)


def _so_run(game: Game, sample_worlds: Sampler, me: int, budget: Budget,
            variant: SOVariant, knobs: SOKnobs, seed: int) -> Tree:
    """Chunks of the compiled SO-ISMCTS loop until ``budget`` is spent, growing the tree."""
    run = make_so_ismcts(game.kernel, variant)
    first = budget.iterations if budget.iterations is not None else 4 * budget.chunk
    tree, rng, b = Tree(first + 2), new_rng(seed), Scratch.of(game)
    for n in budget.chunks():
        worlds, start = sample_worlds(n), 0
        while start < n:
            # compiled entries take plain tuples (isz.search.jit)
            start = run(worlds, game.kparams, me, start, n, tuple(tree.arrays), tuple(b), rng,
                        tuple(knobs))
            if start < n:
                tree.grow()
    return tree


def mo_search(game: Game, sample_worlds: Sampler, me: int, budget: Budget, *, c: float,
              seed: int, smooth: tuple[float, float, float] = NO_SMOOTH,
              split: bool = True) -> Tree:
    """Multiple-observer ISMCTS; tree roots are nodes ``0..num_players-1``.

    ``split``: opponents' trees branch on their own information state first.
    """
    run = make_mo_ismcts(game.kernel, MOVariant(split=bool(split),
                                               smooth=float(smooth[0]) > 0))
    knobs = MOKnobs(float(c), _smooth(smooth))
    n_players = game.num_players
    max_new = n_players * (game.max_game_length + 1)
    first = budget.iterations if budget.iterations is not None else 4 * budget.chunk
    tree = Tree(n_players * (first + 2) + max_new, roots=n_players)
    rng, b = new_rng(seed), Scratch.of(game)
    index = ChildIndex(np.arange(n_players), first)  # the roots' splits (row j: tree j)
    for n in budget.chunks():
        worlds, start = sample_worlds(n), 0
        index.reserve(tree.nodes, n)  # an iteration adds at most one child a root
        while start < n:
            start = run(worlds, game.kparams, me, start, n, max_new, tuple(tree.arrays),
                        tuple(index.arrays), tuple(b), rng, tuple(knobs))
            if start < n:
                tree.grow()
    return tree


def final_policy(stats: dict[int, tuple[int, float]], final: str,
                 num_actions: int) -> np.ndarray:
    """The root policy over the action space from ``label -> (visits, mean)``.

    'most_visits' / 'best_mean': one-hot of the best move (ties -> first
    created); 'visit_distribution': visits normalised (Smooth UCT's average
    policy).
    """
    pi = np.zeros(num_actions, dtype=np.float64)
    if final == "visit_distribution":
        for a, (n, _) in stats.items():
            pi[a] = n
        return pi / pi.sum()
    i = 0 if final == "most_visits" else 1
    pi[max(stats, key=lambda a: stats[a][i])] = 1.0
    return pi
