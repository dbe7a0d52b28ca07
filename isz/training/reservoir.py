"""Reservoir buffer: a uniform sample of every position ever offered to it.

Algorithm R (Vitter, 1985), vectorised over a batch: the g-th row offered (0-based,
over the buffer's life) takes slot g while the buffer fills, then replaces a uniformly
drawn slot with probability ``capacity / (g + 1)``. Every row offered so far is then
in the buffer with the same probability, so an iteration that offered twice the rows
holds twice the slots: what NFSP's average-policy network trains on (Heinrich and
Silver, 2016). Storage, sampling and the atomic .npz file are `ReplayBuffer`'s.
"""

from __future__ import annotations

import numpy as np

from isz.selfplay.records import Positions
from isz.training.buffer import _FIELDS, ReplayBuffer


class ReservoirBuffer(ReplayBuffer):
    """`ReplayBuffer` whose `add` keeps a uniform sample instead of the newest rows;
    ``total_added`` counts every row offered."""

    def add(self, pos: Positions, rng: np.random.Generator) -> None:  # type: ignore[override]
        """Offer the rows of ``pos`` in order; the draws come from ``rng``."""
        if not self.arrays:
            for f in _FIELDS:
                a = getattr(pos, f)
                self.arrays[f] = np.zeros((self.capacity, *a.shape[1:]), dtype=a.dtype)
        n = len(pos)
        g = self.total_added + np.arange(n, dtype=np.int64)
        slot = np.where(g < self.capacity, g, rng.integers(0, g + 1))
        rows = np.flatnonzero(slot < self.capacity)
        slot = slot[rows]
        # two rows of one batch drawn into the same slot: the later one stays, as if
        # they had been offered one at a time
        _, last = np.unique(slot[::-1], return_index=True)
        pick = len(slot) - 1 - last
        for f in _FIELDS:
            self.arrays[f][slot[pick]] = getattr(pos, f)[rows[pick]]
        self.total_added += n
        self.size = min(self.capacity, self.total_added)
        self.next = self.size % self.capacity
