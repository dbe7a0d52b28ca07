"""Self-play records: value-only views of the seats not to move, mirror targets, and
the policy loss that skips value-only rows."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.nn import ModelConfig, build_model
from isz.search.evaluator import UniformEvaluator
from isz.search.puct_driver import PUCTConfig
from isz.selfplay import SelfPlayConfig, play
from isz.selfplay.records import Positions
from isz.training.learner import loss_terms


def _play(value_view: str, target: str = "visits", games: int = 12):
    game = isz.make_game("kuhn_poker")
    cfg = SelfPlayConfig(parallel_games=4, simulations=16, target=target,
                         puct=PUCTConfig(value_view=value_view, opponents="evaluate"))
    pos, _ = play(game, UniformEvaluator(2), cfg, games, np.random.default_rng(0))
    return pos


def test_searcher_value_view_records_every_seat():
    pos = _play("searcher")
    has_policy = pos.policies.sum(axis=1) > 0
    assert has_policy.sum() == (~has_policy).sum() > 0
    # rows come in pairs: the actor's decision, then the other seat's view, same returns
    assert np.all(has_policy[0::2]) and not np.any(has_policy[1::2])
    assert np.all(pos.players[0::2] != pos.players[1::2])
    np.testing.assert_array_equal(pos.returns[0::2], pos.returns[1::2])
    np.testing.assert_array_equal(pos.masks[1::2], True)


def test_actor_value_view_records_decisions_only():
    pos = _play("actor")
    np.testing.assert_allclose(pos.policies.sum(axis=1), 1.0, rtol=1e-5)


def test_mirror_targets_keep_every_legal_move():
    pos = _play("searcher", target="mirror")
    rows = pos.policies.sum(axis=1) > 0
    np.testing.assert_allclose(pos.policies[rows].sum(axis=1), 1.0, rtol=1e-5)
    assert np.all(pos.policies[rows][pos.masks[rows]] > 0)


def test_policy_loss_skips_value_only_rows():
    torch.manual_seed(0)
    game = isz.make_game("kuhn_poker")
    model = build_model(game, ModelConfig(width=16, depth=1))
    pos = _play("searcher")
    decisions = pos.policies.sum(axis=1) > 0
    only = Positions(*(getattr(pos, f)[decisions] for f in
                       ("tensors", "masks", "policies", "players", "returns")))
    both, dec = (loss_terms(model, p, torch.device("cpu"), 1.0) for p in (pos, only))
    assert both["policy"].item() == pytest.approx(dec["policy"].item(), rel=1e-6)
    assert both["value"].item() != pytest.approx(dec["value"].item(), rel=1e-6)


def test_positions_per_second_counts_decisions_only():
    game = isz.make_game("kuhn_poker")
    cfg = SelfPlayConfig(parallel_games=4, simulations=8)
    pos, stats = play(game, UniformEvaluator(2), cfg, 10, np.random.default_rng(1))
    assert len(pos) == 2 * stats.positions
    assert stats.positions == int((pos.policies.sum(axis=1) > 0).sum())
