"""Replay buffer: a ring of training positions, saved atomically as one .npz.

Capacity is in positions; the oldest are overwritten first. Sampling is
uniform over what is stored, from an explicit generator.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from isz.fs import write_atomic
from isz.selfplay.records import FIELDS as _FIELDS
from isz.selfplay.records import Positions
from isz.types import IszError


class ReplayBuffer:
    """Ring buffer of `Positions` (arrays allocated on first insert)."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.arrays: dict[str, np.ndarray] = {}
        self.size = 0
        self.next = 0
        self.total_added = 0

    def __len__(self) -> int:
        return self.size

    def _allocate(self, pos: Positions) -> None:
        """The arrays, shaped after ``pos``'s rows, on the first insert."""
        if not self.arrays:
            for f in _FIELDS:
                a = getattr(pos, f)
                self.arrays[f] = np.zeros((self.capacity, *a.shape[1:]), dtype=a.dtype)

    def add(self, pos: Positions) -> None:
        self._allocate(pos)
        n = len(pos)
        keep = min(n, self.capacity)  # more than fits: only the newest survive
        idx = (self.next + n - keep + np.arange(keep)) % self.capacity
        for f in _FIELDS:
            self.arrays[f][idx] = getattr(pos, f)[n - keep:]
        self.next = int((self.next + n) % self.capacity)
        self.size = min(self.capacity, self.size + n)
        self.total_added += n

    def sample(self, batch: int, rng: np.random.Generator) -> Positions:
        idx = rng.integers(0, self.size, size=batch)
        return Positions(*(self.arrays[f][idx] for f in _FIELDS))

    def save(self, path: Path) -> None:
        """Write atomically: a temporary file in the same folder, then rename."""
        meta = np.array([self.capacity, self.size, self.next, self.total_added])
        arrays = {f_: a[:self.size] if self.size < self.capacity else a
                  for f_, a in self.arrays.items()}
        write_atomic(path, lambda f: np.savez(f, meta=meta, **arrays), binary=True)

    @classmethod
    def load(cls, path: Path) -> ReplayBuffer:
        try:
            with np.load(path, allow_pickle=False) as z:
                capacity, size, nxt, total = (int(x) for x in z["meta"])
                buf = cls(capacity)
                for f in _FIELDS:
                    if f in z:
                        a = z[f]
                        buf.arrays[f] = np.zeros((capacity, *a.shape[1:]), dtype=a.dtype)
                        buf.arrays[f][:len(a)] = a
        except (OSError, ValueError, KeyError) as e:
            raise IszError(f"cannot read replay buffer {str(path)!r}: {e}") from e
        buf.size, buf.next, buf.total_added = size, nxt, total
        return buf
