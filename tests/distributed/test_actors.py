"""Self-play on Ray actors: a short run, stale positions dropped, an actor killed
mid-run is restarted while the run goes on, and bad configurations fail at once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from ray.exceptions import ActorUnavailableError

from isz import IszError
from isz.distributed.source import RaySelfPlay
from isz.nn.checkpoint import load_checkpoint
from isz.training import loop
from isz.training.config import TrainConfig

# a Ray start that hangs fails its test instead of stalling the suite (CI has 90 minutes)
pytestmark = pytest.mark.timeout(300, method="thread")

ROOT = Path(__file__).resolve().parents[2]


def _cfg(run_dir: Path, iterations: int = 2, actors: int = 2) -> TrainConfig:
    cfg = TrainConfig()
    cfg.game.name = "kuhn_poker"
    cfg.selfplay.games_per_iteration = 16
    cfg.selfplay.parallel_games = 8
    cfg.search.simulations = 8
    cfg.model.width, cfg.model.depth = 16, 1
    cfg.trainer.iterations = iterations
    cfg.trainer.steps_per_iteration = 4
    cfg.trainer.batch_size = 16
    cfg.trainer.eval_every = 0
    cfg.trainer.final_eval_deals = 1
    cfg.trainer.value_check_deals = cfg.trainer.root_check_deals = 2
    cfg.trainer.eval_opponents = []
    cfg.trainer.actors = actors
    cfg.logger.progress = False
    cfg.ray.start_timeout_s = 180
    cfg.experiment.run_dir = str(run_dir)
    return cfg


def _counters(run_dir: Path) -> dict:
    return load_checkpoint(run_dir / "checkpoints" / "last.pt")["counters"]


def test_two_iterations_with_two_actors_drop_stale_chunks(local_ray, tmp_path):
    """max_staleness=0: the chunks queued before a publication are dropped and counted."""
    cfg = _cfg(tmp_path / "run")
    cfg.trainer.max_staleness = 0
    scalars = loop.train(cfg)
    c = _counters(tmp_path / "run")
    assert c["iteration"] == 2 and c["games"] == 32 and c["steps"] == 8
    # each actor had ray.inflight version-0 requests queued when version 1 was published
    assert c["dropped_positions"] > 0 and c["actor_deaths"] == 0
    assert scalars["selfplay/dropped_positions"] == c["dropped_positions"]
    assert 0 < scalars["perf/replay_ratio"] and scalars["perf/learner_samples_per_s"] > 0
    assert any(k.startswith("perf/actor") and k.endswith("/positions_per_s") for k in scalars)
    assert local_ray.is_initialized()  # a Ray the run did not start is left running
    assert any((tmp_path / "run" / "tb").iterdir())


# every Python process this test starts (the actor, its restart) imports torch and loads
# the kernels: 14 s idle, 210-300 s with both cores busy elsewhere, where 300 s of the
# module's timeout stopped it (method=thread ends the xdist worker too)
@pytest.mark.timeout(600, method="thread")
def test_killed_actor_is_restarted_and_the_run_continues(local_ray, tmp_path, monkeypatch):
    """One actor, so the run cannot finish without seeing its death: with two, the
    survivor could play all 6 chunks before Ray reports the victim's queued requests
    as failed (about 2 s after the kill), and the death would go uncounted. No final
    checks: their match workers are more processes to start, and the first test covers
    them on Ray."""
    run = tmp_path / "run"
    cfg = _cfg(run, iterations=3, actors=1)
    cfg.trainer.value_check_deals = cfg.trainer.root_check_deals = 0
    restarted = {}
    real_close = RaySelfPlay.close

    def close(self):  # before the actors go: ask the killed one its (new) process id
        deadline = time.time() + 120
        while self.actors and "pid" not in restarted and time.time() < deadline:
            try:
                restarted["pid"] = local_ray.get(self.actors[0].pid.remote(), timeout=120)
            except ActorUnavailableError:  # still restarting
                time.sleep(0.5)
        real_close(self)

    monkeypatch.setattr(RaySelfPlay, "close", close)
    errors = []
    th = threading.Thread(target=lambda: _run_catching(cfg, errors))
    th.start()
    pids = run / "actors.json"
    deadline = time.time() + 180
    while not pids.exists() and time.time() < deadline:
        time.sleep(0.05)
    victim = json.loads(pids.read_text())["pids"][0]
    os.kill(victim, signal.SIGKILL)  # while it plays (or compiles) its first chunk
    th.join(timeout=600)
    assert not th.is_alive() and not errors, errors
    c = _counters(run)
    assert c["iteration"] == 3 and c["games"] == 48
    assert c["actor_deaths"] == 1 and c["lost_games"] == cfg.selfplay.parallel_games
    assert restarted["pid"] != victim


def _run_catching(cfg, errors):
    try:
        loop.train(cfg)
    except BaseException as e:  # reported by the test thread
        errors.append(e)


@pytest.mark.parametrize("override, message", [
    ({"actors": 64}, "trainer.actors=64 needs 64 CPUs"),
    pytest.param({"device": "cuda"}, "selfplay.device=cuda needs",
                 marks=pytest.mark.skipif(torch.cuda.is_available(), reason="has a GPU")),
    ({"address": "127.0.0.1:9"}, "is unreachable"),
])
def test_bad_configuration_fails_at_start(tmp_path, override, message):
    cfg = _cfg(tmp_path / "run")
    cfg.trainer.actors = override.get("actors", 2)
    cfg.selfplay.device = override.get("device", "cpu")
    cfg.ray.address = override.get("address")
    t = time.time()
    with pytest.raises(IszError, match=message):
        loop.train(cfg)
    assert time.time() - t < 30


def test_train_script_rejects_too_many_actors_in_one_line(tmp_path):
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "train.py"), "game=kuhn_poker",
                        "trainer.actors=999", f"experiment.run_dir={tmp_path / 'run'}"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines()[-1].startswith("error: trainer.actors=999 needs")


@pytest.mark.slow
def test_learner_killed_resumes_with_its_buffer(tmp_path):
    """kill -9 of the learner, then the same command: the run ends, the replay
    buffer it had saved is the start of the final one (nothing lost)."""
    from isz.training.buffer import ReplayBuffer

    run = tmp_path / "run"
    cmd = [sys.executable, str(ROOT / "scripts" / "train.py"), "game=kuhn_poker",
           "selfplay.games_per_iteration=16", "selfplay.parallel_games=8", "search.simulations=8",
           "model.width=16", "model.depth=1", "trainer.steps_per_iteration=4",
           "trainer.batch_size=16", "trainer.eval_every=0", "trainer.final_eval_deals=1",
           "trainer.value_check_deals=2", "trainer.root_check_deals=2",
           "trainer.eval_opponents=[]", "trainer.iterations=6", "trainer.actors=2",
           "logger.progress=false", f"experiment.run_dir={run}"]
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    last = run / "checkpoints" / "last.pt"
    deadline = time.time() + 400
    while not last.exists() and time.time() < deadline:
        time.sleep(0.05)
    assert last.exists(), "no checkpoint appeared"
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    ck = load_checkpoint(last)
    before = ReplayBuffer.load(last.parent / ck["extra"]["buffer_file"])
    again = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-2000:]
    c = _counters(run)
    assert c["iteration"] == 6 and c["games"] == 6 * 16
    after = ReplayBuffer.load(last.parent / load_checkpoint(last)["extra"]["buffer_file"])
    n = before.size
    assert after.size > n
    for f, a in before.arrays.items():
        np.testing.assert_array_equal(after.arrays[f][:n], a[:n])


def test_actors_import_an_outside_game_module(local_ray, goofspiel, tmp_path):
    """game.module reaches the actor processes: they register the game before making it."""
    cfg = _cfg(tmp_path / "run", iterations=1, actors=1)
    cfg.game.name, cfg.game.module, cfg.game.params = "goofspiel", "examples.goofspiel", {
        "cards": 3}
    loop.train(cfg)
    assert _counters(tmp_path / "run")["games"] == 16
