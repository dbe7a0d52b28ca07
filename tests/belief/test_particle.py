"""Recon filters: Bayes against brute force over trajectories, particles against Bayes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import isz
from isz.belief import BayesBelief, ParticleBelief, UniformBelief, make_belief
from isz.belief.diagnostics import true_state_probability
from isz.games.base import State
from tests.conftest import random_history
from tests.games.test_recon import history

HOLD, OBSERVE, LEFT, RIGHT = range(4)


@pytest.fixture(scope="module")
def game():
    return isz.make_game("recon")


def shy(slot, recon_slot, turn):
    """A non-uniform motion model: move away from the recon, a little more late in the game."""
    n = 8
    away = RIGHT if (slot - recon_slot) % n <= n // 2 else LEFT
    p = np.array([0.3, 0.0, 0.2, 0.2])
    p[away] += 0.3 + 0.02 * turn
    return p


def recon_views(game, count, seed, steps=(4, 17), decision=False):
    """States of seeded random games (the recon to move if ``decision``), at least a
    third of them with a detection and some with a miss."""
    rng, out, detections = np.random.default_rng(seed), [], 0
    while len(out) < count:
        s = random_history(game, rng, int(rng.integers(*steps)))
        hit = bool((s.data[6 + game.params["turns"]:] > 0).any())
        if s.data[0] < 0 or (not hit and count - len(out) <= count // 3 - detections) \
                or (decision and s.current_player() != 0):
            continue
        detections += hit
        out.append(s)
    assert detections >= count // 3
    assert count < 3 or any((s.data[6 + game.params["turns"]:] == 0).any() for s in out)
    return out


def brute_force(game, state, motion=None, policy=None):
    """P(current slot), P(start slot) of the adversary for the recon, by enumerating every
    start and move sequence and replaying it through the checked `State` API (chance
    probabilities of the recorded readings = the sensor likelihood). The adversary's
    moves are weighed by ``motion(slot, recon_slot, turn)``, else by ``policy`` on its own
    view, else uniformly."""
    s, turns, n = state.data, game.params["turns"], game.params["slots"]
    t = int(s[4])
    adv_turns = [i for i in range(t) if i % 2 == 1]
    cur, start = np.zeros(n), np.zeros(n)
    for x0 in range(n):
        for moves in itertools.product((HOLD, LEFT, RIGHT), repeat=len(adv_turns)):
            w, st, mv = 1.0 / n, game.new_initial_state().child(x0), iter(moves)
            for i in range(t):
                if i % 2 == 1:
                    a = next(mv)
                    p = _move_probs(st, i, motion, policy)
                    w *= p[a] / p[[HOLD, LEFT, RIGHT]].sum()
                else:
                    a = int(s[6 + i])
                st.apply_action(a)
                o = int(s[6 + turns + i])
                if o >= 0:
                    w *= dict(st.chance_outcomes()).get(o, 0.0)
                    if w == 0.0:
                        break
                    st.apply_action(o)
            if w > 0.0:
                cur[st.data[1]] += w
                start[x0] += w
    return cur / cur.sum(), start / start.sum()


def _move_probs(st, turn, motion, policy):
    if motion is not None:
        return motion(int(st.data[1]), int(st.data[2]), turn)
    if policy is not None:
        return np.asarray(policy(st.view(1)), dtype=np.float64)
    return np.ones(4) / 3


def tv(p, q):
    return 0.5 * float(np.abs(np.asarray(p) - np.asarray(q)).sum())


@pytest.mark.parametrize("motion", [None, shy], ids=["uniform", "shy"])
def test_bayes_equals_brute_force(game, motion):
    for state in recon_views(game, 4, seed=1, steps=(6, 12)):
        cur, start = brute_force(game, state, motion)
        belief = make_belief("bayes", game, **({"motion": motion} if motion else {}))
        assert np.allclose(belief.marginal(state.view(0)), cur, atol=1e-12), str(state)
        # FFBS: whole trajectories from the exact posterior (check both of their ends)
        worlds = belief.sample_many(state.view(0), 20_000, np.random.default_rng(2))
        assert tv(np.bincount(worlds[:, 1], minlength=8) / 20_000, cur) < 0.02
        assert tv(np.bincount(worlds[:, 0], minlength=8) / 20_000, start) < 0.02


@pytest.mark.parametrize("motion", [None, shy], ids=["uniform", "shy"])
def test_particles_track_bayes(game, motion):
    knobs = {"motion": motion} if motion else {}
    worst = 0.0
    for state in recon_views(game, 8, seed=3):
        view = state.view(0)
        exact = make_belief("bayes", game, **knobs).marginal(view)
        approx = make_belief("particle", game, particles=1000, **knobs).marginal(view)
        worst = max(worst, tv(approx, exact))
    assert worst < 0.05


def test_particle_samples_follow_its_marginal(game):
    state = recon_views(game, 1, seed=4, steps=(12, 17))[0]
    belief = ParticleBelief(game)
    worlds = belief.sample_many(state.view(0), 20_000, np.random.default_rng(0))
    assert tv(np.bincount(worlds[:, 1], minlength=8) / 20_000, belief.marginal(state.view(0))) \
        < 0.02


def test_incremental_equals_restart(game):
    """Fed view after view of one game, the filter ends where a fresh one ends; a view
    that does not extend the last one restarts it cleanly."""
    states = recon_views(game, 3, seed=5, steps=(15, 17))
    belief = ParticleBelief(game, particles=300, resample_threshold=0.9)
    replay = game.new_initial_state()
    for a in history(game, states[0].data):
        replay.apply_action(a)
        if replay.data[0] >= 0:
            got = belief.marginal(replay.view(0))
            fresh = ParticleBelief(game, particles=300, resample_threshold=0.9)
            assert np.array_equal(got, fresh.marginal(replay.view(0)))
    assert belief.stats[0] > 0
    for other in states[1:]:  # another game, without reset(): not an extension
        fresh = ParticleBelief(game, particles=300, resample_threshold=0.9)
        assert np.array_equal(belief.marginal(other.view(0)), fresh.marginal(other.view(0)))


def test_depletion_recovers_from_the_exact_posterior(game):
    s = game.new_initial_state()
    for a in (1, OBSERVE, 2):  # adversary at 1, recon at 0 detects it at slot 1
        s.apply_action(a)
    belief = ParticleBelief(game, particles=1)  # its one particle starts at slot 0
    assert belief.marginal(s.view(0)).tolist() == [0, 1, 0, 0, 0, 0, 0, 0]
    assert belief.stats[1] == 1


@pytest.mark.parametrize("name", ["particle", "bayes"])
def test_a_pending_reading_is_not_used(game, name):
    s = game.new_initial_state()
    for a in (1, OBSERVE):  # the sensor has not answered yet
        s.apply_action(a)
    belief = make_belief(name, game)
    assert np.allclose(belief.marginal(s.view(0)), 1 / 8)
    for w in belief.sample_many(s.view(0), 50, np.random.default_rng(0)):
        assert w[5] == 1 and State(game, w).view(0).key == s.view(0).key


@pytest.mark.parametrize("name", ["particle", "bayes"])
def test_every_sample_is_a_possible_history_with_the_view_key(game, name):
    belief = make_belief(name, game)
    for state in recon_views(game, 10, seed=6, steps=(1, 17)):
        for player in range(2):
            view = state.view(player)
            for w in belief.sample_many(view, 40, np.random.default_rng(1)):
                replay = game.new_initial_state()
                for a in history(game, w):  # zero-probability readings would raise here
                    replay.apply_action(a)
                assert np.array_equal(replay.data, w)
                assert State(game, w).view(player).key == view.key


def test_adversary_falls_back_to_uniform(game):
    state = recon_views(game, 1, seed=7)[0]
    view = state.view(1)
    a = ParticleBelief(game).sample_many(view, 20, np.random.default_rng(3))
    b = UniformBelief(game).sample_many(view, 20, np.random.default_rng(3))
    assert np.array_equal(a, b)
    with pytest.raises(isz.IszError, match="recon"):
        ParticleBelief(game).marginal(view)


@pytest.mark.parametrize("name, knobs, word", [
    ("particle", {"particles": 0}, "0"), ("particle", {"particles": -5}, "-5"),
    ("particle", {"resample_threshold": 0.0}, "0.0"),
    ("particle", {"resample_threshold": 1.5}, "1.5"), ("bayes", {"motion": 3}, "callable"),
    ("bayes", {"particles": 10}, "motion"),
])
def test_bad_knobs(game, name, knobs, word):
    with pytest.raises(isz.IszError, match=word):
        make_belief(name, game, **knobs)


@pytest.mark.parametrize("name", ["particle", "bayes"])
def test_unsupported_game(name):
    with pytest.raises(isz.IszError, match="kuhn_poker.*supported: recon"):
        make_belief(name, isz.make_game("kuhn_poker"))


@pytest.mark.parametrize("name", ["particle", "bayes"])
def test_agent_does_not_leak(game, name):
    for state in recon_views(game, 4, seed=8, decision=True):
        view = state.view(0)
        twin = next(State(game, w.copy()) for w in UniformBelief(game).sample_many(
            view, 64, np.random.default_rng(0)) if not np.array_equal(w, state.data))
        acts = [isz.make_agent("so_ismcts", game, belief=name, iterations=200)
                .act(s.view(0), np.random.default_rng(4)) for s in (state, twin)]
        assert acts[0] == acts[1] and acts[0] in view.legal_actions


def test_true_state_probability_uses_the_marginal(game):
    state = recon_views(game, 1, seed=9)[0]
    belief = BayesBelief(game)
    exact = true_state_probability(belief, state.view(0), state)
    assert exact == belief.marginal(state.view(0))[state.data[1]] > 0
    sampled = true_state_probability(UniformBelief(game), state.view(0), state, samples=20_000)
    assert abs(sampled - exact) < 0.02  # the game's sampler is the same uniform-motion model
