"""Recon beliefs over the adversary: an SIR particle filter and the exact Bayes filter.

Both serve the recon player (the adversary only lacks sensor readings, which
the game's uniform sampler already draws exactly from the sensor model) and
share one model of the hidden adversary:

- motion: at adversary turn ``i`` an adversary at slot ``x`` plays HOLD, LEFT,
  RIGHT with the probabilities ``motion(x, recon_slot, i)[[0, 2, 3]]``
  (renormalised; knob ``motion``: a callable returning float[num_actions]);
  default uniform over its three moves, the model the game's sampler assumes.
- sensor: a reading ``o`` at recon slot ``r`` has likelihood
  ``recon._likelihood(o, x, r)`` (a detection pins ``x``; "nothing" weighs
  each slot by ``1 - sensor[d]``).

Time runs over turns ``i < t``: ``alpha[i]`` (float[slots]) is the slot
distribution before turn ``i`` given the readings before it; a recon turn folds
in its reading, an adversary turn applies the motion. A reading still pending
(``view`` at the sensor chance node) is not yet known and not yet used.

``bayes`` computes ``alpha`` exactly (``slots * t`` numbers) and draws worlds by
forward filtering, backward sampling (FFBS) of whole adversary trajectories.
``particle`` keeps N particles, each a full adversary hypothesis (start slot,
moves, current slot) as in seed 001: stratified start, one motion draw per
adversary turn, weights times the likelihood of each reading, systematic
resampling when the effective sample size falls below ``resample_threshold *
N``; a world is one particle drawn by weight with its trajectory written into
the view's template. It advances incrementally from the last view it
processed and restarts when a view does not extend it (or after `reset`).

The filter's own random draws at turn ``i`` come from a stream fixed by (knob
``seed``, ``i``), so the particle set is a deterministic function of the
view: incremental advance equals a restart, a diagnostic reading the marginal
does not disturb the agent's later draws, and no-leak holds by construction.
The caller's generator only picks the worlds.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz.belief.base import Belief
from isz.belief.poker import check_supported
from isz.belief.uniform import UniformBelief
from isz.games.base import Game, View
from isz.games.recon import ADVERSARY, HOLD, LEFT, OBSERVE, RIGHT, _likelihood, _pick, _step
from isz.rng import new_rng, next_u64, rand_float
from isz.types import IszError, check_int, seed_from

_MOVES = (HOLD, LEFT, RIGHT)


@nb.njit(cache=True)
def _unstep(x, move, n):
    """The slot from which ``move`` lands on ``x``."""
    if move == LEFT:
        return (x + 1) % n
    if move == RIGHT:
        return (x + n - 1) % n
    return x


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
        for i in range(t - 1, -1, -1):
            if i % 2 != ADVERSARY:
                continue
            # P(x_i = y | x_{i+1} = x, readings before i) ∝ alpha[i, y] * motion(y -> x)
            for j in range(3):
                y = _unstep(x, _MOVES[j], n)
                w[j] = alpha[i, y] * mot[i, y, j]
            j = _pick(rng, w, 3, False)
            moves[k, i] = _MOVES[j]
            x = _unstep(x, _MOVES[j], n)
        start[k] = x


@nb.njit(cache=True)
def _systematic(rng, w, idx):
    """Systematic resampling: idx[k] = particle covering (u + k) / N of the weight CDF."""
    n = w.shape[0]
    u = rand_float(rng) / n
    acc, j = w[0], 0
    for k in range(n):
        while acc < u + k / n and j < n - 1:
            j += 1
            acc += w[j]
        idx[k] = j


@nb.njit(cache=True)
def _predict(rng, mot, n, slot, moves):
    """One motion draw per particle, stratified within each slot: of m particles at x,
    m * mot[x, j] +- 1 make move j, and each particle's own draw is still exactly mot[x]."""
    big_n = slot.shape[0]
    keys = np.empty(big_n)
    for k in range(big_n):  # slot, then a random tie-break: random positions in the group
        keys[k] = slot[k] + rand_float(rng)
    order = np.argsort(keys)
    g0 = 0
    while g0 < big_n:
        x = slot[order[g0]]
        g1 = g0 + 1
        while g1 < big_n and slot[order[g1]] == x:
            g1 += 1
        u0 = rand_float(rng)
        for j in range(g0, g1):
            u, acc, m = (j - g0 + u0) / (g1 - g0), 0.0, 2 if mot[x, 2] > 0.0 else 1
            for c in range(3):
                acc += mot[x, c]
                if u < acc and mot[x, c] > 0.0:
                    m = c
                    break
            moves[order[j]] = _MOVES[m]
        g0 = g1
    for k in range(big_n):
        slot[k] = _step(slot[k], moves[k], n)


