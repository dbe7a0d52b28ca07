"""The planner's ``common_worlds``: every root move searched in the same worlds, laid out
as self-play lays them out, also when a time budget draws them in chunks."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import Belief
from isz.search.evaluator import UniformEvaluator
from isz.selfplay import SelfPlayConfig, root_worlds

CHECK = 0


class Numbered(Belief):
    """Player 0 holds J or K (drawn), player 1 Q, after a check; counts the worlds drawn."""

    name = "numbered"

    def __init__(self, game):
        super().__init__(game)
        self.drawn = 0

    def sample_many(self, view, n, rng):
        out = []
        for _ in range(n):
            s = self.game.new_initial_state()
            for a in (2 * int(rng.integers(2)), 1, CHECK):  # J or K, then Q, a check
                s.apply_action(a)
            out.append(s.data)
        self.drawn += n
        return np.stack(out)


def _agent(common: bool, **knobs):
    game = isz.make_game("kuhn_poker")
    return isz.make_agent("puct_ismcts", game, evaluator=UniformEvaluator(2),
                          belief=Numbered(game), root_selection="uniform", final="mirror",
                          opponents="evaluate", common_worlds=common, **knobs)


def _view(game):
    s = game.new_initial_state()
    for a in (0, 1, CHECK):
        s.apply_action(a)
    return s.view(1)


def test_planner_lays_worlds_out_as_self_play_does():
    agent = _agent(True, iterations=33)
    view = _view(agent.game)
    mine = agent._worlds(view, 0, 33, np.random.default_rng(5))
    cfg = SelfPlayConfig(simulations=33, common_worlds=True, target="mirror")
    rng = np.random.default_rng(5)
    theirs = root_worlds(cfg, view, lambda n: agent.belief.sample_many(view, n, rng))
    np.testing.assert_array_equal(mine, theirs)
    assert agent.belief.drawn == 2 * 17  # 1 + 16 distinct worlds each


def test_worlds_drawn_in_chunks_keep_the_layout():
    agent = _agent(True, iterations=64)
    view = _view(agent.game)
    whole = agent._worlds(view, 0, 64, np.random.default_rng(1))
    parts = np.concatenate([agent._worlds(view, k, n, rng) for rng in
                            [np.random.default_rng(1)] for k, n in ((0, 7), (7, 30),
                                                                    (37, 27))])
    np.testing.assert_array_equal(whole, parts)


def _gaps(common: bool, seeds: int = 300) -> np.ndarray:
    """The planner's log-odds of bet over check (its mirror policy), per search seed."""
    agent = _agent(common, iterations=33)
    view = _view(agent.game)
    pis = np.array([agent.policy(view, np.random.default_rng(s)) for s in range(seeds)])
    return np.log(pis[:, 1] / pis[:, 0])


def test_planner_common_worlds_cut_the_noise_of_its_policy():
    free, paired = _gaps(False), _gaps(True)
    assert paired.std() < 0.8 * free.std()
    se = np.hypot(free.std(), paired.std()) / np.sqrt(len(free))
    assert abs(paired.mean() - free.mean()) < 4 * se


def test_common_worlds_needs_the_uniform_root_and_no_world_cap():
    game = isz.make_game("kuhn_poker")
    with pytest.raises(isz.IszError, match="common_worlds=true needs root_selection=uniform"):
        isz.make_agent("puct_ismcts", game, common_worlds=True)
    with pytest.raises(isz.IszError, match="common_worlds=true needs worlds=null"):
        _agent(True, worlds=8)


def test_training_records_common_worlds_in_the_planner():
    from isz.settings.planner_record import planner_record
    from isz.training.config import TrainConfig

    cfg = TrainConfig()
    cfg.selfplay.teacher = "none"  # the classic recipe: puct_ismcts is the planner
    assert planner_record(cfg)["common_worlds"] is False
    cfg.search.common_worlds, cfg.search.root_selection = True, "uniform"
    cfg.search.target = "mirror"
    record = planner_record(cfg)
    assert record["common_worlds"] is True and record["final"] == "mirror"
