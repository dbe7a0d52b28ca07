"""NetworkEvaluator's cache: exact answers, each new row run once, first in first out, and
a batch bigger than the room left answered in full."""

from __future__ import annotations

import numpy as np
import torch

from isz.agents.network import NetworkEvaluator
from isz.agents.row_cache import row_keys
from isz.nn.model import PolicyValueNet


def test_a_batch_overflowing_the_cache_is_answered_in_full():
    torch.manual_seed(0)
    ev = NetworkEvaluator(PolicyValueNet(3, 2, 2), "cpu", cache_size=4)
    x = np.eye(3, dtype=np.float32)[[0, 1, 2, 0, 1, 2]] * np.arange(1, 7)[:, None]
    masks = np.ones((6, 2), dtype=np.bool_)
    ev.evaluate(x[:3], masks[:3])  # three rows cached, then three hits and three new ones
    p, v = ev.evaluate(x, masks)
    p_ref, v_ref = NetworkEvaluator(ev.model, "cpu", cache_size=0).evaluate(x, masks)
    assert np.allclose(p, p_ref) and np.allclose(v, v_ref)
    assert len(ev._cache) == 4


def test_cached_answers_are_the_networks_and_the_oldest_row_goes_first():
    """Batches with repeats, hits and evictions answer exactly as the uncached network;
    each distinct new row runs once; a full cache drops the row stored first."""
    torch.manual_seed(1)
    ev = NetworkEvaluator(PolicyValueNet(4, 3, 2), "cpu", cache_size=6)
    plain = NetworkEvaluator(ev.model, "cpu", cache_size=0)
    pool = np.random.default_rng(0).normal(size=(10, 4)).astype(np.float32)
    masks = np.ones((10, 3), dtype=np.bool_)
    masks[::3, 1] = False
    rng = np.random.default_rng(2)
    for _ in range(30):
        pick = rng.integers(0, 10, size=int(rng.integers(1, 9)))
        rows_before = ev.forward_rows
        kept = {i for i in range(10) if _kept(ev, pool[i], masks[i])}
        p, v = ev.evaluate(pool[pick], masks[pick])
        p_ref, v_ref = plain.evaluate(pool[pick], masks[pick])
        assert np.allclose(p, p_ref, atol=1e-6) and np.allclose(v, v_ref, atol=1e-6)
        assert ev.forward_rows - rows_before == len(set(pick.tolist()) - kept)
        assert len(ev._cache) <= 6
    ev.clear_cache()
    for i in range(7):  # rows 0..5 fill the cache; row 6 takes row 0's slot
        ev.evaluate(pool[i:i + 1], masks[i:i + 1])
    assert not _kept(ev, pool[0], masks[0])
    assert all(_kept(ev, pool[i], masks[i]) for i in range(1, 7))


def _kept(ev, tensor, mask) -> bool:
    return ev._cache.find(row_keys(tensor[None], mask[None]))[0] >= 0
