"""Recon filters under a policy on the adversary's own view (the network's adversary):
adversary tensors, the exact enumeration against brute force, particles against it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.belief import make_belief
from isz.belief.recon_policy import _adversary_states, _adversary_tensors
from isz.games.base import State
from isz.nn.model import ModelConfig, build_model
from isz.search.evaluator import EvaluatorPolicy, make_search_belief
from tests.belief.test_particle import brute_force as particle_brute_force
from tests.belief.test_particle import recon_views, tv

HOLD, OBSERVE, LEFT, RIGHT = range(4)
SMALL = {"slots": 5, "turns": 11, "fuel": 5, "sensor": (0.9, 0.6, 0.3)}


@pytest.fixture(scope="module")
def game():
    return isz.make_game("recon", **SMALL)


def sharp_net(game, seed=0, scale=6.0):
    """An untrained network whose policy head is scaled up: far from uniform, and a
    function of the whole adversary view (start and every move), not of the slot alone."""
    torch.manual_seed(seed)
    model = build_model(game, ModelConfig(width=32, depth=1))
    with torch.no_grad():
        model.policy_head.weight.mul_(scale)
    return NetworkEvaluator(model, "cpu")


def start_and_time(view):
    """A plain policy(view) that depends on the adversary's start and the turn (not Markov)."""
    start, t = view.data[0], view.data[1]
    p = np.array([0.2, 0.0, 0.2, 0.2])
    p[LEFT if (start + t) % 3 else RIGHT] += 0.5
    return p


def brute_force(game, state, policy):
    """P(current slot) for the recon, adversary moves weighted by ``policy`` on its own
    view (`tests.belief.test_particle.brute_force`)."""
    return particle_brute_force(game, state, policy=policy)[0]


def test_adversary_tensors_are_the_adversary_views(game):
    for state in recon_views(game, 12, seed=11, steps=(3, 16)):
        s = state.data
        t = int(s[4])
        acts = np.where(np.arange(game.params["turns"]) % 2 == 0, s[6:6 + 11], 0)
        moves = np.where(np.arange(11) % 2 == 1, s[6:6 + 11], 0)[None]
        out = np.empty((1, game.state_size), dtype=np.int64)
        _adversary_states(t, acts, s[:1].copy(), moves, game.kparams, out)
        ten = np.empty((1, game.tensor_size), dtype=np.float32)
        _adversary_tensors(out, game.kparams, ten)
        assert np.array_equal(ten[0], state.view(1).tensor()), str(state)
        assert State(game, out[0]).view(1).key == state.view(1).key or s[5] == 1


@pytest.mark.parametrize("kind", ["plain", "network"])
def test_exact_enumeration_equals_brute_force(game, kind):
    policy = start_and_time if kind == "plain" else EvaluatorPolicy(sharp_net(game))
    for state in recon_views(game, 4, seed=12, steps=(6, 14)):
        belief = make_belief("bayes", game, policy=policy)
        assert np.allclose(belief.marginal(state.view(0)), brute_force(game, state, policy),
                           atol=1e-9), str(state)
        worlds = belief.sample_many(state.view(0), 20_000, np.random.default_rng(2))
        assert tv(np.bincount(worlds[:, 1], minlength=5) / 20_000,
                  belief.marginal(state.view(0))) < 0.02


def test_particles_track_the_exact_filter_under_a_network(game):
    """TV of particle vs exact marginals under the same network adversary, while that
    network's posterior is far from the uniform-motion one (the test has teeth)."""
    policy = EvaluatorPolicy(sharp_net(game, seed=1))
    worst, gap = 0.0, 0.0
    for state in recon_views(game, 10, seed=13, steps=(6, 17)):
        view = state.view(0)
        exact = make_belief("bayes", game, policy=policy).marginal(view)
        approx = make_belief("particle", game, particles=2000, policy=policy).marginal(view)
        worst = max(worst, tv(approx, exact))
        gap = max(gap, tv(exact, make_belief("bayes", game).marginal(view)))
    assert worst < 0.05
    assert gap > 0.2


class Counting:
    """An evaluator that counts its calls (uniform priors)."""

    def __init__(self):
        self.calls, self.rows = 0, 0

    def evaluate(self, tensors, masks):
        self.calls += 1
        self.rows += len(tensors)
        m = masks.astype(np.float32)
        return m / m.sum(axis=1, keepdims=True), np.zeros((len(m), 2), np.float32)