@nb.njit(cache=True)
def _pf_run(i0, i1, obs, rpos, mot, params, thresh, seeds, slot, start, moves, w, stats):
    """Advance the particles over turns [i0, i1): -1, or the turn where every weight vanished."""
    n, big_n = params[0], slot.shape[0]
    rng = np.zeros(1, dtype=np.uint64)
    idx = np.empty(big_n, dtype=np.int64)
    for i in range(i0, i1):
        rng[0] = seeds[i]
        if i % 2 == ADVERSARY:
            _predict(rng, mot[i], n, slot, moves[:, i])
        elif obs[i] >= 0:
            tot = 0.0
            for k in range(big_n):
                w[k] *= _likelihood(params, obs[i], slot[k], rpos[i])
                tot += w[k]
            if tot <= 0.0:
                return i
            w /= tot
            if 1.0 / np.sum(w * w) < thresh * big_n:
                _systematic(rng, w, idx)
                slot[:] = slot[idx]
                start[:] = start[idx]
                moves[:] = moves[idx]
                w[:] = 1.0 / big_n
                stats[0] += 1
    return -1


@nb.njit(cache=True)
def _write_worlds(template, t, pick, start, slot, moves, out):
    """out[k] <- template with trajectory pick[k] (start, current slot, adversary moves)."""
    for k in range(out.shape[0]):
        j = pick[k]
        out[k, :] = template
        out[k, 0] = start[j]
        out[k, 1] = slot[j]
        for i in range(ADVERSARY, t, 2):
            out[k, 6 + i] = moves[j, i]


