"""`NetworkEvaluator`: the policy/value network behind the search's Evaluator protocol.

Batches arrive from `isz.search.puct_driver.PUCTBatch` (one row per pending
leaf); rows already seen are answered from an LRU cache keyed by the tensor and
mask bytes, which pays off in small games where views repeat (Kuhn, Leduc).
"""

from __future__ import annotations

import numpy as np
import torch

from isz.agents.row_cache import RowCache, row_keys
from isz.nn.device import autocast_context, resolve_device
from isz.nn.model import PolicyValueNet


class NetworkEvaluator:
    """Evaluator over a `PolicyValueNet` (see `isz.search.evaluator.Evaluator`)."""

    def __init__(self, model: PolicyValueNet, device: str | torch.device = "auto",
                 cache_size: int = 100_000):
        self.device = resolve_device(device)
        self.model = model.to(self.device).eval()
        self.cache_size = cache_size
        self._cache = RowCache(cache_size)
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
        keys = row_keys(tensors, masks)
        slots = self._cache.find(keys)
        missing = np.flatnonzero(slots < 0)
        ask, at = _distinct(keys, missing)
        hit = np.flatnonzero(slots >= 0)
        self.cache_hits += len(keys) - len(ask)
        if not ask:
            return self._cache.priors[slots], self._cache.values[slots]
        p, v = self._forward(tensors[ask], masks[ask])
        priors = np.empty((len(keys), p.shape[1]), np.float32)
        values = np.empty((len(keys), v.shape[1]), np.float32)
        if len(hit):  # read before storing: new rows may take the slots of old ones
            priors[hit] = self._cache.priors[slots[hit]]
            values[hit] = self._cache.values[slots[hit]]
        priors[missing], values[missing] = p[at], v[at]
        keep = ask[-self.cache_size:]  # a batch bigger than the cache keeps its last rows
        self._cache.put([keys[i] for i in keep], p[-len(keep):], v[-len(keep):])
        return priors, values


def _distinct(keys: list[bytes], rows: np.ndarray) -> tuple[list[int], np.ndarray]:
    """``(ask, at)``: the first of ``rows`` (int64[M]) with each distinct key, and for each
    of ``rows`` its key's place in ``ask`` (int64[M]): lanes of one search often ask
    about one view, and so do the candidate worlds of a belief."""
    place: dict[bytes, int] = {}
    ask: list[int] = []
    at = []
    for i in rows.tolist():
        j = place.setdefault(keys[i], len(ask))
        if j == len(ask):
            ask.append(i)
        at.append(j)
    return ask, np.asarray(at, dtype=np.int64)
