"""What a run's checkpoint costs in replay-buffer writes (``isz-bench --only buffer``).

Every iteration a run saves its buffer before ``last.pt`` (`isz.training.run_state`).
Saved whole, the ring is written again each time; saved in segments
(`ReplayBuffer.save_segment`), only the rows the iteration added. The rows: both ways
at a game's row size, once the ring is full, side by side in one run, with ``fsync``
as the run does; each write's file removed after it.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

import isz
from isz.selfplay.records import Positions
from isz.training.buffer import ReplayBuffer


def _rows(game, n: int, rng: np.random.Generator) -> Positions:
    """``n`` positions of ``game``'s shapes (random contents: the bytes are the cost)."""
    a, p = game.num_actions, game.num_players
    return Positions(rng.random((n, game.tensor_size), dtype=np.float32),
                     rng.random((n, a)) < 0.5, rng.random((n, a), dtype=np.float32),
                     rng.integers(0, p, n), rng.random((n, p), dtype=np.float32))


def buffer_save_rows(game_name: str, capacity: int, per_iteration: int, reps: int = 3,
                     folder: str | None = None) -> dict:
    """One row: seconds to save a full ring of ``capacity`` positions whole and as the
    segment of one iteration's ``per_iteration`` new rows (median of ``reps`` each), the
    bytes of each file, and ``whole_over_segment``."""
    game = isz.make_game(game_name)
    rng = np.random.default_rng(0)
    buf = ReplayBuffer(capacity)
    buf.add(_rows(game, capacity, rng))
    whole, segment, sizes = [], [], {}
    with tempfile.TemporaryDirectory(prefix="isz-bench-buffer-", dir=folder) as tmp:
        out = Path(tmp)
        for i in range(reps):
            buf.saved = buf.total_added  # every row on disk but the next iteration's
            buf.add(_rows(game, per_iteration, rng))
            t0 = time.perf_counter()
            buf.save_segment(out, f"seg-{i}.npz")
            segment.append(time.perf_counter() - t0)
            sizes["segment"] = (out / f"seg-{i}.npz").stat().st_size
            (out / f"seg-{i}.npz").unlink()
            t0 = time.perf_counter()
            buf.save(out / "whole.npz")
            whole.append(time.perf_counter() - t0)
            sizes["whole"] = (out / "whole.npz").stat().st_size
            (out / "whole.npz").unlink()
    w, s = float(np.median(whole)), float(np.median(segment))
    return {"bench": "buffer_save", "game": game_name, "capacity": capacity,
            "rows_per_iteration": per_iteration, "whole_s": round(w, 3),
            "segment_s": round(s, 3), "whole_bytes": sizes["whole"],
            "segment_bytes": sizes["segment"], "whole_over_segment": round(w / s, 1),
            "reps": reps}
