"""The recon's adversary model from a policy on the adversary's own view.

A hypothesis is an adversary trajectory: its start slot and its moves so far.
Its move at adversary turn ``i`` follows ``policy`` on the adversary's view in
that hypothesis (its start and moves, plus the recon's public actions of the
recon view being filtered), which is what the network sees when it plays the
adversary. `PolicyMotion.rows` answers many hypotheses at once: the distinct
trajectories are evaluated in one ``policy.many(tensors, masks)`` call (or, for
a plain ``policy(view)`` callable, one call per distinct view), and kept in a
cache keyed by (turn, recon actions, trajectory), so a filter that is asked
about the same prefix again (a restart, the next game) pays nothing. The
cache assumes a fixed policy: a trainer builds new beliefs for new weights
(self-play does, every iteration).

Robust motion (knobs of the recon filters, default off = the raw policy, bit for
bit): ``temperature`` tau > 0 sharpens (< 1) or flattens (> 1) each move law,
``q ** (1 / tau)`` renormalised, then ``mix`` eps in [0, 1] blends it with the
uniform walker, ``(1 - eps) q + eps / 3`` (1 = uniform). The adversary a planner
meets plays its search's move, not the raw policy: a mixture keeps the filter
from ruling out moves the network deems unlikely (`robust_rows`).

`enumerate_posterior` is the exact reference under such a policy: every
trajectory of nonzero weight, expanded turn by turn (one policy batch per
adversary turn), weighted by its policy probability times the sensor
likelihood of each reading; feasible on small rings and short games.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz.belief.recon_kernels import MOVES
from isz.games.base import Game, State
from isz.games.recon import ADVERSARY, LEFT, RECON, RIGHT, info_tensor, ring_step
from isz.types import IszError, check_fraction

_MOVE_IDX = np.array(MOVES)


def check_temperature(value) -> float:
    """``value`` as float, `IszError` unless a finite number > 0 (1: the raw policy)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not np.isfinite(value) or value <= 0:
        raise IszError(f"policy_temperature must be a finite number > 0 (1: the network's "
                       f"policy as is, < 1 sharper, > 1 flatter), got {value!r}")
    return float(value)


def robust_rows(q: np.ndarray, mix: float = 0.0, temperature: float = 1.0) -> np.ndarray:
    """float64[G, 3]: move laws ``q`` (rows summing to 1) at ``temperature``, mixed with
    the uniform walker by ``mix`` (module docstring); ``q`` itself when both are off."""
    if temperature != 1.0:
        q = q ** (1.0 / temperature)
        q = q / q.sum(axis=1, keepdims=True)
    if mix != 0.0:
        q = (1.0 - mix) * q + mix / q.shape[1]
    return q


@nb.njit(cache=True)
def _adversary_states(i, acts, starts, moves, params, out):
    """out[g] (int64[G, state_size]) <- the state before adversary turn ``i`` of
    trajectory g (start ``starts[g]``, moves ``moves[g, 1:i:2]``, recon actions
    ``acts[0:i:2]``); sensor readings are left unset (the adversary never sees them)."""
    n, fuel0, r0 = params[0], params[2], params[3]
    for g in range(starts.shape[0]):
        out[g, :] = -1
        x, r, fuel = starts[g], r0, fuel0
        for j in range(i):
            a = acts[j] if j % 2 == RECON else moves[g, j]
            out[g, 6 + j] = a
            if j % 2 == RECON:
                if a == LEFT or a == RIGHT:
                    r = ring_step(r, a, n)
                    fuel -= 1
            else:
                x = ring_step(x, a, n)
        out[g, 0], out[g, 1], out[g, 2], out[g, 3], out[g, 4], out[g, 5] = \
            starts[g], x, r, fuel, i, 0


@nb.njit(cache=True)
def _adversary_tensors(states, params, out):
    for g in range(states.shape[0]):
        info_tensor(states[g], params, ADVERSARY, out[g])


