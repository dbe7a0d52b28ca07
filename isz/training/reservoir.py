"""Reservoir buffer: a weighted sample of every position ever offered to it.

Weighted reservoir sampling (Efraimidis and Spirakis, 2006, A-Res): a row offered
with weight w draws the key ``log(u) / w`` (u uniform on (0, 1)), and the buffer
keeps the ``capacity`` rows with the largest keys seen so far. With equal weights
every row offered is kept with the same probability, so an iteration that offered
twice the rows holds twice the slots: what NFSP's average-policy network trains on
(Heinrich and Silver, 2016). With weights, a row's chance grows with its weight
(in proportion while the buffer holds a small share of all rows offered), e.g.
iteration t's rows weighted t, as linear CFR and CFR+ weigh their average. While
it fills, rows take the slots in order. Storage, sampling and the atomic .npz file
are `ReplayBuffer`'s; the keys are saved with the rows.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from isz.selfplay.records import FIELDS, Positions
from isz.training.buffer import ReplayBuffer
from isz.types import IszError


class ReservoirBuffer(ReplayBuffer):
    """`ReplayBuffer` whose `add` keeps a weighted sample instead of the newest rows;
    ``total_added`` counts every row offered, ``arrays["keys"]`` (float64[capacity])
    holds the kept rows' keys."""

    def add(self, pos: Positions, rng: np.random.Generator,  # type: ignore[override]
            weight: float = 1.0) -> None:
        """Offer the rows of ``pos``, each with ``weight`` (> 0); draws from ``rng``."""
        if not weight > 0:
            raise IszError(f"a reservoir row's weight must be > 0, got {weight}")
        if not self.arrays:
            self._allocate(pos)
            self.arrays["keys"] = np.full(self.capacity, -np.inf)
        n, size, cap = len(pos), self.size, self.capacity
        new = np.log(rng.random(n)) / weight
        if size + n <= cap:  # still filling: every row in order
            slots, rows = size + np.arange(n), np.arange(n)
        else:  # the cap largest keys among those kept and those offered
            keys = np.concatenate([self.arrays["keys"][:size], new])
            top = np.argpartition(keys, len(keys) - cap)[len(keys) - cap:]
            rows = np.sort(top[top >= size] - size)
            slots = np.setdiff1d(np.arange(cap), top[top < size])  # as many as rows
        for f in FIELDS:
            self.arrays[f][slots] = getattr(pos, f)[rows]
        self.arrays["keys"][slots] = new[rows]
        self.total_added += n
        self.size = min(cap, size + n)
        self.next = self.size % cap

    @classmethod
    def load(cls, path: Path) -> ReservoirBuffer:
        buf = super().load(path)
        try:
            with np.load(path, allow_pickle=False) as z:
                keys = z["keys"]
        except (OSError, ValueError, KeyError) as e:
            raise IszError(f"cannot read reservoir {str(path)!r}: {e}") from e
        buf.arrays["keys"] = np.full(buf.capacity, -np.inf)
        buf.arrays["keys"][:len(keys)] = keys
        return buf
