"""`RowCache`: a network's answers kept by the bytes of the row that was asked.

A belief that weighs its worlds by the network's policy (``replay``) asks about thousands
of rows a decision, most of them asked before (the same seat's view in many candidate
worlds, and in the decision before). Kept one small array per row, the
answers cost more to look up and stack (a Python step per row) than the network
costs to run; kept in two arrays indexed by slot, a batch is one gather.
"""

from __future__ import annotations

import numpy as np


def row_keys(tensors: np.ndarray, masks: np.ndarray) -> list[bytes]:
    """One ``bytes`` a row: its float32 tensor then its bool mask (float32[B, T],
    bool[B, A]), made by numpy in one pass."""
    b = len(tensors)
    t = np.ascontiguousarray(tensors, dtype=np.float32).reshape(b, -1).view(np.uint8)
    m = np.ascontiguousarray(masks, dtype=np.bool_).reshape(b, -1).view(np.uint8)
    rows = np.concatenate([t, m], axis=1)  # a new C-ordered array
    return rows.view(np.dtype((np.void, rows.shape[1]))).ravel().tolist()


class RowCache:
    """Answers (priors float32[A], values float32[P]) of up to ``size`` rows, keyed by
    `row_keys`. When full, a new row takes the slot of the oldest stored one (first in,
    first out: a hit does not refresh a row). The arrays grow by doubling up to
    ``size`` rows, so a small game does not hold room for a hundred thousand."""

    def __init__(self, size: int):
        self.size = size
        self.clear()

    def clear(self) -> None:
        self._slot: dict[bytes, int] = {}
        self._owner: list[bytes] = []  # the key in each slot used so far
        self._next = 0  # once every slot is used: the oldest, which the next row takes
        self.priors = self.values = None

    def __len__(self) -> int:
        return len(self._slot)

    def find(self, keys: list[bytes]) -> np.ndarray:
        """int64[B]: each key's slot in `priors`/`values`, -1 where it is not kept."""
        get = self._slot.get
        return np.fromiter((get(k, -1) for k in keys), np.int64, len(keys))

    def put(self, keys: list[bytes], priors: np.ndarray, values: np.ndarray) -> None:
        """Keep rows ``keys`` (distinct, none kept yet, at most ``size``) with answers
        ``priors[i]``, ``values[i]``."""
        if not keys:
            return
        used = len(self._owner)
        fresh = min(len(keys), self.size - used)
        slots = list(range(used, used + fresh))
        self._owner.extend(keys[:fresh])
        for k in keys[fresh:]:
            s = self._next
            del self._slot[self._owner[s]]
            self._owner[s] = k
            slots.append(s)
            self._next = (s + 1) % self.size
        self._room(used + fresh, priors.shape[1], values.shape[1])
        idx = np.asarray(slots, dtype=np.int64)
        self.priors[idx] = priors
        self.values[idx] = values
        self._slot.update(zip(keys, slots, strict=True))

    def _room(self, rows: int, actions: int, players: int) -> None:
        have = 0 if self.priors is None else len(self.priors)
        if rows <= have:
            return
        cap = min(self.size, max(rows, 2 * have, 1024))
        p, v = np.zeros((cap, actions), np.float32), np.zeros((cap, players), np.float32)
        if have:
            p[:have], v[:have] = self.priors, self.values
        self.priors, self.values = p, v
