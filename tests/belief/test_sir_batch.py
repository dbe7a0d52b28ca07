"""`weigh_pools`: many ``sir`` pools from one policy call, each the pool its belief
would have weighed alone from the same draws."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.belief import SIRBelief, VoidsBelief
from isz.belief.sir_batch import weigh_pools
from isz.nn import ModelConfig, build_model
from isz.search.evaluator import EvaluatorPolicy


class Counting:
    """An `EvaluatorPolicy` that counts its calls; ``parts=False`` hides ``many_parts``."""

    def __init__(self, policy, parts: bool = True):
        self.policy, self.calls = policy, 0
        if parts:
            self.many_parts = self._parts

    def many(self, rows, masks):
        self.calls += 1
        return self.policy.many(rows, masks)

    def _parts(self, *args):
        self.calls += 1
        return self.policy.many_parts(*args)


def _views(game, n: int, seed: int) -> list:
    """``n`` views of the acting seat, each after at least one play of the other."""
    rng, out = np.random.default_rng(seed), []
    while len(out) < n:
        state = game.new_initial_state()
        while not state.is_terminal():
            p = state.current_player()
            if p < 0:
                state.apply_action(state.sample_chance(rng))
                continue
            if len(state.view(p).data) > 8 and rng.random() < 0.5:
                out.append(state.view(p))
                break
            acts = state.legal_actions()
            state.apply_action(acts[rng.integers(len(acts))])
    return out


@pytest.mark.parametrize("parts", [True, False])
def test_one_call_gives_each_belief_its_own_pool(parts):
    game = isz.make_game("tricks")
    torch.manual_seed(0)
    net = NetworkEvaluator(build_model(game, ModelConfig(width=32, depth=1)), "cpu")
    policy = Counting(EvaluatorPolicy(net), parts)
    views = _views(game, 6, seed=1)
    beliefs = [SIRBelief(game, policy=policy) for _ in views]
    assert all(b.weighs(v) for b, v in zip(beliefs, views, strict=True))
    pairs = [*zip(beliefs, views, strict=True), (VoidsBelief(game), views[0])]
    assert weigh_pools(pairs, np.random.default_rng(3)) == len(views)
    assert policy.calls == 1
    rng = np.random.default_rng(3)  # the same draws, one belief at a time
    for b, v in zip(beliefs, views, strict=True):
        alone = SIRBelief(game, policy=EvaluatorPolicy(net))
        worlds, counts = alone.draw_candidates(v, rng)
        p = alone.resampling_law(counts, alone.log_weights(
            worlds, alone.decision_templates(v, worlds[0])))
        np.testing.assert_array_equal(b._pool[1], worlds)
        np.testing.assert_allclose(b._pool[2], p, rtol=1e-4)
        assert b.has_pool(v)
    assert weigh_pools(pairs, np.random.default_rng(3)) == 0  # ready: nothing to weigh
    assert policy.calls == 1


def test_views_with_nothing_to_weigh_are_left_alone():
    game = isz.make_game("tricks")
    state = game.new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.sample_chance(np.random.default_rng(0)))
    view = state.view(state.current_player())  # nobody has played yet
    policy = Counting(EvaluatorPolicy(NetworkEvaluator(
        build_model(game, ModelConfig(width=8, depth=1)), "cpu")))
    b = SIRBelief(game, policy=policy)
    assert weigh_pools([(b, view), (SIRBelief(game), view)], np.random.default_rng(0)) == 0
    assert policy.calls == 0 and not b.has_pool(view)
