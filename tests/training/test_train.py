"""Training: the real entry point runs, resumes after kill -9 losing nothing, and
stops cleanly on a NaN loss."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from isz.nn.checkpoint import load_checkpoint
from isz.training import loop
from isz.training.config import TrainConfig
from isz.training.learner import TrainingDiverged

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["game=kuhn_poker", "selfplay.games_per_iteration=24", "selfplay.parallel_games=8",
         "search.simulations=16", "trainer.steps_per_iteration=8", "trainer.batch_size=32",
         "trainer.eval_every=0", "trainer.eval_deals=4", "trainer.final_eval_deals=4",
         "trainer.eval_opponents=[random]", "model.width=32", "model.depth=1",
         "trainer.checkpoint_every=1", "logger.progress=false"]


def _train(run_dir: Path, iterations: int, **kw) -> subprocess.Popen:
    cmd = [sys.executable, str(ROOT / "scripts" / "train.py"), *SMALL,
           f"trainer.iterations={iterations}", f"experiment.run_dir={run_dir}"]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kw)


def _weights(run_dir: Path) -> dict:
    return load_checkpoint(run_dir / "checkpoints" / "last.pt")


def test_two_iteration_smoke_run(tmp_path):
    p = _train(tmp_path / "run", 2)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    assert "eval/exploitability" in out and "eval/score_vs_random" in out
    ck = _weights(tmp_path / "run")
    assert ck["counters"]["iteration"] == 2
    assert ck["counters"]["games"] == 48
    assert any((tmp_path / "run" / "tb").iterdir())  # TensorBoard events


def test_kill_and_resume_loses_nothing(tmp_path):
    """A run killed with SIGKILL mid-way and re-run ends bit-identical to an unbroken one."""
    ref = _train(tmp_path / "ref", 3)
    assert ref.wait(timeout=300) == 0
    run = tmp_path / "run"
    p = _train(run, 3)
    last = run / "checkpoints" / "last.pt"
    deadline = time.time() + 240
    while time.time() < deadline and not last.exists():
        time.sleep(0.05)
    assert last.exists(), "no checkpoint appeared"
    time.sleep(0.3)  # somewhere inside iteration 2 (or later)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    done = _weights(run)["counters"]["iteration"]
    assert 1 <= done <= 3
    again = _train(run, 3)
    assert again.wait(timeout=300) == 0, again.stderr.read()
    a, b = _weights(tmp_path / "ref"), _weights(run)
    assert a["counters"] == b["counters"]
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    leftovers = [f for f in (run / "checkpoints").iterdir() if f.name.endswith(".tmp")]
    assert not leftovers


def test_nan_loss_stops_with_last_good_checkpoint(tmp_path, monkeypatch):
    cfg = TrainConfig()
    cfg.game.name = "kuhn_poker"
    cfg.selfplay.games_per_iteration = 8
    cfg.selfplay.parallel_games = 8
    cfg.search.simulations = 8
    cfg.trainer.iterations = 3
    cfg.trainer.steps_per_iteration = 2
    cfg.trainer.batch_size = 8
    cfg.trainer.eval_every = 0
    cfg.trainer.eval_opponents = []
    cfg.logger.progress = False
    cfg.logger.tensorboard = False
    cfg.experiment.run_dir = str(tmp_path / "run")
    real = loop.train_step
    calls = {"n": 0}

    def poisoned(model, opt, sched, batch, device, value_weight):
        calls["n"] += 1
        if calls["n"] > 2:  # iteration 2
            batch.returns[:] = float("nan")
        return real(model, opt, sched, batch, device, value_weight)

    monkeypatch.setattr(loop, "train_step", poisoned)
    with pytest.raises(TrainingDiverged, match="loss became nan"):
        loop.train(cfg)
    assert _weights(tmp_path / "run")["counters"]["iteration"] == 1
