"""research.decision_time's pool counter: each `replay` pool's draws are recorded (all
``candidates`` without a deadline, fewer than all once the deadline has passed), and an
agent without a `replay` belief gets none."""

from __future__ import annotations

import time
from types import SimpleNamespace

import numpy as np

import isz
from isz.belief import ReplayBelief, make_belief
from isz.search.evaluator import EvaluatorPolicy
from research.decision_time import count_pool_draws


class _Uniform:
    def __init__(self, game):
        self.num_players = game.num_players

    def evaluate(self, tensors, masks):
        p = masks / masks.sum(axis=1, keepdims=True)
        return p, np.zeros((len(tensors), self.num_players))


def test_pool_draws_are_counted(liars_dice):
    game = isz.make_game("liars_dice", dice=1, faces=3)
    belief = ReplayBelief(game, policy=EvaluatorPolicy(_Uniform(game)), candidates=96)
    draws = count_pool_draws(SimpleNamespace(belief=belief))
    s = game.new_initial_state()
    for a in (1, 2, 2, 4):
        s.apply_action(a)
    view = s.view(0)
    belief.weighed_pool(view, np.random.default_rng(0))
    belief.deadline = time.perf_counter() - 1.0  # passed: the first chunk only
    belief.weighed_pool(view, np.random.default_rng(1))
    assert draws == [96, 32]
    assert count_pool_draws(SimpleNamespace(belief=make_belief("uniform", game))) is None
    assert count_pool_draws(object()) is None