def test_one_batched_call_per_adversary_turn_then_cached(game):
    ev = Counting()
    belief = make_search_belief({"name": "particle", "particles": 500}, game, ev)
    assert belief.n_particles == 500 and belief.policy is not None
    state = recon_views(game, 1, seed=14, steps=(15, 17))[0]
    belief.marginal(state.view(0))
    assert ev.calls == int(state.data[4]) // 2  # one per adversary turn
    assert ev.rows <= 500 * ev.calls
    belief.reset()
    belief.marginal(state.view(0))  # the same prefixes again: answered from the cache
    assert ev.calls == int(state.data[4]) // 2
    uniform = make_search_belief("particle", game, ev, policy="uniform")
    assert uniform.policy is None


def test_uniform_policy_reproduces_the_uniform_filter(game):
    """A policy that is uniform over the moves gives the uniform-motion posterior."""
    ev = Counting()
    for state in recon_views(game, 4, seed=15):
        view = state.view(0)
        exact = make_belief("bayes", game).marginal(view)
        assert np.allclose(make_belief("bayes", game, policy=EvaluatorPolicy(ev))
                           .marginal(view), exact, atol=1e-12)
        assert tv(make_belief("particle", game, policy=EvaluatorPolicy(ev)).marginal(view),
                  exact) < 0.05


def test_depletion_under_a_policy_recovers_exactly(game):
    s = game.new_initial_state()
    for a in (1, OBSERVE, 2):  # adversary at 1, the recon at 0 detects it there
        s.apply_action(a)
    policy = EvaluatorPolicy(sharp_net(game))
    belief = make_belief("particle", game, particles=1, policy=policy)
    assert belief.marginal(s.view(0)).tolist() == [0, 1, 0, 0, 0]
    assert belief.stats[1] == 1


def test_bad_policy_knobs(game):
    with pytest.raises(isz.IszError, match="not both"):
        make_belief("particle", game, policy=start_and_time, motion=lambda x, r, i: np.ones(4))
    with pytest.raises(isz.IszError, match="callable"):
        make_belief("bayes", game, policy=3)
    big = isz.make_game("recon", slots=12, turns=16)
    state = recon_views(big, 1, seed=16, steps=(14, 17))[0]
    with pytest.raises(isz.IszError, match="max_trajectories=100"):
        make_belief("bayes", big, policy=start_and_time, max_trajectories=100) \
            .marginal(state.view(0))
    with pytest.raises(isz.IszError, match="belief must be a name"):
        make_search_belief({"particles": 3}, game, None)


def test_planner_with_the_network_filter_does_not_leak(game):
    ev = sharp_net(game)
    for state in recon_views(game, 3, seed=17, decision=True):
        view = state.view(0)
        twin = next(State(game, w.copy()) for w in make_belief("uniform", game).sample_many(
            view, 64, np.random.default_rng(0)) if not np.array_equal(w, state.data))
        acts = [isz.make_agent("puct_ismcts", game, evaluator=ev, iterations=24,
                               belief="particle").act(s.view(0), np.random.default_rng(4))
                for s in (state, twin)]
        assert acts[0] == acts[1] and acts[0] in view.legal_actions


def test_a_full_cache_still_answers_every_trajectory(game):
    """A call whose new rows overflow the cache clears it: the rows it had found there
    must still be returned (a 1,000-deal match once died on this with a KeyError)."""
    from isz.belief.recon_policy import PolicyMotion

    net = sharp_net(game)
    motion = PolicyMotion(game, EvaluatorPolicy(net), cache_size=6)
    acts = np.zeros(game.params["turns"], dtype=np.int64)
    moves = np.zeros((5, game.params["turns"]), dtype=np.int64)
    first, _ = motion.rows(3, acts, np.arange(5), moves)  # 5 trajectories cached
    moves[:, 1] = LEFT  # 5 more at the same turn, with the first 5: 10 > 6
    starts = np.concatenate([np.arange(5), np.arange(5)])
    both, group = motion.rows(3, acts, starts, np.concatenate([np.zeros_like(moves), moves]))
    assert both.shape == (10, 3) and len(group) == 10
    assert np.allclose(both[group[:5]], first)  # the old rows, answered before the clear
    fresh = PolicyMotion(game, EvaluatorPolicy(net)).rows(3, acts, starts, np.concatenate(
        [np.zeros_like(moves), moves]))[0]
    assert np.allclose(both, fresh)
