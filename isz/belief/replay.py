"""``replay``: the game's uniform worlds importance-resampled by a policy's probability
of the other seats' moves, replayed along each world's history. For any game whose
kernel can say how a state was reached (`Kernel.history`), however big.

Target: the posterior of the exact ``posterior`` belief, without enumerating the game,

    P(h | view)  ∝  P_c(h) * prod of policy(view of the actor)[a] over the other
                    seats' actions a on the way to h,

(the viewer's own reach is the same for every consistent h: perfect recall).

How: per view, ``candidates`` worlds are drawn from the game's uniform sampler
(`UniformBelief`, which reads the view alone), and each distinct one is replayed from
the initial state along `Kernel.history`: at every decision of another seat its
information-state tensor and legal mask become a row, and at every chance node the
outcome's probability is kept. One ``policy.many(float32[R, tensor_size], bool[R,
num_actions])`` call answers every row; a world's weight is its chance probability
times the product of its rows' probabilities of the action taken. `sample_many` draws
from the pool by weight (stratified), reusing it for every call on the same view, so a
search pays the replay and the policy call once a decision. The weights are exact
importance weights when the uniform sampler is uniform over the consistent hidden
parts, as `Kernel.redeterminize` promises; the law tends to the target as
``candidates`` grows (bias O(1 / M); `last_ess` is the pool's effective sample size).

No leak: the candidates come from the view alone, and the rows are those of the
candidate worlds, never the true state.

Knobs: ``policy`` (an object with ``many(tensors, masks) -> float[B, num_actions]``,
e.g. `isz.search.evaluator.EvaluatorPolicy`; None: no weights, i.e. ``uniform``),
``candidates`` (128). If the policy gives the taken actions zero probability in every
candidate (an opponent off-model), the chance weights alone are used (``fallbacks``
counts how often), as ``posterior`` does. Under a searching agent's time budget the pool
has a `Belief.deadline`: a first `DEADLINE_CHUNK` draws are weighed and timed, then as
many more as fit before the deadline in one more call, so a long history cannot make the
weighing overrun the move; without one (a fixed number of simulations, self-play) all
``candidates`` are weighed at once, as before.
"""

from __future__ import annotations

import functools
import math
import time

import numba as nb
import numpy as np

from isz.belief.base import Belief, check_batch_policy, distinct_worlds, resampling_law
from isz.belief.posterior import stratified
from isz.belief.uniform import UniformBelief
from isz.games.base import Game, View
from isz.games.kernel import Kernel
from isz.types import IszError, check_int

DEADLINE_CHUNK = 32  # uniform draws weighed at a time when the pool has a deadline


@functools.cache
def make_replay(kernel: Kernel):
    """Compiled ``(count, fill)`` over worlds int64[U, state_size] replayed from ``init``
    (the initial state array) along ``kernel.history``:

    ``count(worlds, init, params, viewer, max_len) -> int64[U]``: each world's number of
    decisions by a seat other than ``viewer``.
    ``fill(worlds, init, params, viewer, max_len, max_chance, rows, masks, actions, owner)
    -> float64[U]``: writes those decisions in world then history order (``rows``
    float32[R, tensor_size], ``masks`` bool[R, num_actions], ``actions`` int64[R], the
    world each belongs to in ``owner`` int64[R]) and returns each world's log chance
    probability.
    """
    history, current_player = kernel.history, kernel.current_player
    legal_actions, chance_outcomes = kernel.legal_actions, kernel.chance_outcomes
    apply_action, info_tensor = kernel.apply_action, kernel.info_tensor

    @nb.njit(cache=True)
    def count(worlds, init, params, viewer, max_len):
        out = np.zeros(worlds.shape[0], np.int64)
        hist = np.empty(max_len, np.int64)
        for w in range(worlds.shape[0]):
            n = history(worlds[w], params, hist)
            s = init.copy()
            for t in range(n):
                p = current_player(s, params)
                if p >= 0 and p != viewer:
                    out[w] += 1
                apply_action(s, params, hist[t])
        return out

    @nb.njit(cache=True)
    def fill(worlds, init, params, viewer, max_len, max_chance, rows, masks, actions, owner):
        logc = np.zeros(worlds.shape[0])
        hist = np.empty(max_len, np.int64)
        legal = np.empty(masks.shape[1], np.int64)
        outs = np.empty(max_chance, np.int64)
        probs = np.empty(max_chance)
        r = 0
        for w in range(worlds.shape[0]):
            n = history(worlds[w], params, hist)
            s = init.copy()
            for t in range(n):
                a = hist[t]
                p = current_player(s, params)
                if p < 0:  # chance: the outcome's probability
                    k = chance_outcomes(s, params, outs, probs)
                    for j in range(k):
                        if outs[j] == a:
                            logc[w] += math.log(probs[j]) if probs[j] > 0 else -np.inf
                elif p != viewer:
                    info_tensor(s, params, p, rows[r])
                    k = legal_actions(s, params, legal)
                    for j in range(k):
                        masks[r, legal[j]] = True
                    actions[r] = a
                    owner[r] = w
                    r += 1
                apply_action(s, params, a)
        return logc

    return count, fill


