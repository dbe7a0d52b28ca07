"""Replay buffer: a ring of the newest positions, saved in segments."""

from __future__ import annotations

import numpy as np
import pytest

from isz.selfplay.records import FIELDS, Positions
from isz.training.buffer import ReplayBuffer
from isz.types import IszError


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


def _same(a: ReplayBuffer, b: ReplayBuffer) -> None:
    assert (a.size, a.next, a.total_added) == (b.size, b.next, b.total_added)
    for f in FIELDS:
        np.testing.assert_array_equal(a.arrays[f], b.arrays[f])
    rng1, rng2 = np.random.default_rng(0), np.random.default_rng(0)
    np.testing.assert_array_equal(a.sample(5, rng1).players, b.sample(5, rng2).players)


def test_segments_rebuild_the_ring_bit_for_bit(tmp_path):
    """Each save writes only the rows added since the last (one that added more than the
    ring writes the ring); the segments listed rebuild the buffer, every row at its
    index, and a segment none of whose rows is left drops out of the list."""
    buf, names = ReplayBuffer(10), []
    for i, (start, n) in enumerate([(0, 4), (4, 4), (8, 5), (13, 23), (36, 3)]):
        buf.add(_positions(start, n))
        names = buf.save_segment(tmp_path, f"buffer-{i}.npz")
        again = ReplayBuffer.load_segments(tmp_path, 10, names)
        _same(buf, again)
        with np.load(tmp_path / f"buffer-{i}.npz") as z:  # this save's rows alone
            assert z["players"].tolist() == list(range(max(start, start + n - 10), start + n))
    # rows 29-38 are live: the 23-row save (rows 26-35 of it) and the last one
    assert names == ["buffer-3.npz", "buffer-4.npz"]
    assert buf.save_segment(tmp_path, "buffer-5.npz") == names  # nothing new: no file
    assert not (tmp_path / "buffer-5.npz").exists()
    again.add(_positions(39, 2))  # a resumed buffer saves on from where it was
    assert again.save_segment(tmp_path, "buffer-6.npz") == [*names, "buffer-6.npz"]
    with np.load(tmp_path / "buffer-6.npz") as z:
        assert z["players"].tolist() == [39, 40]


def test_segments_that_do_not_follow_one_another_are_refused(tmp_path):
    buf = ReplayBuffer(10)
    buf.add(_positions(0, 4))
    buf.save_segment(tmp_path, "a.npz")
    buf.add(_positions(4, 3))
    buf.save_segment(tmp_path, "b.npz")
    # the first may start anywhere (the rows before it are overwritten), the next not
    with pytest.raises(IszError, match=r"'.*a.npz' holds rows \[0, 4\) of a ring of 10; "
                                       r"expected rows from 7"):
        ReplayBuffer.load_segments(tmp_path, 10, ["b.npz", "a.npz"])
    with pytest.raises(IszError, match="ring of 10; expected rows from 0 of a ring of 12"):
        ReplayBuffer.load_segments(tmp_path, 12, ["a.npz"])
    (tmp_path / "c.npz").write_bytes(b"not a buffer")
    with pytest.raises(IszError, match="cannot read replay buffer segment '.*c.npz'"):
        ReplayBuffer.load_segments(tmp_path, 10, ["a.npz", "c.npz"])


def test_a_buffer_saved_whole_loads_and_saves_on_as_a_segment(tmp_path):
    """Runs saved before segments kept the ring in one file; it loads, and the next save
    writes the whole ring as the first segment."""
    buf = ReplayBuffer(10)
    buf.add(_positions(0, 13))
    buf.save(tmp_path / "old.npz")
    again = ReplayBuffer.load(tmp_path / "old.npz")
    _same(buf, again)
    again.forget_files()
    assert again.save_segment(tmp_path, "buffer-1.npz") == ["buffer-1.npz"]
    _same(buf, ReplayBuffer.load_segments(tmp_path, 10, ["buffer-1.npz"]))
