"""Value targets mixed with the search's root value (``value_target_q``) and
self-play with random-playout leaves (``selfplay.rollout_iterations``)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

import isz
from isz import IszError
from isz.belief import make_belief
from isz.nn import ModelConfig, build_model
from isz.search.evaluator import UniformEvaluator
from isz.search.puct_driver import PUCTBatch, PUCTConfig
from isz.selfplay import SelfPlayConfig, play
from isz.selfplay.records import GameRecord
from isz.training.config import validate
from isz.training.learner import loss_terms, value_diagnostics
from isz.training.loop import _selfplay_cfg, selfplay_cfg_at
from tests.recipes import alphazero_config


def test_all_rows_take_the_seats_next_decision_value():
    r = _record()
    t, m = np.zeros(3, np.float32), np.ones(2, bool)
    r.add(t, m, np.zeros(2, np.float32), 0)  # seat 0 after its last decision: keeps z
    r.returns = np.array([1.0, -1.0], np.float32)
    pos = r.positions(0.5, "all")
    want = np.array([[0.75, -1], [1, -0.625], [1, -0.625], [1, -1]], np.float32)
    np.testing.assert_allclose(pos.returns, want, rtol=1e-6)
    np.testing.assert_array_equal(r.positions(0.0, "all").returns, [[1, -1]] * 4)


def _record() -> GameRecord:
    r = GameRecord()
    t, m, p = np.zeros(3, np.float32), np.ones(2, bool), np.array([1.0, 0.0], np.float32)
    r.add(t, m, p, 0, 0.5)  # seat 0 decides, its search says 0.5
    r.add(t, m, np.zeros(2, np.float32), 1)  # value-only row of seat 1
    r.add(t, m, p, 1, -0.25)
    r.returns = np.array([1.0, -1.0], np.float32)
    return r


def test_zero_mix_keeps_the_final_return():
    pos = _record().positions(0.0)
    np.testing.assert_array_equal(pos.returns, [[1, -1]] * 3)


@pytest.mark.parametrize("lam", [0.25, 1.0])
def test_mix_changes_only_the_actors_entry_of_decision_rows(lam):
    pos = _record().positions(lam)
    want = np.array([[(1 - lam) * 1 + lam * 0.5, -1], [1, -1],
                     [1, (1 - lam) * -1 + lam * -0.25]], np.float32)
    np.testing.assert_allclose(pos.returns, want, rtol=1e-6)


def _kuhn(lam: float, rollouts: bool = False, seed: int = 0):
    game = isz.make_game("kuhn_poker")
    cfg = SelfPlayConfig(parallel_games=4, simulations=16, value_target_q=lam,
                         puct=PUCTConfig(rollouts=rollouts))
    return play(game, UniformEvaluator(2), cfg, 12, np.random.default_rng(seed))


@pytest.mark.parametrize("rollouts", [False, True])
def test_root_value_targets_in_self_play(rollouts):
    (z, _), (q, stats) = _kuhn(0.0, rollouts), _kuhn(1.0, rollouts)
    np.testing.assert_array_equal(stats.final_returns, z.returns)  # z kept for diagnostics
    # the knob changes the targets, never the games
    for f in ("tensors", "masks", "policies", "players"):
        np.testing.assert_array_equal(getattr(z, f), getattr(q, f))
    rows = np.flatnonzero(z.policies.sum(axis=1) > 0)
    actor = z.players[rows]
    other = np.ones_like(z.returns, dtype=bool)
    other[rows, actor] = False
    np.testing.assert_array_equal(q.returns[other], z.returns[other])
    qa = q.returns[rows, actor]
    assert np.all(np.abs(qa) <= 1) and np.any(qa != z.returns[rows, actor])
    assert len(np.unique(np.round(qa, 4))) > 3  # per decision, not per game


def test_root_value_is_the_visit_weighted_mean():
    game = isz.make_game("kuhn_poker")
    st = game.new_initial_state()
    while st.is_chance_node():
        st.apply_action(st.sample_chance(np.random.default_rng(3)))
    view = st.view(st.current_player())
    worlds = make_belief("uniform", game).sample_many(view, 40, np.random.default_rng(4))
    batch = PUCTBatch(game, PUCTConfig(rollouts=True), worlds[None], [view.player], 5)
    batch.run(None, 40)
    stats = batch.root_stats(0)
    n = np.array([v[0] for v in stats.values()], float)
    s = np.array([v[1] for v in stats.values()])
    assert batch.root_value(0) == pytest.approx(float((n * (2 * s - 1)).sum() / n.sum()))


_FRACTION = r"must be a number in \[0, 1\]"


@pytest.mark.parametrize("section, key, bad, words", [
    *[("selfplay", "value_target_q", b, "selfplay.value_target_q " + _FRACTION)
      for b in (-0.1, 1.5, "half", True)],
    ("selfplay", "value_target_q_rows", "some",
     "selfplay.value_target_q_rows.*some.*decisions.*all"),
    ("selfplay", "rollout_iterations", -1, "selfplay.rollout_iterations"),
    *[("trainer", "value_other_weight", b, "trainer.value_other_weight " + _FRACTION)
      for b in (-1, 2.0, "x")],
])
def test_bad_value_target_knobs_are_named(section, key, bad, words):
    cfg = alphazero_config()
    setattr(getattr(cfg, section), key, bad)
    with pytest.raises(IszError, match=words):
        validate(cfg)


def test_rollout_iterations_come_first():
    cfg = alphazero_config()
    cfg.selfplay.rollout_iterations = 2
    cfg.selfplay.value_target_q = 0.5
    sp = _selfplay_cfg(cfg)
    assert sp.value_target_q == 0.5
    got = [selfplay_cfg_at(cfg, sp, it).puct.rollouts for it in (1, 2, 3)]
    assert got == [True, True, False]
    assert dataclasses.replace(selfplay_cfg_at(cfg, sp, 3), mirror_alpha=0.0) == \
        dataclasses.replace(sp, mirror_alpha=0.0)


def test_value_diagnostics_against_z_and_the_target():
    torch.manual_seed(0)
    game = isz.make_game("kuhn_poker")
    model = build_model(game, ModelConfig(width=16, depth=1))
    pos, stats = _kuhn(0.5)
    d = value_diagnostics(model, pos, stats.final_returns, torch.device("cpu"), batch=7)
    with torch.no_grad():
        v = model(torch.from_numpy(pos.tensors), torch.from_numpy(pos.masks))[1].numpy()
    rows = np.arange(len(pos))
    own, z = v[rows, pos.players], stats.final_returns[rows, pos.players]
    assert d["value/fresh_mse_z"] == pytest.approx(float(np.mean((own - z) ** 2)), rel=1e-5)
    assert d["value/fresh_mse_zero"] == pytest.approx(float(np.mean(z ** 2)))
    assert 0.25 <= d["value/fresh_mse_zero"] <= 1.0  # Kuhn returns: +-0.5 or +-1
    t = pos.returns[rows, pos.players]
    assert d["value/fresh_mse_target"] == pytest.approx(float(np.mean((own - t) ** 2)),
                                                        rel=1e-5)
    assert d["value/fresh_mse_target"] != pytest.approx(d["value/fresh_mse_z"])



def test_other_seats_value_weight():
    torch.manual_seed(0)
    game = isz.make_game("kuhn_poker")
    model = build_model(game, ModelConfig(width=16, depth=1))
    pos, _ = _kuhn(0.0)
    dev = torch.device("cpu")
    with torch.no_grad():
        v = model(torch.from_numpy(pos.tensors), torch.from_numpy(pos.masks))[1].numpy()
    err = (v - pos.returns) ** 2
    rows = np.arange(len(pos))
    own = err[rows, pos.players]
    got = {w: loss_terms(model, pos, dev, 1.0, w)["value"].item() for w in (1.0, 0.0, 0.5)}
    assert got[1.0] == pytest.approx(float(err.mean()), rel=1e-5)
    assert got[0.0] == pytest.approx(float(own.mean()), rel=1e-5)
    other = (err.sum() - own.sum()) / (err.size - len(own))
    assert got[0.5] == pytest.approx(float((own.sum() + 0.5 * other * (err.size - len(own)))
                                           / (len(own) + 0.5 * (err.size - len(own)))), rel=1e-5)
    assert got[0.0] != pytest.approx(got[1.0], rel=1e-3)


def test_search_leaf_mix_reaches_the_planner_and_is_checked():
    from isz.training.evaluation import planner_knobs

    cfg = alphazero_config()
    cfg.search.leaf_mix = 0.5
    validate(cfg)
    assert planner_knobs(cfg)["leaf_mix"] == 0.5
    assert _selfplay_cfg(cfg).puct.leaf_mix == 0.5
    cfg.search.leaf_mix = 2
    with pytest.raises(IszError, match=r"search.leaf_mix must be a number in \[0, 1\]"):
        validate(cfg)
