"""Recon self-play with the network-driven particle filter: both seats get policy
targets (both learn), and the recon seat's filter is measured against the truth."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.search.evaluator import UniformEvaluator
from isz.selfplay import SelfPlayConfig, play
from isz.selfplay.filter_stats import FilterStats

GAME = {"slots": 5, "turns": 11, "fuel": 5, "sensor": (0.6, 0.3)}


@pytest.fixture(scope="module")
def played():
    game = isz.make_game("recon", **GAME)
    cfg = SelfPlayConfig(parallel_games=4, simulations=8,
                         belief={"name": "particle", "particles": 100})
    return play(game, UniformEvaluator(2), cfg, 8, np.random.default_rng(0))


def test_both_seats_record_decisions(played):
    pos, _ = played
    decided = pos.policies.sum(axis=1) > 0
    # 11 turns: 6 recon and 5 adversary decisions per game
    assert np.bincount(pos.players[decided], minlength=2).tolist() == [6 * 8, 5 * 8]


def test_filter_scalars_of_the_recon_seat(played):
    _, stats = played
    s = stats.belief_scalars()
    assert 0 < s["ess"] <= 100 and s["ess_fraction"] == pytest.approx(s["ess"] / 100)
    assert 0 < s["true_slot_probability"] <= 1
    assert 0 < s["slot_entropy"] <= np.log(5) + 1e-9
    assert 0 <= s["resample_rate"] <= 1
    # one record per recon decision (chance places the adversary before the first)
    assert len(stats.filters.ess) == 6 * 8


def test_no_filter_no_scalars():
    assert FilterStats().scalars() == {}


def test_merged_stats_pool_the_records(played):
    _, stats = played
    both = FilterStats()
    both.merge(stats.filters)
    both.merge(stats.filters)
    assert both.scalars() == pytest.approx(stats.filters.scalars())
    assert len(both.ess) == 2 * len(stats.filters.ess)
    assert both.readings == 2 * stats.filters.readings
