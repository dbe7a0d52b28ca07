"""Recon beliefs over the hidden adversary: an SIR particle filter and the exact Bayes filter.

Both serve the recon player (the adversary lacks only sensor readings, which the
game's uniform sampler draws exactly) under one model. Motion: at adversary turn
``i`` an adversary at ``x`` plays HOLD, LEFT, RIGHT with probabilities
``motion(x, recon_slot, i)[[0, 2, 3]]`` (knob: a callable returning
float[num_actions], renormalised over the moves; default uniform, as the game's
sampler). Sensor: `recon._likelihood`. ``alpha[i]`` (float[slots]) is the slot
distribution before turn ``i`` given the earlier readings; a pending reading
(view at the sensor chance node) is not known yet and not used.

``bayes`` computes ``alpha`` exactly and draws whole trajectories by forward
filtering, backward sampling. ``particle`` keeps N particles, each a full
adversary hypothesis (start, moves, slot) as in seed 001: stratified start,
motion draws stratified per slot, weights times each reading's likelihood,
systematic resampling when the effective sample size drops below
``resample_threshold * N``; a world is a particle drawn by weight. It advances
incrementally from the last view and restarts when a view does not extend it.
Its own draws at turn ``i`` come from a stream fixed by (knob ``seed``, ``i``),
so the particles are a deterministic function of the view: advancing equals
restarting, a diagnostic reading the marginal cannot disturb the agent, and
no-leak holds by construction. The caller's generator only picks the worlds.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz.belief.base import Belief, check_supported
from isz.belief.uniform import UniformBelief
from isz.games.base import Game, View
from isz.games.recon import ADVERSARY, HOLD, LEFT, OBSERVE, RIGHT, _likelihood, _pick, _step
from isz.rng import new_rng, next_u64, rand_float
from isz.types import IszError, check_int, seed_from

_MOVES = (HOLD, LEFT, RIGHT)


@nb.njit(cache=True)
def _forward(t, obs, rpos, mot, params, alpha):
    """Exact filter into alpha[:t+1] (float[T+1, slots]); False if a reading is impossible."""
    n = params[0]
    alpha[0, :] = 1.0 / n
    for i in range(t):
        if i % 2 == ADVERSARY:
            alpha[i + 1, :] = 0.0
            for x in range(n):
                for j in range(3):
                    alpha[i + 1, _step(x, _MOVES[j], n)] += alpha[i, x] * mot[i, x, j]
            continue
        if obs[i] >= 0:
            tot = 0.0
            for x in range(n):
                alpha[i, x] *= _likelihood(params, obs[i], x, rpos[i])
                tot += alpha[i, x]
            if tot <= 0.0:
                return False
            alpha[i, :] /= tot
        alpha[i + 1, :] = alpha[i, :]
    return True


@nb.njit(cache=True)
def _backward(t, alpha, mot, params, rng, start, slot, moves):
    """Row k of (start, slot, moves[:, :t]) <- one trajectory from the exact posterior."""
    n = params[0]
    w = np.empty(3)
    for k in range(slot.shape[0]):
        x = _pick(rng, alpha[t], n, False)
        slot[k] = x
        for i in range(t - 1 - t % 2, 0, -2):  # the adversary (odd) turns, last first
            # P(x_i = y | x_{i+1} = x, readings before i) ∝ alpha[i, y] * motion(y -> x);
            # move j reaches x from y = x stepped by the opposite move (3 - j) % 3
            for j in range(3):
                y = _step(x, _MOVES[(3 - j) % 3], n)
                w[j] = alpha[i, y] * mot[i, y, j]
            j = _pick(rng, w, 3, False)
            moves[k, i] = _MOVES[j]
            x = _step(x, _MOVES[(3 - j) % 3], n)
        start[k] = x


@nb.njit(cache=True)
def _predict(rng, mot, n, slot, moves):
    """One motion draw per particle, stratified per slot: of the m particles at x,
    m * mot[x, j] +- 1 make move j, yet each particle's own draw is exactly mot[x]."""
    big_n = slot.shape[0]
    keys = np.empty(big_n)
    for k in range(big_n):  # group by slot, in random order within a group
        keys[k] = slot[k] + rand_float(rng)
    order = np.argsort(keys)
    g0 = 0
    while g0 < big_n:
        x, g1 = slot[order[g0]], g0 + 1
        while g1 < big_n and slot[order[g1]] == x:
            g1 += 1
        cum, u0 = np.cumsum(mot[x]), rand_float(rng)
        for j in range(g0, g1):  # side="right" never lands on a zero-probability move
            m = np.searchsorted(cum, (j - g0 + u0) / (g1 - g0) * cum[2], side="right")
            moves[order[j]] = _MOVES[min(m, 2)]
        g0 = g1
    for k in range(big_n):
        slot[k] = _step(slot[k], moves[k], n)


