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


class FixedPrior:
    """An evaluator whose priors are ``prior`` on the legal moves: a stand-in magnet."""

    def __init__(self, prior):
        self.prior = np.asarray(prior, dtype=np.float32)
        self.rows = 0

    def evaluate(self, tensors, masks):
        self.rows += len(tensors)
        p = masks * self.prior
        return p / p.sum(axis=1, keepdims=True), np.zeros((len(masks), 2), np.float32)


def test_mirror_targets_use_the_magnet_evaluator():
    game = isz.make_game("kuhn_poker")

    def targets(magnet, alpha):
        cfg = SelfPlayConfig(parallel_games=4, simulations=16, target="mirror",
                             mirror_alpha=alpha, puct=PUCTConfig(opponents="evaluate"))
        pos, _ = play(game, UniformEvaluator(2), cfg, 8, np.random.default_rng(0),
                      magnet=magnet)
        return pos.policies[pos.policies.sum(axis=1) > 0]

    magnet = FixedPrior([0.8, 0.2])
    pinned = targets(magnet, 1e6)  # the magnet's weight dominates: targets = magnet
    np.testing.assert_allclose(pinned, np.tile([0.8, 0.2], (len(pinned), 1)), atol=1e-4)
    assert magnet.rows == len(pinned)  # asked once per searched root
    # a uniform magnet evaluator gives exactly the default (uniform-magnet) targets
    np.testing.assert_allclose(targets(FixedPrior([0.5, 0.5]), 0.1), targets(None, 0.1),
                               rtol=1e-6)
    with pytest.raises(ValueError, match="magnet needs the mirror target"):
        play(game, UniformEvaluator(2), SelfPlayConfig(target="visits"), 1,
             np.random.default_rng(0), magnet=magnet)
