"""Replay buffer: a ring of the newest positions, saved and loaded whole."""

from __future__ import annotations

import numpy as np

from isz.selfplay.records import Positions
from isz.training.buffer import ReplayBuffer


def _positions(start: int, n: int) -> Positions:
    ids = np.arange(start, start + n)
    return Positions(ids[:, None].astype(np.float32), np.ones((n, 2), np.bool_),
                     np.full((n, 2), 0.5, np.float32), ids, np.zeros((n, 2), np.float32))


def _held(buf: ReplayBuffer) -> set[int]:
    return set(buf.arrays["players"][:len(buf)].tolist())


def test_ring_keeps_the_newest():
    buf = ReplayBuffer(10)
    buf.add(_positions(0, 6))
    buf.add(_positions(6, 7))
    assert len(buf) == 10 and _held(buf) == set(range(3, 13))


def test_a_batch_larger_than_the_buffer_keeps_its_tail():
    buf = ReplayBuffer(10)
    buf.add(_positions(0, 4))
    buf.add(_positions(4, 23))
    assert len(buf) == 10 and _held(buf) == set(range(17, 27))
    buf.add(_positions(27, 3))  # and the ring goes on from the right place
    assert _held(buf) == set(range(20, 30))
    assert buf.total_added == 30


def test_save_load_round_trip(tmp_path):
    buf = ReplayBuffer(10)
    buf.add(_positions(0, 13))
    buf.save(tmp_path / "b.npz")
    again = ReplayBuffer.load(tmp_path / "b.npz")
    assert _held(again) == _held(buf) and again.next == buf.next
    rng1, rng2 = np.random.default_rng(0), np.random.default_rng(0)
    np.testing.assert_array_equal(buf.sample(5, rng1).players, again.sample(5, rng2).players)
