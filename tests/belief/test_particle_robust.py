"""Robust motion for the recon filters under a policy (knobs ``policy_mix``,
``policy_temperature``): the exact filter against brute force, particles against it,
the defaults bit for bit, the ends of the range, bad values."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import make_belief
from isz.belief.recon_policy import robust_rows
from isz.search.evaluator import EvaluatorPolicy
from tests.belief.test_particle import recon_views, tv
from tests.belief.test_particle_policy import SMALL, brute_force, sharp_net

HOLD, OBSERVE, LEFT, RIGHT = range(4)


@pytest.fixture(scope="module")
def game():
    return isz.make_game("recon", **SMALL)


@pytest.fixture(scope="module")
def net(game):
    return EvaluatorPolicy(sharp_net(game, seed=1))


def reference(policy, mix, temperature):
    """policy(view) -> float[4], written out independently of `robust_rows`: the moves'
    probabilities to the power 1/temperature, renormalised, blended with 1/3 by mix."""
    def robust(view):
        p = np.asarray(policy(view), dtype=np.float64)[[HOLD, LEFT, RIGHT]]
        p = p / p.sum()
        p = np.array([x ** (1.0 / temperature) for x in p])
        p = (1.0 - mix) * p / p.sum() + mix / 3.0
        out = np.zeros(4)
        out[[HOLD, LEFT, RIGHT]] = p
        return out
    return robust


def test_robust_rows():
    q = np.array([[0.7, 0.2, 0.1], [1.0, 0.0, 0.0]])
    assert robust_rows(q) is q  # both knobs off: the very same rows
    assert np.allclose(robust_rows(q, mix=1.0), 1 / 3)
    assert np.allclose(robust_rows(q, mix=0.3)[1], [0.8, 0.1, 0.1])
    hot = robust_rows(q, temperature=2.0)[0]
    assert np.allclose(hot, np.sqrt(q[0]) / np.sqrt(q[0]).sum())
    assert robust_rows(q, temperature=0.25)[0, 0] > 0.99  # sharper toward the argmax


@pytest.mark.parametrize("mix, temperature", [(0.3, 1.0), (0.0, 2.0), (0.2, 0.5)])
def test_exact_robust_filter_equals_brute_force(game, net, mix, temperature):
    ref = reference(net, mix, temperature)
    for state in recon_views(game, 3, seed=21, steps=(6, 14)):
        belief = make_belief("bayes", game, policy=net, policy_mix=mix,
                             policy_temperature=temperature)
        assert np.allclose(belief.marginal(state.view(0)), brute_force(game, state, ref),
                           atol=1e-9), str(state)


def test_particles_track_the_exact_robust_filter(game, net):
    """TV of particle vs exact marginals under a mixed, flattened network adversary,
    while that posterior is far from the raw network's (the knobs have teeth) and from
    the uniform walker's."""
    knobs = {"policy": net, "policy_mix": 0.4, "policy_temperature": 1.5}
    worst, gap, gap_uniform = 0.0, 0.0, 0.0
    for state in recon_views(game, 10, seed=13, steps=(6, 17)):
        view = state.view(0)
        exact = make_belief("bayes", game, **knobs).marginal(view)
        approx = make_belief("particle", game, particles=2000, **knobs).marginal(view)
        worst = max(worst, tv(approx, exact))
        gap = max(gap, tv(exact, make_belief("bayes", game, policy=net).marginal(view)))
        gap_uniform = max(gap_uniform, tv(exact, make_belief("bayes", game).marginal(view)))
    assert worst < 0.05
    assert gap > 0.1 and gap_uniform > 0.1


def test_defaults_are_the_raw_policy_bit_for_bit(game, net):
    for state in recon_views(game, 3, seed=22, steps=(8, 17)):
        view = state.view(0)
        plain = make_belief("particle", game, particles=300, policy=net)
        off = make_belief("particle", game, particles=300, policy=net, policy_mix=0.0,
                          policy_temperature=1.0)
        assert np.array_equal(plain.marginal(view), off.marginal(view))
        a, b = (f.sample_many(view, 50, np.random.default_rng(3)) for f in (plain, off))
        assert np.array_equal(a, b)


def test_full_mix_is_the_uniform_walker(game, net):
    for state in recon_views(game, 4, seed=23, steps=(6, 17)):
        view = state.view(0)
        uniform = make_belief("bayes", game).marginal(view)
        assert np.allclose(make_belief("bayes", game, policy=net, policy_mix=1.0).marginal(view),
                           uniform, atol=1e-12)
        # under the uniform walker itself the knobs change nothing
        assert np.array_equal(make_belief("bayes", game, policy_mix=0.5,
                                          policy_temperature=3.0).marginal(view), uniform)


@pytest.mark.parametrize("name", ["particle", "bayes"])
@pytest.mark.parametrize("knobs, word", [
    ({"policy_mix": 1.5}, "policy_mix.*1.5"), ({"policy_mix": -0.1}, "policy_mix.*-0.1"),
    ({"policy_mix": True}, "policy_mix.*True"), ({"policy_temperature": 0}, "temperature.*0"),
    ({"policy_temperature": -1.0}, "temperature.*-1.0"),
    ({"policy_temperature": float("nan")}, "temperature.*nan"),
    ({"policy_temperature": "2"}, "temperature.*'2'"),
])
def test_bad_robust_knobs(game, name, knobs, word):
    with pytest.raises(isz.IszError, match=word):
        make_belief(name, game, **knobs)