class _Model:
    """A recon view as filter inputs, and the motion model as a table."""

    def __init__(self, game: Game, motion):
        if motion is not None and not callable(motion):
            raise IszError(f"motion must be a callable motion(slot, recon_slot, turn) -> "
                           f"probabilities, got {motion!r}")
        self.game, self.motion = game, motion
        p = game.params
        self.n, self.turns, self.start = p["slots"], p["turns"], p["start"]
        self.mot = np.full((self.turns, self.n, 3), 1.0 / 3.0)
        self._rows: dict[tuple[int, int], np.ndarray] = {}

    def events(self, view: View):
        """(t_done, obs int64[T] (-1: no reading), rpos int64[T]) of a recon view."""
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
            a = own[i // 2]
            if a == OBSERVE and not (pending and i == t - 1):
                obs[i] = next(sens)
            r = int(_step(r, a, self.n))
        return t - pending, obs, rpos

    def _row(self, r: int, i: int) -> np.ndarray:
        """float[slots, 3]: the motion model at turn i with the recon at r (cached)."""
        if (r, i) not in self._rows:
            rows = np.empty((self.n, 3))
            for x in range(self.n):
                p = np.asarray(self.motion(x, r, i), dtype=np.float64)
                if p.shape != (self.game.num_actions,) or not np.all(np.isfinite(p)) \
                        or np.any(p < 0) or p[list(_MOVES)].sum() <= 0:
                    raise IszError(f"motion must return {self.game.num_actions} finite "
                                   f"probabilities >= 0 with some mass on moves, got {p!r}")
                rows[x] = p[list(_MOVES)] / p[list(_MOVES)].sum()
            self._rows[(r, i)] = rows
        return self._rows[(r, i)]

    def exact(self, t: int, obs, rpos) -> np.ndarray:
        """alpha float[T+1, slots] of the exact filter; `IszError` for an impossible view."""
        alpha = np.zeros((self.turns + 1, self.n))
        if not _forward(t, obs, rpos, self.mot, self.game.kparams, alpha):
            raise IszError("recon readings have zero probability under the motion/sensor "
                           "model (is the motion model missing a move the adversary made?)")
        return alpha


class _ReconBelief(Belief):
    """Shared: knob checks, adversary fallback, templates, world writing."""

    def __init__(self, game: Game, motion):
        check_supported(self.name, game, ("recon",))
        super().__init__(game)
        self.model = _Model(game, motion)
        self._uniform = UniformBelief(game)

    def _write(self, view, t, pick, start, slot, moves) -> np.ndarray:
        out = np.empty((len(pick), self.game.state_size), dtype=np.int64)
        _write_worlds(self._uniform.template(view), t, pick, start, slot, moves, out)
        return out

    def _recon_view(self, view: View) -> bool:
        """True when the view needs a filter (recon player, adversary placed)."""
        return view.player != ADVERSARY and view.data[0] == 1

    def marginal(self, view: View) -> np.ndarray:
        """float64[slots]: P(adversary's current slot | recon view)."""
        if view.player == ADVERSARY:
            raise IszError(f"belief {self.name!r} marginal is for the recon (player 0); "
                           "the adversary knows its slot")
        if not self._recon_view(view):
            return np.full(self.model.n, 1.0 / self.model.n)
        return self._marginal(view)


class BayesBelief(_ReconBelief):
    """Exact Bayes filter over the adversary slot; worlds by FFBS."""

    name = "bayes"
    KNOBS = {"motion": None}

    def __init__(self, game: Game, motion=None):
        super().__init__(game, motion)
        self._key, self._cache = None, None

    def reset(self) -> None:
        self._key, self._cache = None, None

    def _filter(self, view: View):
        if view.key != self._key:
            t, obs, rpos = self.model.events(view)
            self._cache = (t, self.model.exact(t, obs, rpos))
            self._key = view.key
        return self._cache

    def _marginal(self, view: View) -> np.ndarray:
        t, alpha = self._filter(view)
        return alpha[t].copy()

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        if not self._recon_view(view):
            return self._uniform.sample_many(view, n, rng)
        t, alpha = self._filter(view)
        start, slot = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        moves = np.zeros((n, self.model.turns), dtype=np.int64)
        _backward(t, alpha, self.model.mot, self.game.kparams, new_rng(seed_from(rng)),
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
        self._seeds = np.array([next_u64(r) for _ in range(self.model.turns)], dtype=np.uint64)
        self._stats = np.zeros(1, dtype=np.int64)
        self.depletions = 0
        self.reset()

    @property
    def resamples(self) -> int:
        return int(self._stats[0])

    @property
    def ess(self) -> float:
        """Effective sample size of the current weights (N right after a resample)."""
        return float(1.0 / np.sum(self._w * self._w)) if self._done >= 0 else 0.0

    def reset(self) -> None:
        self._done, self._obs, self._rpos = -1, None, None

    def _restart(self) -> None:
        big_n, n = self.n_particles, self.model.n
        self._slot = np.arange(big_n, dtype=np.int64) * n // big_n  # stratified uniform start
        self._start = self._slot.copy()
        self._moves = np.zeros((big_n, self.model.turns), dtype=np.int64)
        self._w = np.full(big_n, 1.0 / big_n)

    def _advance(self, view: View) -> int:
        """Bring the particles to ``view`` (incrementally when it extends the last one)."""
        t, obs, rpos = self.model.events(view)
        d = self._done
        # the particles after d turns depend on the readings and recon slots of those turns only
        if d < 0 or t < d or not (np.array_equal(obs[:d], self._obs[:d])
                                  and np.array_equal(rpos[:d], self._rpos[:d])):
            self._restart()
            d = 0
        while d < t:
            bad = _pf_run(d, t, obs, rpos, self.model.mot, self.game.kparams, self.threshold,
                          self._seeds, self._slot, self._start, self._moves, self._w,
                          self._stats)
            if bad < 0:
                break
            self._recover(bad, obs, rpos)
            d = bad + 1
        self._done, self._obs, self._rpos = t, obs, rpos
        return t

    def _recover(self, i: int, obs, rpos) -> None:
        """Every particle contradicted reading i: redraw them all from the exact posterior."""
        alpha = self.model.exact(i + 1, obs, rpos)
        _backward(i + 1, alpha, self.model.mot, self.game.kparams, new_rng(int(self._seeds[i])),
                  self._start, self._slot, self._moves)
        self._w[:] = 1.0 / self.n_particles
        self.depletions += 1

    def _marginal(self, view: View) -> np.ndarray:
        self._advance(view)
        return np.bincount(self._slot, weights=self._w, minlength=self.model.n)

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        if not self._recon_view(view):
            return self._uniform.sample_many(view, n, rng)
        t = self._advance(view)
        cum = np.cumsum(self._w)
        pick = np.searchsorted(cum, rng.random(n) * cum[-1], side="right")
        pick = np.minimum(pick, self.n_particles - 1)
        return self._write(view, t, pick, self._start, self._slot, self._moves)
