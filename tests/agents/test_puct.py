"""PUCT-ISMCTS: the network-guided planner decides from views only, batches, loads."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.belief import UniformBelief
from isz.games.base import State
from isz.nn import ModelConfig, build_model, save_checkpoint
from isz.search.evaluator import UniformEvaluator
from isz.search.puct_driver import PUCTBatch, PUCTConfig
from tests.conftest import random_decision


def _net_agent(game, seed=0, agent="puct_ismcts", **knobs):
    torch.manual_seed(seed)
    model = build_model(game, ModelConfig(width=16, depth=1))
    return isz.make_agent(agent, game, evaluator=NetworkEvaluator(model, "cpu"), **knobs)


@pytest.mark.parametrize("tree", ["mo", "so"])
def test_rollout_puct_avoids_the_coin_guess_trap(tree):
    game = isz.make_game("coin_guess")
    agent = isz.make_agent("puct_ismcts", game, iterations=400, tree=tree)
    rng = np.random.default_rng(3)
    safe = 0
    for _ in range(40):
        s = game.new_initial_state()
        s.apply_action(int(rng.integers(2)))
        safe += agent.act(s.view(0), rng) == 0
    assert safe >= 38


SEARCH_BELOW = {"below_threshold": "search", "expand_after": 3}


PLANNER_GAMES = ["tricks", "kuhn_poker", "leduc_poker", "recon", "oh_hell"]
PLANNER_VARIANTS = [
    ("puct_ismcts", {"tree": "mo"}), ("puct_ismcts", {"tree": "so"}),
    ("puct_ismcts", {"tree": "mo", "opponents": "prior"}),
    ("puct_ismcts", {"tree": "mo", **SEARCH_BELOW}),
    ("puct_ismcts", {"tree": "so", **SEARCH_BELOW}),
    ("guided_so_ismcts", {}), ("guided_so_ismcts", {"value_mix": 0.5})]


def _planner_cases():
    """Every variant × game; the default run keeps a covering set of them: each variant on
    two games and each game under two or three variants (variant i on games i and i + 2,
    mod 5). Each pair compiles its own search kernel (~5 s cold); the rest run with
    ``-m slow``."""
    for i, (agent, extra) in enumerate(PLANNER_VARIANTS):
        for j, name in enumerate(PLANNER_GAMES):
            covering = j in (i % 5, (i + 2) % 5)
            yield pytest.param(name, agent, extra, id=f"{name}-{agent}-v{i}",
                               marks=() if covering else pytest.mark.slow)


@pytest.mark.parametrize("name,agent,extra", list(_planner_cases()))
def test_network_planner_same_view_same_action(name, agent, extra):
    """Hidden cards differ, the view is one: the network-guided planners must not tell."""
    game = isz.make_game(name)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = random_decision(game, rng, 3 + 7 * seed)
        p = state.current_player()
        view = state.view(p)
        twins = [State(game, w.copy()) for w in UniformBelief(game).sample_many(view, 8, rng)
                 if not np.array_equal(w, state.data)]
        twin = twins[0] if twins else state.clone()
        assert twin.view(p).key == view.key
        knobs = {"iterations": 24, **extra}
        a1 = _net_agent(game, agent=agent, **knobs).act(state.view(p),
                                                        np.random.default_rng(seed))
        a2 = _net_agent(game, agent=agent, **knobs).act(twin.view(p),
                                                        np.random.default_rng(seed))
        assert a1 == a2


def test_lockstep_batch_visits_and_fill():
    game = isz.make_game("tricks")
    rng = np.random.default_rng(0)
    views = [random_decision(game, rng, 8) for _ in range(16)]
    views = [s.view(s.current_player()) for s in views]
    worlds = np.stack([UniformBelief(game).sample_many(v, 20, rng) for v in views])
    batch = PUCTBatch(game, PUCTConfig(), worlds, [v.player for v in views], seed=1)
    batch.run(UniformEvaluator(game.num_players), 20)
    for b in range(16):
        visits = sum(n for n, _ in batch.root_stats(b).values())
        assert visits == 19  # the first simulation expands the root
        assert set(batch.root_stats(b)) <= set(views[b].legal_actions)
    assert batch.leaf_batches[0] == 16  # every search evaluates its root in one batch
    assert max(batch.leaf_batches) <= 16


def test_load_planner_round_trip(tmp_path):
    game = isz.make_game("kuhn_poker")
    model = build_model(game, ModelConfig(width=8, depth=1))
    path = save_checkpoint(tmp_path / "k.pt", model=model, game=game,
                           model_cfg=ModelConfig(width=8, depth=1))
    planner = isz.load_planner(str(path), iterations=16)
    assert planner.game == game
    s = game.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    assert planner.act(s.view(0), np.random.default_rng(0)) in (0, 1)
    with pytest.raises(isz.IszError, match="made for game"):
        isz.load_planner(str(path), game=isz.make_game("leduc_poker"))


def test_bad_puct_knobs():
    game = isz.make_game("kuhn_poker")
    with pytest.raises(isz.IszError, match="tree"):
        isz.make_agent("puct_ismcts", game, tree="forest")
    with pytest.raises(isz.IszError, match="c_puct"):
        isz.make_agent("puct_ismcts", game, c_puct=-1)
    with pytest.raises(isz.IszError, match="root_selection"):
        isz.make_agent("puct_ismcts", game, root_selection="random")
    with pytest.raises(isz.IszError, match="root_selection=uniform needs final=mirror"):
        isz.make_agent("puct_ismcts", game, root_selection="uniform")
    agent = isz.make_agent("puct_ismcts", game, root_selection="uniform", final="mirror")
    assert agent.cfg.root_selection == "uniform"
