"""What a run tells its user: TensorBoard scalars (prefixes loss/, selfplay/, eval/,
belief/, perf/), the same scalars with the run's counters as one JSON line per
iteration in ``<run_dir>/metrics.jsonl``, progress of every long step, and where
everything went.

Progress: a tqdm bar over iterations with a bar per step under it (self-play,
training steps, evaluation, exploitability) where stderr is a terminal; else,
one line per iteration on stdout and `isz.progress` lines for long steps.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
from pathlib import Path

from tqdm import tqdm

from isz.progress import Progress, is_terminal


def tensorboard_command(logdir: Path) -> str:
    """A command that starts TensorBoard on ``logdir`` as written, from the launch folder."""
    exe = Path(sys.executable).parent / "tensorboard"
    if not exe.exists():
        exe = Path(shutil.which("tensorboard") or "tensorboard")
    return f"{_short(exe)} --logdir {_short(logdir)}"


def _which(run_dir: Path) -> str:
    """What the finish line says of ``last.pt`` and ``best.pt``: whether they are one
    network, else best.pt's iteration. The final checks' verdict is recorded in last.pt
    alone; an earlier best.pt (the best periodic evaluation: the least exploitable where
    that is exact, else the best score over a few dozen deals) keeps its planner as
    trained."""
    from isz.nn.checkpoint import load_checkpoint  # torch: only at the end of a run

    ck = run_dir / "checkpoints"
    if not (ck / "best.pt").exists():
        return "last.pt"
    best, last = (int(load_checkpoint(ck / n)["counters"].get("iteration", 0))
                  for n in ("best.pt", "last.pt"))
    if best == last:
        return "last.pt = best.pt"
    return f"last.pt; best.pt: iteration {best}, its best evaluation"


def _short(path: Path) -> str:
    """``path`` relative to the current folder when inside it, else absolute."""
    path = Path(os.path.abspath(path))
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


METRICS = "metrics.jsonl"  # one JSON object per iteration, in the run folder


def read_metrics(path: Path) -> list[dict]:
    """The records of a ``metrics.jsonl`` in iteration order (a torn last line, from a
    kill while it was written, is skipped)."""
    out = []
    for line in Path(path).read_text().splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("iteration"), int):
            out.append(rec)
    return out


class RunLogger:
    """Writes scalars once per iteration; hyperparameters once per run; prints progress."""

    def __init__(self, run_dir: Path, cfg, start: int, total: int):
        self.run_dir, self.cfg, self.total = Path(run_dir), cfg, total
        self.writer = None
        if cfg.tensorboard:
            from torch.utils.tensorboard import SummaryWriter
            # purge_step drops events of an iteration that a kill interrupted
            self.writer = SummaryWriter(log_dir=str(run_dir / "tb"), purge_step=start + 1)
        self.start_iteration = start
        self.bar = None
        self.metrics = self.run_dir / METRICS
        if self.metrics.exists():  # like purge_step: drop iterations a kill interrupted
            keep = [r for r in read_metrics(self.metrics) if r["iteration"] <= start]
            self.metrics.write_text("".join(json.dumps(r) + "\n" for r in keep))

    def say(self, line: str) -> None:
        """A line on stdout that does not break the bars."""
        if self.bar is not None:
            self.bar.write(line)
        else:
            print(line, flush=True)

    def start(self, resumed: bool, continued: Path | None = None) -> None:
        """The run's first line; then the bar over iterations (on a terminal)."""
        how = f"resumed after iteration {self.start_iteration}" if resumed else "new run"
        if continued is not None:
            how = f"continued from {_short(continued)} after iteration {self.start_iteration}"
        watch = tensorboard_command(self.run_dir / "tb") if self.writer else "TensorBoard off"
        self.say(f"run {_short(self.run_dir)}: {how}, {self.total} iterations; "
                 f"watch: {watch}")
        if self.cfg.progress and is_terminal():
            self.bar = tqdm(total=self.total, initial=self.start_iteration, desc="train",
                            unit="it", position=0, dynamic_ncols=True)

    def nothing_left(self, iteration: int, results: Path) -> None:
        where = f"results in {_short(results)}" if results.exists() else "no results file"
        self.say(f"nothing left to do: {_short(self.run_dir)} already finished {iteration} "
                 f"iteration(s) (trainer.iterations={self.total}); checkpoints in "
                 f"{_short(self.run_dir / 'checkpoints')}, {where}. Raise trainer.iterations "
                 "to train on, or set experiment.run_dir to start afresh.")

    def finish(self, results: Path, minutes: float) -> None:
        avg = "".join(f", {n}" for n in ("average.pt", "average_policy.pt")
                      if (self.run_dir / "checkpoints" / n).exists())
        self.say(f"done in {minutes:.1f} min: checkpoints in "
                 f"{_short(self.run_dir / 'checkpoints')} ({_which(self.run_dir)}{avg}), "
                 "results in "
                 f"{_short(results)}" + (f", TensorBoard logs in {_short(self.run_dir / 'tb')}"
                                         if self.writer else ""))

    def step(self, desc: str, total: int, unit: str) -> Progress:
        """Progress of one step of the current iteration."""
        return Progress(desc, total, unit, enabled=self.cfg.progress,
                        position=1 if self.bar is not None else 0)

    def hparams(self, text: str) -> None:
        if self.writer:
            self.writer.add_text("hyperparameters", "```\n" + text + "\n```", 0)

    def iteration(self, it: int, scalars: dict[str, float],
                  counters: dict[str, float] | None = None) -> None:
        """Scalars of iteration ``it`` (TensorBoard, metrics.jsonl, the progress line);
        ``counters``: the run's totals so far (games, positions, seconds...) for the JSON."""
        rec = {**(counters or {}), "iteration": it}
        rec.update({k: float(v) for k, v in scalars.items()
                    if v is not None and math.isfinite(v)})
        with self.metrics.open("a") as f:
            f.write(json.dumps(rec) + "\n")
        if self.writer:
            for k, v in scalars.items():
                if v is not None and v == v:
                    self.writer.add_scalar(k, v, it)
            self.writer.flush()
        short = {k.split("/")[-1]: round(v, 3) for k, v in scalars.items()
                 if k in ("loss/policy", "loss/value", "eval/exploitability")
                 or k.startswith(("eval/score", "value/fresh_mse"))}
        if self.bar is not None:
            self.bar.set_postfix(short)
            self.bar.update(1)
        else:
            shown = " ".join(f"{k}={v}" for k, v in short.items())
            print(f"iteration {it}/{self.total}: {shown}", flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        if self.writer:
            self.writer.close()