@nb.njit(cache=True)
def _pf_run(i0, i1, obs, rpos, mot, params, thresh, seeds, slot, start, moves, w, stats):
    """Advance the particles over turns [i0, i1): -1, or the turn where every weight vanished."""
    n, big_n = params[0], slot.shape[0]
    rng = np.zeros(1, dtype=np.uint64)
    for i in range(i0, i1):
        rng[0] = seeds[i]
        if i % 2 == ADVERSARY:
            _predict(rng, mot[i], n, slot, moves[:, i])
        elif obs[i] >= 0:
            for k in range(big_n):
                w[k] *= _likelihood(params, obs[i], slot[k], rpos[i])
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


class _ReconBelief(Belief):
    """Shared: the view as filter inputs, the motion table, the exact filter, worlds."""

    def __init__(self, game: Game, motion=None):
        check_supported(self.name, game, ("recon",))
        if motion is not None and not callable(motion):
            raise IszError(f"motion must be a callable motion(slot, recon_slot, turn) -> "
                           f"probabilities, got {motion!r}")
        super().__init__(game)
        self.motion, self._uniform = motion, UniformBelief(game)
        self.n, self.turns, self.start = (game.params[k] for k in ("slots", "turns", "start"))
        self.mot = np.full((self.turns, self.n, 3), 1.0 / 3.0)  # float[T, slots, moves]
        self._rows: dict[tuple[int, int], np.ndarray] = {}
        self.reset()

    def _events(self, view: View):
        """(t_done, obs int64[T] (-1: no reading), rpos int64[T]: recon slot) of a recon view."""
        _, t, pending, *rest = view.data
        own, sens = rest[:(t + 1) // 2], iter(rest[(t + 1) // 2:])
        obs = np.full(self.turns, -1, dtype=np.int64)
        rpos = np.zeros(self.turns, dtype=np.int64)
        r = self.start
        for i in range(t):
            rpos[i] = r
            if i % 2 == ADVERSARY:
                if self.motion is not None:
                    self.mot[i] = self._row(r, i)
                continue
            if own[i // 2] == OBSERVE and not (pending and i == t - 1):
                obs[i] = next(sens)
            r = int(_step(r, own[i // 2], self.n))
        return t - pending, obs, rpos

    def _row(self, r: int, i: int) -> np.ndarray:
        """float[slots, 3]: the motion model at turn i with the recon at r (cached)."""
        if (r, i) not in self._rows:
            p = np.array([self.motion(x, r, i) for x in range(self.n)], dtype=np.float64)
            if p.shape != (self.n, self.game.num_actions) or not np.all(np.isfinite(p)) \
                    or np.any(p < 0) or np.any(p[:, _MOVES].sum(axis=1) <= 0):
                raise IszError(f"motion must return {self.game.num_actions} finite numbers "
                               f">= 0 with some mass on hold/left/right, got {p!r}")
            self._rows[(r, i)] = p[:, _MOVES] / p[:, _MOVES].sum(axis=1, keepdims=True)
        return self._rows[(r, i)]

    def _exact(self, t: int, obs, rpos) -> np.ndarray:
        """alpha float[T+1, slots] of the exact filter; `IszError` for an impossible view."""
        alpha = np.zeros((self.turns + 1, self.n))
        if not _forward(t, obs, rpos, self.mot, self.game.kparams, alpha):
            raise IszError("recon readings have zero probability under the motion/sensor "
                           "model (is the motion model missing a move the adversary made?)")
        return alpha

    def _write(self, view, t, pick, start, slot, moves) -> np.ndarray:
        """int64[len(pick), state_size]: the view's template with trajectories ``pick``."""
        out = np.tile(self._uniform.template(view), (len(pick), 1))
        out[:, 0], out[:, 1] = start[pick], slot[pick]
        adv = np.arange(ADVERSARY, t, 2)
        out[:, 6 + adv] = moves[pick][:, adv]
        return out

    def _filtered(self, view: View) -> bool:  # recon player, adversary placed
        return view.player != ADVERSARY and view.data[0] == 1

    def marginal(self, view: View) -> np.ndarray:
        """float64[slots]: P(adversary's current slot | recon view)."""
        if view.player == ADVERSARY:
            raise IszError(f"belief {self.name!r} marginal is for the recon (player 0); "
                           "the adversary knows its slot")
        return self._marginal(view) if self._filtered(view) else np.full(self.n, 1 / self.n)


class BayesBelief(_ReconBelief):
    """Exact Bayes filter over the adversary slot; worlds by FFBS."""

    name = "bayes"
    KNOBS = {"motion": None}

    def reset(self) -> None:
        self._key, self._cache = None, None

    def _filter(self, view: View):
        if view.key != self._key:
            t, obs, rpos = self._events(view)
            self._cache, self._key = (t, self._exact(t, obs, rpos)), view.key
        return self._cache

    def _marginal(self, view: View) -> np.ndarray:
        t, alpha = self._filter(view)
        return alpha[t].copy()

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        if not self._filtered(view):
            return self._uniform.sample_many(view, n, rng)
        t, alpha = self._filter(view)
        start, slot = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        moves = np.zeros((n, self.turns), dtype=np.int64)
        _backward(t, alpha, self.mot, self.game.kparams, new_rng(seed_from(rng)),
                  start, slot, moves)
        return self._write(view, t, np.arange(n), start, slot, moves)


class ParticleBelief(_ReconBelief):
    """SIR particle filter over the adversary's trajectory (see module docstring)."""

    name = "particle"
    KNOBS = {"particles": 1000, "resample_threshold": 0.5, "motion": None, "seed": 0}

    def __init__(self, game: Game, particles=1000, resample_threshold=0.5, motion=None,
                 seed=0):
        big_n = check_int("particles", particles, lo=1)
        thr = resample_threshold
        if isinstance(thr, bool) or not isinstance(thr, (int, float, np.integer, np.floating)) \
                or not 0.0 < thr <= 1.0:
            raise IszError(f"resample_threshold must be a number in (0, 1], got {thr!r}")
        super().__init__(game, motion)
        self.n_particles, self.threshold = big_n, float(thr)
        r = new_rng(check_int("seed", seed, lo=0))
        self._seeds = np.array([next_u64(r) for _ in range(self.turns)], dtype=np.uint64)
        self.stats = np.zeros(2, dtype=np.int64)  # [resamples, depletions (full recoveries)]

    @property
    def ess(self) -> float:
        """Effective sample size of the current weights (N right after a resample)."""
        return float(1.0 / np.sum(self._w * self._w)) if self._done >= 0 else 0.0

    def reset(self) -> None:
        self._done, self._obs, self._rpos = -1, None, None

    def _advance(self, view: View) -> int:
        """Bring the particles to ``view`` (incrementally when it extends the last one)."""
        t, obs, rpos = self._events(view)
        d = self._done
        # the particles after d turns depend on the readings and recon slots of those turns only
        if d < 0 or t < d or not (np.array_equal(obs[:d], self._obs[:d])
                                  and np.array_equal(rpos[:d], self._rpos[:d])):
            big_n, d = self.n_particles, 0
            self._slot = np.arange(big_n, dtype=np.int64) * self.n // big_n  # stratified start
            self._start = self._slot.copy()
            self._moves = np.zeros((big_n, self.turns), dtype=np.int64)
            self._w = np.full(big_n, 1.0 / big_n)
        while d < t:
            bad = _pf_run(d, t, obs, rpos, self.mot, self.game.kparams, self.threshold,
                          self._seeds, self._slot, self._start, self._moves, self._w,
                          self.stats)
            if bad < 0:
                break
            # every particle contradicts reading `bad`: redraw all from the exact posterior
            _backward(bad + 1, self._exact(bad + 1, obs, rpos), self.mot, self.game.kparams,
                      new_rng(int(self._seeds[bad])), self._start, self._slot, self._moves)
            self._w[:] = 1.0 / self.n_particles
            self.stats[1] += 1
            d = bad + 1
        self._done, self._obs, self._rpos = t, obs, rpos
        return t

    def _marginal(self, view: View) -> np.ndarray:
        self._advance(view)
        return np.bincount(self._slot, weights=self._w, minlength=self.n)

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        if not self._filtered(view):
            return self._uniform.sample_many(view, n, rng)
        t = self._advance(view)
        cum = np.cumsum(self._w)
        pick = np.minimum(np.searchsorted(cum, rng.random(n) * cum[-1], side="right"),
                          self.n_particles - 1)
        return self._write(view, t, pick, self._start, self._slot, self._moves)
