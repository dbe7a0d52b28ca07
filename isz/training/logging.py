"""TensorBoard scalars (prefixes loss/, selfplay/, eval/, belief/, perf/) and a progress bar."""

from __future__ import annotations

import sys
from pathlib import Path

from tqdm import tqdm


class RunLogger:
    """Writes scalars once per iteration; hyperparameters once per run."""

    def __init__(self, run_dir: Path, cfg, start: int, total: int):
        self.writer = None
        if cfg.tensorboard:
            from torch.utils.tensorboard import SummaryWriter
            # purge_step drops events of an iteration that a kill interrupted
            self.writer = SummaryWriter(log_dir=str(run_dir / "tb"), purge_step=start + 1)
        self.bar = tqdm(total=total, initial=start, desc="train", unit="it",
                        disable=not (cfg.progress and sys.stderr.isatty()))
        self.quiet_lines = not (cfg.progress and sys.stderr.isatty())

    def hparams(self, text: str) -> None:
        if self.writer:
            self.writer.add_text("hyperparameters", "```\n" + text + "\n```", 0)

    def iteration(self, it: int, scalars: dict[str, float]) -> None:
        if self.writer:
            for k, v in scalars.items():
                if v is not None and v == v:
                    self.writer.add_scalar(k, v, it)
            self.writer.flush()
        short = {k.split("/")[-1]: round(v, 3) for k, v in scalars.items()
                 if k in ("loss/policy", "loss/value") or k.startswith("eval/score")}
        self.bar.set_postfix(short)
        self.bar.update(1)
        if self.quiet_lines:
            shown = " ".join(f"{k}={v}" for k, v in short.items())
            print(f"iteration {it}: {shown}", flush=True)

    def close(self) -> None:
        self.bar.close()
        if self.writer:
            self.writer.close()
