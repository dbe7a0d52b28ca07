"""Beliefs: samplers of full states (determinizations) consistent with a view.

A belief is built for a game and asked, at decision time, for worlds that agree
with everything the deciding player has observed. It may keep per-game state
for speed (a particle set, a Markov chain), but everything it uses must come
from the view it is given: it never sees the true state.
"""

from __future__ import annotations

import numpy as np

from isz.games.base import Game, State, View
from isz.types import IszError


def check_supported(belief: str, game: Game, supported) -> None:
    """`IszError` naming the game and the supported ones unless ``game.name`` is one."""
    if game.name not in supported:
        raise IszError(f"belief {belief!r} does not support game {game.name!r}; "
                       f"supported: {', '.join(sorted(supported))}")


def check_batch_policy(policy):
    """``policy`` itself when it is None or has ``many(tensors, masks) -> float[B,
    num_actions]`` (the batched policy a weighing belief calls), else `IszError`."""
    if policy is not None and not callable(getattr(policy, "many", None)):
        raise IszError(f"policy must have many(tensors, masks) -> probabilities (e.g. "
                       f"isz.search.evaluator.EvaluatorPolicy), got {policy!r}")
    return policy


def distinct_worlds(worlds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int64[U, S], int64[U]): the distinct rows of ``worlds`` (int64[M, S]) in order of
    first appearance, and how often each occurs (a dict on the bytes: cheaper than
    ``np.unique(axis=0)``'s sort at this size). Weighing each distinct world once, times
    its count, is the law of weighing every draw, at fewer policy rows."""
    index: dict[bytes, int] = {}
    first, counts = [], []
    for i, row in enumerate(worlds):
        j = index.setdefault(row.tobytes(), len(first))
        if j == len(first):
            first.append(i)
            counts.append(0)
        counts[j] += 1
    return worlds[first], np.asarray(counts, dtype=np.int64)


def resampling_law(counts: np.ndarray, logw: np.ndarray) -> tuple[np.ndarray, float]:
    """(float64[U], ess): each distinct candidate's resampling probability, its count
    (int64[U]) times its weight ``exp(logw)`` (float64[U]) normalised, and the pool's
    effective sample size over the draws."""
    w = np.exp(logw - logw.max())
    each = w / np.dot(counts, w)  # a draw's resampling probability
    return counts * each, float(1.0 / np.dot(counts, each * each))


class Belief:
    """Base class: subclasses implement `sample_many` (and may override `sample`)."""

    name: str = "?"
    #: ``time.perf_counter()`` by which a belief that weighs a pool of worlds per view
    #: (``replay``) should have it ready: a searching agent under a time budget sets it
    #: to a share of its move for each decision (and back to None after), so weighing
    #: long histories cannot overrun the move (a pool cut short weighs fewer
    #: candidates). None: no limit.
    deadline: float | None = None

    def __init__(self, game: Game):
        self.game = game

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` worlds as kernel state arrays, shape ``(n, game.state_size)`` int64."""
        raise NotImplementedError

    def sample(self, view: View, rng: np.random.Generator) -> State:
        """One world consistent with ``view``."""
        return State(self.game, self.sample_many(view, 1, rng)[0].copy())

    def reset(self) -> None:
        """Forget per-game state (a new game starts)."""

    def __repr__(self) -> str:
        return f"{self.name}({self.game!r})"
