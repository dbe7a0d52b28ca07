"""The default recipe's teacher (the network's planner on ``sir`` worlds, the pools of
all slots weighed in one call; with the values of its root's moves as a generation check
hands them on) never reads hidden cards: twin states that share the acting seat's view
give the same training targets and the same move."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.belief import SIRBelief, VoidsBelief
from isz.nn import ModelConfig, build_model
from isz.search.evaluator import make_search_belief
from isz.selfplay import SelfPlayConfig
from isz.selfplay.selfplay import SelfPlayStats, _Slot, _teach_all
from tests.belief.tricks_reference import after_decisions


def _teach(game, ev, cfg, states, seed: int) -> list:
    """One teacher move in one lockstep round over ``states`` (a slot each); per slot:
    its recorded row (tensor, policy target, root value) and the actor's view after its
    move (the same view after the same move)."""
    slots = []
    for s in states:
        slot = _Slot(game, [make_search_belief(cfg.belief, game, ev) for _ in range(2)])
        slot.state = s.clone()
        slots.append(slot)
    actors = [s.state.current_player() for s in slots]
    _teach_all(game, cfg, slots, np.random.default_rng(seed), ev, SelfPlayStats())
    out = []
    for s, p in zip(slots, actors, strict=True):
        r = s.record.players.index(p)  # the actor's row (other rows: other seats' views)
        out.append((s.record.tensors[r], s.record.policies[r], s.record.root_values[r],
                    s.state.view(p).key))
    return out


@pytest.mark.parametrize("value_mix", [0.0, 0.25])
def test_twin_states_give_the_same_targets_and_move(value_mix):
    game = isz.make_game("tricks")
    torch.manual_seed(0)
    ev = NetworkEvaluator(build_model(game, ModelConfig(width=16, depth=1)), "cpu")
    cfg = SelfPlayConfig(parallel_games=3, teacher="planner", teacher_iterations=200,
                         belief="auto",  # the run's default: sir here
                         teacher_value_mix=value_mix)
    checked = 0
    for seed, steps in [(0, 2), (1, 3), (2, 4), (3, 3), (4, 2)]:
        state = after_decisions(game, steps, np.random.default_rng(seed))
        p = state.current_player()
        twin = VoidsBelief(game).sample(state.view(p), np.random.default_rng(seed))
        assert twin.view(p).key == state.view(p).key
        if np.array_equal(twin.data, state.data):
            continue  # the view pins every card: no twin to tell apart
        belief = make_search_belief(cfg.belief, game, ev)
        assert isinstance(belief, SIRBelief) and belief.weighs(state.view(p))
        # the round also holds an unrelated slot, so the pools are weighed together
        other = after_decisions(game, 3, np.random.default_rng(seed + 10))
        got = [_teach(game, ev, cfg, [s, other], seed)[0] for s in (state, twin)]
        np.testing.assert_array_equal(got[0][0], got[1][0])
        np.testing.assert_array_equal(got[0][1], got[1][1])
        assert got[0][2] == got[1][2] and got[0][3] == got[1][3]
        checked += 1
    assert checked >= 3
