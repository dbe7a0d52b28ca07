"""Recon beliefs over the hidden adversary: an SIR particle filter and the exact Bayes filter.

Both serve the recon player (the adversary lacks only sensor readings, which the
game's uniform sampler draws exactly) under one model of the adversary's moves:

- default: uniform over hold, left, right, as the game's sampler;
- knob ``motion``: a Markov model, ``motion(x, recon_slot, i)`` -> float[num_actions]
  (renormalised over the moves) for an adversary at ``x`` at adversary turn ``i``;
- knob ``policy``: the adversary plays ``policy`` on its own view
  (`isz.belief.recon_policy`; ``policy(view)``, batched through ``policy.many``
  when it has one, as `isz.search.evaluator.EvaluatorPolicy` does), so the
  recon believes what a network-played adversary would have done;
- knobs ``policy_temperature`` (default 1) and ``policy_mix`` (default 0) make
  that model robust (`isz.belief.recon_policy.robust_rows`): each move law of
  ``policy`` or ``motion`` is taken to the power ``1 / temperature`` and blended
  with the uniform walker, ``(1 - mix) q + mix / 3``. The defaults leave the
  model as is (bit for bit); under the default uniform walker they change nothing.

Sensor: `recon.sensor_likelihood`. A pending reading (view at the sensor chance node)
is not known yet and not used.

``bayes`` is exact: under a Markov model it filters the slot distribution
``alpha[i]`` (float[slots], before turn ``i``) and draws whole trajectories by
forward filtering, backward sampling; under a policy, whose moves depend on the
whole trajectory, it enumerates every trajectory of nonzero weight (small rings;
knob ``max_trajectories``). ``particle`` keeps N particles, each a full adversary
hypothesis (start, moves, slot) as in seed 001: stratified start, motion draws
stratified per slot (Markov) or per shared trajectory (policy: one policy batch
per adversary turn over the particles' distinct trajectories), weights times
each reading's likelihood, systematic resampling when the effective sample size
drops below ``resample_threshold * N``; a world is a particle drawn by weight.
It advances incrementally from the last view and restarts when a view does not
extend it. If every particle contradicts a reading, all are redrawn from the
exact uniform-motion posterior (reweighted by the policy when there is one).
Its own draws at turn ``i`` come from a stream fixed by (knob ``seed``, ``i``),
so the particles are a deterministic function of the view: advancing equals
restarting, a diagnostic reading the marginal cannot disturb the agent, and
no-leak holds by construction. The caller's generator only picks the worlds.
"""

from __future__ import annotations

import numpy as np

from isz.belief.base import Belief, check_supported
from isz.belief.recon_kernels import MOVES, backward, forward, pf_run, predict
from isz.belief.recon_policy import (
    PolicyMotion,
    check_temperature,
    enumerate_posterior,
    robust_rows,
)
from isz.belief.uniform import UniformBelief
from isz.games.base import Game, View
from isz.games.recon import ADVERSARY, OBSERVE, ring_step
from isz.rng import new_rng, next_u64
from isz.types import IszError, check_fraction, check_int, seed_from


