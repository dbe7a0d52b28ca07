"""Whole-system throughput for ``isz-bench --only distributed``.

Runs the real training loop (`isz.training.loop.train`) for a few iterations in
one process, with 2, 4, ... forked self-play processes (``selfplay.workers``) and
with 1, 2, 4, ... Ray actors, and reads back from its
TensorBoard what each iteration measured: ``perf/system_positions_per_s``
(decisions searched per wall second of the iteration, learning included),
``perf/positions_per_s`` (the self-play rate alone: the actors' summed rate)
and ``perf/train_steps_per_s``. The first ``warmup`` iterations (numba
compilation in each new process, actors starting) are left out.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

import numpy as np

from isz.training.config import TrainConfig


def actor_counts(cores: int) -> list[int]:
    """1, 2, 4, 8, ... up to ``cores`` (and ``cores`` itself)."""
    out, n = [], 1
    while n <= cores:
        out.append(n)
        n *= 2
    return out if out[-1] == cores else [*out, cores]


def bench_config(game: str, actors: int, iterations: int, run_dir: Path,
                 device: str = "auto", workers: int = 1) -> TrainConfig:
    """The default training configuration, short and without evaluation; the
    learner on ``device`` (actors infer on CPU); without actors, ``workers``
    self-play processes."""
    cfg = TrainConfig()
    cfg.selfplay.workers = workers
    cfg.game.name = game
    cfg.trainer.device = device
    cfg.trainer.iterations = iterations
    cfg.trainer.actors = actors
    cfg.trainer.eval_every = 0
    cfg.trainer.final_eval_deals = 1
    cfg.trainer.eval_opponents = []
    cfg.logger.progress = False
    cfg.experiment.run_dir = str(run_dir)
    return cfg


def _scalars(run_dir: Path, tag: str, skip: int) -> list[float]:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    ea = EventAccumulator(str(run_dir / "tb"), size_guidance={"scalars": 0})
    ea.Reload()
    return [e.value for e in ea.Scalars(tag) if e.step > skip]


def system_speed(game: str, actors: int, iterations: int = 5, warmup: int = 2,
                 device: str = "auto", workers: int = 1) -> dict:
    """One row: the loop's throughput with ``actors`` Ray actors, or without (0) with
    ``workers`` self-play processes of this machine."""
    from isz.nn.device import resolve_device
    from isz.training.loop import train
    with tempfile.TemporaryDirectory(prefix="isz-bench-") as tmp:
        run = Path(tmp) / "run"
        with contextlib.redirect_stdout(io.StringIO()):  # the loop's progress lines
            train(bench_config(game, actors, iterations, run, device, workers))
        rate = _scalars(run, "perf/system_positions_per_s", warmup)
        sp = _scalars(run, "perf/positions_per_s", warmup)
        steps = _scalars(run, "perf/train_steps_per_s", warmup)
        ratio = _scalars(run, "perf/replay_ratio", warmup)
    mode = "ray actors" if actors else "forked processes" if workers > 1 else "one process"
    return {"bench": "distributed", "game": game, "actors": actors,
            "workers": 0 if actors else workers, "mode": mode,
            "learner_device": str(resolve_device(device)),
            "cores": len(os.sched_getaffinity(0)), "iterations_measured": len(rate),
            "metric": "system_positions_per_s", "value": round(float(np.mean(rate)), 1),
            "system_positions_per_s_per_iteration": [round(x) for x in rate],
            "selfplay_positions_per_s": round(float(np.mean(sp)), 1),
            "learner_steps_per_s": round(float(np.mean(steps)), 1),
            "replay_ratio": round(ratio[-1], 3)}


def distributed_rows(game: str, counts: list[int], iterations: int = 5, warmup: int = 2,
                     device: str = "auto"):
    """One process, then each count (above 1) of forked self-play processes, then each
    count of actors on one Ray instance, side by side; ``vs_one_process``: the
    throughput over the first row's."""
    base = system_speed(game, 0, iterations, warmup, device)
    yield base
    for n in counts:
        if n > 1:
            row = system_speed(game, 0, iterations, warmup, device, workers=n)
            row["vs_one_process"] = round(row["value"] / max(base["value"], 1e-9), 3)
            yield row
    from isz.distributed import connect, shutdown
    from isz.training.config import RayCfg
    connect(RayCfg(num_cpus=max(counts)))
    try:
        for n in counts:
            row = system_speed(game, n, iterations, warmup, device)
            row["vs_one_process"] = round(row["value"] / max(base["value"], 1e-9), 3)
            yield row
    finally:
        shutdown()