class PolicyMotion:
    """Move laws of many trajectories under ``policy`` (see module docstring)."""

    def __init__(self, game: Game, policy, cache_size: int = 200_000, mix: float = 0.0,
                 temperature: float = 1.0):
        if not callable(policy):
            raise IszError(f"policy must be a callable policy(view) -> probabilities, "
                           f"got {policy!r}")
        self.game, self.policy, self.cache_size = game, policy, cache_size
        self.mix = check_fraction("policy_mix", mix, "0: the network's policy, 1: uniform")
        self.temperature = check_temperature(temperature)
        self._cache: dict[tuple, np.ndarray] = {}
        self.calls = 0  # policy batches asked (for tests and diagnostics)

    def rows(self, i: int, acts: np.ndarray, starts: np.ndarray, moves: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
        """(probs float64[G, 3] over hold/left/right, group int64[K]) for K trajectories
        (``starts`` int64[K], ``moves`` int64[K, T]) before adversary turn ``i``:
        trajectory k moves by ``probs[group[k]]``."""
        traj = np.column_stack([starts, moves[:, 1:i:2]])
        uniq, group = np.unique(traj, axis=0, return_inverse=True)
        prefix = (i, acts[0:i:2].tobytes())
        keys = [(prefix, row.tobytes()) for row in uniq]
        found = [self._cache.get(k) for k in keys]  # read before a full cache is cleared
        missing = [g for g, p in enumerate(found) if p is None]
        if missing:
            sub = uniq[missing]
            full = np.zeros((len(sub), self.game.params["turns"]), dtype=np.int64)
            full[:, 1:i:2] = sub[:, 1:]
            fresh = self._evaluate(i, acts, sub[:, 0].copy(), full)
            if len(self._cache) + len(missing) > self.cache_size:
                self._cache.clear()
            for g, p in zip(missing, fresh, strict=True):
                self._cache[keys[g]] = found[g] = p
        return np.stack(found), group.ravel().astype(np.int64)

    def _evaluate(self, i, acts, starts, moves) -> np.ndarray:
        """float64[G, 3]: the policy on each trajectory's adversary view, renormalised
        over the moves, at ``temperature`` and mixed with uniform by ``mix``."""
        g = self.game
        states = np.empty((len(starts), g.state_size), dtype=np.int64)
        _adversary_states(i, acts, starts, moves, g.kparams, states)
        self.calls += 1
        if hasattr(self.policy, "many"):
            tensors = np.empty((len(states), g.tensor_size), dtype=np.float32)
            _adversary_tensors(states, g.kparams, tensors)
            masks = np.zeros((len(states), g.num_actions), dtype=np.bool_)
            masks[:, _MOVE_IDX] = True
            p = np.asarray(self.policy.many(tensors, masks), dtype=np.float64)
        else:
            p = np.array([self.policy(State(g, s).view(ADVERSARY)) for s in states],
                         dtype=np.float64)
        if p.shape != (len(states), g.num_actions) or not np.all(np.isfinite(p)) \
                or np.any(p < 0) or np.any(p[:, _MOVE_IDX].sum(axis=1) <= 0):
            raise IszError(f"policy must return {g.num_actions} finite numbers >= 0 with "
                           f"some mass on hold/left/right, got {p!r}")
        q = p[:, _MOVE_IDX]
        return robust_rows(q / q.sum(axis=1, keepdims=True), self.mix, self.temperature)

    def log_weight(self, t: int, acts, starts, moves) -> np.ndarray:
        """float64[K]: log of each trajectory's policy probability over turns < t."""
        out = np.zeros(len(starts))
        for i in range(1, t, 2):
            probs, group = self.rows(i, acts, starts, moves)
            out += np.log(probs[group, _move_index(moves[:, i])])
        return out


def _move_index(moves: np.ndarray) -> np.ndarray:
    """Column of each move (hold 0, left 1, right 2) in the rows of `PolicyMotion.rows`."""
    idx = np.full(9, -1)
    idx[_MOVE_IDX] = np.arange(3)
    return idx[moves]


def steps(slots: np.ndarray, moves: np.ndarray, n: int) -> np.ndarray:
    """int64[K]: each slot moved by its move on the ring of ``n`` (`ring_step`, vectorised)."""
    delta = np.zeros(4, dtype=np.int64)
    delta[LEFT], delta[RIGHT] = -1, 1
    return (slots + delta[moves]) % n


def likelihoods(params: np.ndarray, outcome: int, slots: np.ndarray, r: int) -> np.ndarray:
    """float64[K]: P(sensor outcome | adversary at slots[k], recon at r) (`sensor_likelihood`)."""
    n = params[0]
    d = np.abs(slots - r)
    d = np.minimum(d, n - d)
    ppb = np.zeros(n // 2 + 1)
    ppb[:params[4]] = params[5:5 + params[4]]
    p = ppb[d] / 1e9
    return 1.0 - p if outcome == 0 else p * (slots == outcome - 1)


def enumerate_posterior(motion: PolicyMotion, t: int, obs, rpos, acts,
                        max_trajectories: int):
    """Every trajectory over turns < t with its exact posterior weight.

    Returns (start int64[K], slot int64[K], moves int64[K, T], w float64[K]
    summing to 1); `IszError` for an impossible view or more than
    ``max_trajectories`` live trajectories.
    """
    g = motion.game
    n, turns = g.params["slots"], g.params["turns"]
    start = np.arange(n, dtype=np.int64)
    slot, moves, w = start.copy(), np.zeros((n, turns), dtype=np.int64), np.full(n, 1.0 / n)
    for i in range(t):
        if i % 2 == ADVERSARY:
            probs, group = motion.rows(i, acts, start, moves)
            k = len(start)
            if 3 * k > max_trajectories:
                raise IszError(f"exact filter under a policy: {3 * k} trajectories at turn "
                               f"{i} exceed max_trajectories={max_trajectories}; use the "
                               "particle filter on rings this large")
            start, slot, moves = np.repeat(start, 3), np.repeat(slot, 3), np.repeat(moves, 3, 0)
            moves[:, i] = np.tile(_MOVE_IDX, k)
            w = np.repeat(w, 3) * probs[group].ravel()
            slot = steps(slot, moves[:, i], n)
        elif obs[i] >= 0:
            w = w * likelihoods(g.kparams, int(obs[i]), slot, int(rpos[i]))
        keep = w > 0
        if not keep.any():
            raise IszError("recon readings have zero probability under the policy/sensor model")
        start, slot, moves, w = start[keep], slot[keep], moves[keep], w[keep]
    return start, slot, moves, w / w.sum()
