"""`isz.load_planner` builds the agent a checkpoint's planner record names, old
records included; the record a training run writes is its planner's settings."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.agents import GuidedSOAgent, PUCTAgent
from isz.agents.planner import planner_settings
from isz.nn import ModelConfig, build_model, save_checkpoint
from isz.settings.agents import PUCT_ISMCTS
from isz.settings.planner_record import NOT_RECORDED, PLANNER_FROM_TRAINING, planner_record
from tests.recipes import alphazero_config

# what planner_knobs wrote before the agents split (no "agent" key)
OLD_RECORD = {"iterations": 32, "c_puct": 1.5, "fpu": 0.5, "tree": "mo", "belief": "voids",
              "belief_policy": "network", "final": "most_visits", "opponents": "puct",
              "value_view": "own", "mirror_eta": 2.0, "root_selection": "puct",
              "leaf_mix": 0.0, "expand_after": 1, "below_threshold": "playout"}


def _checkpoint(tmp_path, record, game="kuhn_poker"):
    game = isz.make_game(game)
    torch.manual_seed(0)
    model = build_model(game, ModelConfig(width=8, depth=1))
    return str(save_checkpoint(tmp_path / "k.pt", model=model, game=game,
                               model_cfg=ModelConfig(width=8, depth=1),
                               extra={"planner": record}))


def test_an_old_record_loads_as_puct_ismcts_with_its_settings(tmp_path):
    agent = isz.load_planner(_checkpoint(tmp_path, dict(OLD_RECORD), "tricks"), device="cpu")
    assert type(agent) is PUCTAgent and agent.iterations == 32
    assert agent.cfg.value_view == "own" and agent.knobs["belief"] == "voids"


def test_an_old_engine_so_ismcts_record_loads_as_guided_so_ismcts(tmp_path):
    record = {**OLD_RECORD, "engine": "so_ismcts", "c": 0.5, "value_mix": 0.25}
    agent = isz.load_planner(_checkpoint(tmp_path, record, "tricks"), device="cpu")
    assert type(agent) is GuidedSOAgent
    assert (agent.iterations, agent.c, agent.c_puct, agent.value_mix) == (32, 0.5, 1.5, 0.25)
    assert agent.knobs["belief"] == "voids"


def test_agent_override_picks_the_other_planner_with_what_carries_over(tmp_path):
    path = _checkpoint(tmp_path, {"agent": "puct_ismcts", **OLD_RECORD, "c_puct": 2.5,
                                  "belief": "uniform"})
    agent = isz.load_planner(path, device="cpu", agent="guided_so_ismcts", value_mix=0.5)
    assert type(agent) is GuidedSOAgent and agent.c_puct == 2.5 and agent.iterations == 32
    s = isz.make_game("kuhn_poker").new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    assert agent.act(s.view(0), np.random.default_rng(0)) in (0, 1)


@pytest.mark.parametrize("overrides,match", [
    ({"engine": "so_ismcts"}, r"engine='so_ismcts' is gone.*agent=guided_so_ismcts"),
    ({"agent": "so_ismcts"}, r"unknown planner agent 'so_ismcts'; allowed: guided_so"),
    ({"expand_after": 0}, r"expand_after must be in \[1, inf\]"),
    ({"value_mix": 0.5}, r"unknown knob\(s\) value_mix for agent 'puct_ismcts'"),
])
def test_bad_overrides_are_named(tmp_path, overrides, match):
    with pytest.raises(isz.IszError, match=match):
        isz.load_planner(_checkpoint(tmp_path, {**OLD_RECORD, "belief": "uniform"}),
                         device="cpu", **overrides)


def test_the_time_budget_override_drops_only_the_recorded_iterations():
    name, s = planner_settings({"agent": "puct_ismcts", "iterations": 32, "tree": "so"},
                               {"time_budget": 0.05})
    assert name == "puct_ismcts" and s == {"tree": "so", "time_budget": 0.05}
    _, s = planner_settings({"iterations": 32}, {"time_budget": 0.05, "iterations": 8})
    assert s == {"iterations": 8, "time_budget": 0.05}


def test_the_training_record_is_every_puct_setting_but_the_runtime_ones():
    cfg = alphazero_config()
    cfg.search.tree, cfg.search.target, cfg.search.planner_eta = "so", "mirror", 0.5
    cfg.search.root_selection = "uniform"
    cfg.belief.name, cfg.belief.knobs = "voids", {"shuffle": False}
    record = planner_record(cfg)
    assert record.pop("agent") == "puct_ismcts"
    assert set(record) == set(PUCT_ISMCTS.names()) - set(NOT_RECORDED)
    assert set(PLANNER_FROM_TRAINING) <= set(record)
    assert record["tree"] == "so" and record["final"] == "mirror"
    assert record["mirror_eta"] == 0.5 and record["iterations"] == cfg.search.simulations
    assert record["belief"] == {"name": "voids", "shuffle": False}
    PUCTAgent(isz.make_game("tricks"), **record)  # the agent takes it as it is