class _ReconBelief(Belief):
    """Shared: the view as filter inputs, the motion model, the exact filter, worlds."""

    def __init__(self, game: Game, motion=None, policy=None, policy_mix=0.0,
                 policy_temperature=1.0):
        check_supported(self.name, game, ("recon",))
        self.mix = check_fraction("policy_mix", policy_mix,
                                  "0: the network's policy, 1: the uniform walker")
        self.temperature = check_temperature(policy_temperature)
        if motion is not None and not callable(motion):
            raise IszError(f"motion must be a callable motion(slot, recon_slot, turn) -> "
                           f"probabilities, got {motion!r}")
        if motion is not None and policy is not None:
            raise IszError("give the recon filters a motion model or a policy, not both")
        super().__init__(game)
        self.motion, self._uniform = motion, UniformBelief(game)
        self.policy = None if policy is None else PolicyMotion(
            game, policy, mix=self.mix, temperature=self.temperature)
        self.n, self.turns, self.start = (game.params[k] for k in ("slots", "turns", "start"))
        self.mot = np.full((self.turns, self.n, 3), 1.0 / 3.0)  # float[T, slots, moves]
        self._rows: dict[tuple[int, int], np.ndarray] = {}
        self.reset()

    def _events(self, view: View):
        """(t_done, obs int64[T] (-1: no reading), rpos int64[T]: recon slot, acts
        int64[T]: the recon's actions at its turns) of a recon view."""
        _, t, pending, *rest = view.data
        own, sens = rest[:(t + 1) // 2], iter(rest[(t + 1) // 2:])
        obs = np.full(self.turns, -1, dtype=np.int64)
        rpos = np.zeros(self.turns, dtype=np.int64)
        acts = np.zeros(self.turns, dtype=np.int64)
        r = self.start
        for i in range(t):
            rpos[i] = r
            if i % 2 == ADVERSARY:
                if self.motion is not None:
                    self.mot[i] = self._row(r, i)
                continue
            acts[i] = own[i // 2]
            if own[i // 2] == OBSERVE and not (pending and i == t - 1):
                obs[i] = next(sens)
            r = int(ring_step(r, own[i // 2], self.n))
        return t - pending, obs, rpos, acts

    def _row(self, r: int, i: int) -> np.ndarray:
        """float[slots, 3]: the motion model at turn i with the recon at r (cached)."""
        if (r, i) not in self._rows:
            p = np.array([self.motion(x, r, i) for x in range(self.n)], dtype=np.float64)
            if p.shape != (self.n, self.game.num_actions) or not np.all(np.isfinite(p)) \
                    or np.any(p < 0) or np.any(p[:, MOVES].sum(axis=1) <= 0):
                raise IszError(f"motion must return {self.game.num_actions} finite numbers "
                               f">= 0 with some mass on hold/left/right, got {p!r}")
            self._rows[(r, i)] = robust_rows(p[:, MOVES] / p[:, MOVES].sum(axis=1, keepdims=True),
                                             self.mix, self.temperature)
        return self._rows[(r, i)]

    def _exact(self, t: int, obs, rpos) -> np.ndarray:
        """alpha float[T+1, slots] of the exact Markov filter; `IszError` for an impossible view."""
        alpha = np.zeros((self.turns + 1, self.n))
        if not forward(t, obs, rpos, self.mot, self.game.kparams, alpha):
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

    def filtered(self, view: View) -> bool:
        """Whether the filter answers ``view`` (the recon's, once the adversary is placed)."""
        return view.player != ADVERSARY and view.data[0] == 1

    def marginal(self, view: View) -> np.ndarray:
        """float64[slots]: P(adversary's current slot | recon view)."""
        if view.player == ADVERSARY:
            raise IszError(f"belief {self.name!r} marginal is for the recon (player 0); "
                           "the adversary knows its slot")
        return self._marginal(view) if self.filtered(view) else np.full(self.n, 1 / self.n)


def _draw(weights: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` indices drawn with probabilities proportional to ``weights``."""
    cum = np.cumsum(weights)
    return np.minimum(np.searchsorted(cum, rng.random(n) * cum[-1], side="right"),
                      len(weights) - 1)


class BayesBelief(_ReconBelief):
    """Exact Bayes filter over the adversary slot; worlds by FFBS (Markov) or by
    enumerated trajectory (policy)."""

    name = "bayes"
    KNOBS = {"motion": None, "policy": None, "max_trajectories": 500_000, "policy_mix": 0.0,
             "policy_temperature": 1.0}

    def __init__(self, game: Game, motion=None, policy=None, max_trajectories=500_000,
                 policy_mix=0.0, policy_temperature=1.0):
        self.max_trajectories = check_int("max_trajectories", max_trajectories, lo=1)
        super().__init__(game, motion, policy, policy_mix, policy_temperature)

    def reset(self) -> None:
        self._key, self._cache = None, None

    def _filter(self, view: View):
        """(t, alpha) under a Markov model; (t, start, slot, moves, w) under a policy."""
        if view.key != self._key:
            t, obs, rpos, acts = self._events(view)
            if self.policy is None:
                self._cache = (t, self._exact(t, obs, rpos))
            else:
                self._cache = (t, *enumerate_posterior(self.policy, t, obs, rpos, acts,
                                                       self.max_trajectories))
            self._key = view.key
        return self._cache

    def _marginal(self, view: View) -> np.ndarray:
        if self.policy is None:
            t, alpha = self._filter(view)
            return alpha[t].copy()
        _, _, slot, _, w = self._filter(view)
        return np.bincount(slot, weights=w, minlength=self.n)

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        if not self.filtered(view):
            return self._uniform.sample_many(view, n, rng)
        if self.policy is not None:
            t, start, slot, moves, w = self._filter(view)
            return self._write(view, t, _draw(w, n, rng), start, slot, moves)
        t, alpha = self._filter(view)
        start, slot = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
        moves = np.zeros((n, self.turns), dtype=np.int64)
        backward(t, alpha, self.mot, self.game.kparams, new_rng(seed_from(rng)),
                 start, slot, moves)
        return self._write(view, t, np.arange(n), start, slot, moves)


class ParticleBelief(_ReconBelief):
    """SIR particle filter over the adversary's trajectory (see module docstring)."""

    name = "particle"
    KNOBS = {"particles": 1000, "resample_threshold": 0.5, "motion": None, "policy": None,
             "seed": 0, "policy_mix": 0.0, "policy_temperature": 1.0}

    def __init__(self, game: Game, particles=1000, resample_threshold=0.5, motion=None,
                 policy=None, seed=0, policy_mix=0.0, policy_temperature=1.0):
        big_n = check_int("particles", particles, lo=1)
        thr = resample_threshold
        if isinstance(thr, bool) or not isinstance(thr, (int, float, np.integer, np.floating)) \
                or not 0.0 < thr <= 1.0:
            raise IszError(f"resample_threshold must be a number in (0, 1], got {thr!r}")
        super().__init__(game, motion, policy, policy_mix, policy_temperature)
        self.n_particles, self.threshold = big_n, float(thr)
        r = new_rng(check_int("seed", seed, lo=0))
        self._seeds = np.array([next_u64(r) for _ in range(self.turns)], dtype=np.uint64)
        # [resamples, depletions (full recoveries), readings weighed in]
        self.stats = np.zeros(3, dtype=np.int64)

    @property
    def ess(self) -> float:
        """Effective sample size of the current weights (N right after a resample)."""
        return float(1.0 / np.sum(self._w * self._w)) if self._done >= 0 else 0.0

    def reset(self) -> None:
        self._done, self._obs, self._rpos, self._acts = -1, None, None, None

    def _extends(self, d: int, t: int, obs, rpos, acts) -> bool:
        """Whether the particles after ``d`` turns are valid for the new view: they
        depend on the readings and recon slots of those turns (and, under a policy,
        on the recon's actions, which the adversary's view shows)."""
        if d < 0 or t < d:
            return False
        same = np.array_equal(obs[:d], self._obs[:d]) and np.array_equal(rpos[:d], self._rpos[:d])
        return same and (self.policy is None or np.array_equal(acts[:d], self._acts[:d]))

    def _advance(self, view: View) -> int:
        """Bring the particles to ``view`` (incrementally when it extends the last one)."""
        t, obs, rpos, acts = self._events(view)
        d = self._done
        if not self._extends(d, t, obs, rpos, acts):
            big_n, d = self.n_particles, 0
            self._slot = np.arange(big_n, dtype=np.int64) * self.n // big_n  # stratified start
            self._start = self._slot.copy()
            self._moves = np.zeros((big_n, self.turns), dtype=np.int64)
            self._w = np.full(big_n, 1.0 / big_n)
        while d < t:
            # under a policy, stop before each adversary turn: its moves need a policy batch
            end = t if self.policy is None else min(t, d + 1 - d % 2)
            bad = pf_run(d, end, obs, rpos, self.mot, self.game.kparams, self.threshold,
                         self._seeds, self._slot, self._start, self._moves, self._w,
                         self.stats)
            if bad >= 0:
                self._recover(bad, obs, rpos, acts)
                d = bad + 1
                continue
            d = end
            if d < t:  # an adversary turn under the policy
                probs, group = self.policy.rows(d, acts, self._start, self._moves)
                predict(new_rng(int(self._seeds[d])), probs, group, self.n, self._slot,
                        self._moves[:, d])
                d += 1
        self._done, self._obs, self._rpos, self._acts = t, obs, rpos, acts
        return t

    def _recover(self, bad: int, obs, rpos, acts) -> None:
        """Every particle contradicts reading ``bad``: redraw all from the exact
        uniform-motion (or Markov) posterior; under a policy that is a proposal,
        and each particle is weighted by its policy probability (the uniform one is
        the same for all)."""
        backward(bad + 1, self._exact(bad + 1, obs, rpos), self.mot, self.game.kparams,
                 new_rng(int(self._seeds[bad])), self._start, self._slot, self._moves)
        self._w[:] = 1.0 / self.n_particles
        if self.policy is not None:
            lw = self.policy.log_weight(bad + 1, acts, self._start, self._moves)
            self._w[:] = np.exp(lw - lw.max())
            self._w /= self._w.sum()
        self.stats[1] += 1

    def _marginal(self, view: View) -> np.ndarray:
        self._advance(view)
        return np.bincount(self._slot, weights=self._w, minlength=self.n)

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        if not self.filtered(view):
            return self._uniform.sample_many(view, n, rng)
        t = self._advance(view)
        return self._write(view, t, _draw(self._w, n, rng), self._start, self._slot,
                           self._moves)