class ReplayBelief(Belief):
    """Uniform worlds weighed by the policy along their replayed histories; see the
    module docstring."""

    name = "replay"
    KNOBS = {"policy": None, "candidates": 128}

    def __init__(self, game: Game, policy=None, candidates: int = 128):
        if getattr(game.kernel, "history", None) is None:
            raise IszError(f"belief 'replay' needs the game's kernel to define history(s, "
                           f"params, out) (the actions that reach a state); game "
                           f"{game.name!r} does not")
        super().__init__(game)
        self.policy = check_batch_policy(policy)
        self.candidates = check_int("candidates", candidates, lo=1)
        self.uniform = UniformBelief(game)
        self._count, self._fill = make_replay(game.kernel)
        self._init = game.initial_data()
        self.last_ess = math.nan
        self.fallbacks = 0
        self.reset()

    def reset(self) -> None:
        self._pool: tuple = (None, None, None)  # (view key, worlds, probabilities)

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` worlds int64[n, state_size], stratified over the view's weighed pool."""
        if self.policy is None:
            return self.uniform.sample_many(view, n, rng)
        if self._pool[0] != view.key:
            self._pool = (view.key, *self.weighed_pool(view, rng))
        _, worlds, p = self._pool
        return worlds[stratified(p, n, rng)]

    def weighed_pool(self, view: View,
                     rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """(int64[U, state_size], float64[U]): the distinct candidates of ``view`` and
        their probabilities (count × weight, normalised)."""
        worlds, counts, logc, logp = self._weigh(view, rng, self.deadline)
        logw = logc + logp
        if not np.isfinite(logw.max()):  # every candidate off the policy's support
            self.fallbacks += 1
            logw = logc
        p, self.last_ess = resampling_law(counts, logw)
        return worlds, p

    def _weigh(self, view: View, rng: np.random.Generator, deadline: float | None) -> tuple:
        """(worlds, counts, logc, logp) as `weighed_pool` weighs them. Without a deadline,
        all ``candidates`` draws in one policy call. With one, in at most two
        calls: a first `DEADLINE_CHUNK` uniform draws, timed; then, if at least a chunk's
        worth more (or all that are left) fit before the deadline (a
        ``time.perf_counter()``) at the first chunk's time a draw, that many (at most
        ``candidates`` in all). A later draw of a world already weighed adds to its count,
        so only new worlds cost policy rows: the law of weighing every draw at once.
        Timing this decision's own chunk keeps the budget where the cost a draw jumps
        between decisions (a pool of few distinct worlds, then one of many)."""
        t0 = time.perf_counter()
        first = self.candidates if deadline is None else min(DEADLINE_CHUNK, self.candidates)
        worlds, counts = distinct_worlds(self.uniform.sample_many(view, first, rng))
        logc, logp = self.log_weights(worlds, view.player)
        if deadline is None:
            return worlds, counts, logc, logp
        now = time.perf_counter()
        left = self.candidates - first
        more = min(left, int((deadline - now) * first / max(now - t0, 1e-9)))  # < 0 if past
        if left == 0 or more < min(DEADLINE_CHUNK, left):  # not worth a call's fixed cost
            return worlds, counts, logc, logp
        merged, seen = distinct_worlds(
            np.concatenate([worlds, self.uniform.sample_many(view, more, rng)]))
        u = len(worlds)  # distinct_worlds keeps first appearances first: the old worlds
        counts = np.concatenate([counts + seen[:u] - 1, seen[u:]])
        new_c, new_p = self.log_weights(merged[u:], view.player)
        return merged, counts, np.concatenate([logc, new_c]), np.concatenate([logp, new_p])

    def log_weights(self, worlds: np.ndarray, viewer: int) -> tuple[np.ndarray, np.ndarray]:
        """(float64[U], float64[U]): each world's log chance probability and the log of
        the policy's probability of the other seats' actions along its history."""
        g = self.game
        per_world = self._count(worlds, self._init, g.kparams, viewer, g.max_game_length)
        total = int(per_world.sum())
        rows = np.zeros((total, g.tensor_size), np.float32)
        masks = np.zeros((total, g.num_actions), np.bool_)
        actions = np.empty(total, np.int64)
        owner = np.empty(total, np.int64)
        logc = self._fill(worlds, self._init, g.kparams, viewer, g.max_game_length,
                          g.max_chance_outcomes, rows, masks, actions, owner)
        if total == 0:
            return logc, np.zeros(len(worlds))
        probs = np.asarray(self.policy.many(rows, masks), dtype=np.float64)
        if probs.shape != (total, g.num_actions) or not np.all(np.isfinite(probs)) \
                or np.any(probs < 0):
            raise IszError(f"policy.many must return float[{total}, {g.num_actions}] of "
                           f"finite probabilities >= 0, got shape {probs.shape}")
        with np.errstate(divide="ignore"):
            logp = np.log(probs[np.arange(total), actions])
        return logc, np.bincount(owner, weights=logp, minlength=len(worlds))
