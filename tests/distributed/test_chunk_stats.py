"""The learner's merge of the actors' chunks (`isz.distributed.stats.ChunkStats`): rates
add over actors, and the share of time spent drawing worlds is the actors' share."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from isz.distributed.stats import ChunkStats
from isz.selfplay import Positions, SelfPlayStats


def _chunk(actor: int, positions: int, seconds: float, belief_seconds: float):
    rows = Positions(np.zeros((positions, 3), np.float32), np.ones((positions, 2), bool),
                     np.full((positions, 2), 0.5, np.float32), np.zeros(positions, np.int64),
                     np.zeros((positions, 2), np.float32))
    stats = SelfPlayStats(games=1, positions=positions, seconds=seconds,
                          belief_seconds=belief_seconds)
    return SimpleNamespace(actor=actor, stats=stats, positions=rows)


def test_merged_rate_and_belief_share():
    acc = ChunkStats(actors=2)
    acc.add(_chunk(0, 100, 2.0, 1.5), lag=0, depth=0)  # 50 positions/s, 75% drawing
    acc.add(_chunk(1, 60, 2.0, 0.5), lag=1, depth=0)  # 30 positions/s, 25% drawing
    acc.dropped(_chunk(1, 60, 2.0, 0.5), lag=3)  # stale: its time still counts
    pos, stats = acc.merged()
    assert len(pos.players) == 160 and stats.games == 2
    scalars = stats.as_scalars()
    # actor 1's rate over its two chunks: 120 in 4 s; the positions kept are 160
    assert scalars["positions_per_s"] == pytest.approx(50 + 30)
    assert scalars["belief_share"] == pytest.approx((1.5 + 0.5 + 0.5) / 6.0)
