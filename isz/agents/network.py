"""`NetworkEvaluator`: the policy/value network behind the search's Evaluator protocol.

Batches arrive from `isz.search.puct_driver.PUCTBatch` (one row per pending
leaf); rows already seen are answered from an LRU cache keyed by the tensor and
mask bytes, which pays off in small games where views repeat (Kuhn, Leduc).
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import torch

from isz.nn.device import autocast_context, resolve_device
from isz.nn.model import PolicyValueNet


class NetworkEvaluator:
    """Evaluator over a `PolicyValueNet` (see `isz.search.evaluator.Evaluator`)."""

    def __init__(self, model: PolicyValueNet, device: str | torch.device = "auto",
                 cache_size: int = 100_000):
        self.device = resolve_device(device)
        self.model = model.to(self.device).eval()
        self.cache_size = cache_size
        self._cache: OrderedDict[bytes, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self.forward_rows = 0
        self.cache_hits = 0

    def clear_cache(self) -> None:
        """Call after the weights change."""
        self._cache.clear()

    @torch.no_grad()
    def _forward(self, tensors: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = torch.from_numpy(np.ascontiguousarray(tensors, dtype=np.float32)).to(self.device)
        m = torch.from_numpy(np.ascontiguousarray(masks, dtype=np.bool_)).to(self.device)
        with autocast_context(self.device):
            logits, value = self.model(x, m)
        probs = torch.softmax(logits.float(), dim=-1)
        self.forward_rows += len(tensors)
        return probs.cpu().numpy(), value.float().cpu().numpy()

    @torch.no_grad()
    def evaluate_parts(self, base: np.ndarray, groups: np.ndarray, cols: np.ndarray,
                       vals: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """priors float32[B, A] of rows given in parts (`EvaluatorPolicy.many_parts`):
        the stem once per template row, no value head, no cache (such rows are the
        belief's hypotheses, and they do not repeat)."""
        def t(a, dtype):
            return torch.from_numpy(np.ascontiguousarray(a, dtype=dtype)).to(self.device)
        with autocast_context(self.device):
            logits = self.model.policy_logits_parts(
                t(base, np.float32), t(groups, np.int64), t(cols, np.int64),
                t(vals, np.float32), t(masks, np.bool_))
        self.forward_rows += len(vals)
        return torch.softmax(logits.float(), dim=-1).cpu().numpy()

    def evaluate(self, tensors: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """priors float32[B, A], values float32[B, P] for views ``tensors``/``masks``."""
        if self.cache_size <= 0:
            return self._forward(tensors, masks)
        keys = [t.tobytes() + m.tobytes() for t, m in zip(tensors, masks, strict=True)]
        # one row per distinct missing view: lanes of one search often repeat a view
        missing = list({k: i for i, k in enumerate(keys) if k not in self._cache}.values())
        if missing:
            p, v = self._forward(tensors[missing], masks[missing])
            for j, i in enumerate(missing):
                self._cache[keys[i]] = (p[j], v[j])
        self.cache_hits += len(keys) - len(missing)
        priors = np.stack([self._cache[k][0] for k in keys])
        values = np.stack([self._cache[k][1] for k in keys])
        # evict only now: a batch larger than the room left must not lose its own rows
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return priors, values
