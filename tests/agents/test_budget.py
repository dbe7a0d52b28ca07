"""A time budget does what it says: alone, that time with no hidden iteration cap;
with iterations too, whichever comes first, and the agent says which."""

from __future__ import annotations

import time

import numpy as np
import pytest
import torch

import isz
from isz.nn import ModelConfig, build_model, save_checkpoint

ROLLOUT_DEFAULT = 1000  # the iterations default a time budget used to be capped by


def _kuhn_view():
    s = isz.make_game("kuhn_poker").new_initial_state()
    s.apply_action(0)
    s.apply_action(2)
    return s.game, s.view(0)


def test_time_budget_alone_has_no_iteration_cap():
    """0.05 s means 0.05 s: kuhn's so_ismcts runs far more than the old cap of 1,000
    iterations in that time (a hidden cap stopped it at about 4 ms)."""
    game, view = _kuhn_view()
    agent = isz.make_agent("so_ismcts", game, time_budget=0.05)
    assert agent.iterations is None
    assert "0.05 s a decision (no iteration cap)" in repr(agent)
    agent.act(view, np.random.default_rng(0))  # compiled
    t0 = time.perf_counter()
    agent.act(view, np.random.default_rng(1))
    spent = time.perf_counter() - t0
    assert spent >= 0.045  # the old cap stopped it after about 4 ms
    assert agent.last_simulations != ROLLOUT_DEFAULT


@pytest.mark.parametrize("name", ["so_ismcts", "mo_ismcts", "pimc", "puct_ismcts",
                                  "guided_so_ismcts"])
def test_both_given_stop_at_whichever_comes_first(name):
    game, view = _kuhn_view()
    agent = isz.make_agent(name, game, time_budget=30.0, iterations=64)
    assert "30 s or 64 iterations a decision, whichever comes first" in agent.describe()
    agent.act(view, np.random.default_rng(1))  # compiled (a cold cache takes tens of s)
    t0 = time.perf_counter()
    agent.act(view, np.random.default_rng(0))
    assert time.perf_counter() - t0 < 30 and agent.last_simulations <= 64


def test_iterations_alone_and_none_without_a_time_budget():
    game, _ = _kuhn_view()
    assert "1000 iterations a decision" in repr(isz.make_agent("so_ismcts", game))
    with pytest.raises(isz.IszError, match="iterations=null needs a time_budget"):
        isz.make_agent("so_ismcts", game, iterations=None)


def _checkpoint(tmp_path, record):
    game = isz.make_game("kuhn_poker")
    torch.manual_seed(0)
    model = build_model(game, ModelConfig(width=8, depth=1))
    return str(save_checkpoint(tmp_path / "k.pt", model=model, game=game,
                               model_cfg=ModelConfig(width=8, depth=1),
                               extra={"planner": record}))


def test_load_planner_time_budget_ignores_the_recorded_simulations(tmp_path):
    path = _checkpoint(tmp_path, {"agent": "puct_ismcts", "iterations": 32, "c_puct": 2.0})
    game, view = _kuhn_view()
    recorded = isz.load_planner(path, device="cpu")
    assert recorded.iterations == 32 and recorded.time_budget is None
    recorded.act(view, np.random.default_rng(0))  # compiled
    assert recorded.last_simulations == 32
    timed = isz.load_planner(path, device="cpu", time_budget=0.2)
    assert timed.iterations is None and timed.cfg.c_puct == 2.0
    assert "no iteration cap" in repr(timed)
    timed.act(view, np.random.default_rng(1))  # compiled
    t0 = time.perf_counter()
    timed.act(view, np.random.default_rng(0))
    # it searched until the time was spent, not 32 simulations (a few ms): the number
    # it reaches in 0.2 s depends on the machine's load, the time spent does not
    assert time.perf_counter() - t0 >= 0.19
    both = isz.load_planner(path, device="cpu", time_budget=0.05, iterations=16)
    assert (both.iterations, both.time_budget) == (16, 0.05)
    assert "whichever comes first" in repr(both)
