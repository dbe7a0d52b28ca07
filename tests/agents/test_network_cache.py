"""NetworkEvaluator's cache: a batch bigger than the room left keeps its own rows."""

from __future__ import annotations

import numpy as np
import torch

from isz.agents.network import NetworkEvaluator
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
