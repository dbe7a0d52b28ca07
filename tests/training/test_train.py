"""Training: the real entry point runs, resumes after kill -9 losing nothing, and
stops cleanly on a NaN loss."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

import isz
from isz import IszError
from isz.nn.checkpoint import load_checkpoint
from isz.training import loop
from isz.training.config import TrainConfig
from isz.training.learner import TrainingDiverged
from tests.recipes import alphazero_config
from tests.signals import terminal_ctrl_c

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["game=kuhn_poker", "selfplay.games_per_iteration=24", "selfplay.parallel_games=8",
         "search.simulations=16", "trainer.steps_per_iteration=8", "trainer.batch_size=32",
         "trainer.eval_every=0", "trainer.eval_deals=4", "trainer.final_eval_deals=4",
         "trainer.value_check_deals=4", "trainer.root_check_deals=4",
         "trainer.eval_opponents=[random]", "model.width=32", "model.depth=1",
         "trainer.checkpoint_every=1", "logger.progress=false"]


def _train(run_dir: Path, iterations: int, *extra: str, **kw) -> subprocess.Popen:
    cmd = [sys.executable, str(ROOT / "scripts" / "train.py"), *SMALL,
           f"trainer.iterations={iterations}", f"experiment.run_dir={run_dir}", *extra]
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
    ref = _train(tmp_path / "ref", 6)
    assert ref.wait(timeout=300) == 0
    run = tmp_path / "run"
    p = _train(run, 6)
    last = run / "checkpoints" / "last.pt"
    deadline = time.time() + 240
    while time.time() < deadline and not last.exists():
        time.sleep(0.05)
    assert last.exists(), "no checkpoint appeared"
    # Kill at once: somewhere inside iteration 2 (a fast machine may be a little further,
    # never at the end of 6; a kill after the end would test nothing).
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    done = _weights(run)["counters"]["iteration"]
    assert 1 <= done < 6
    again = _train(run, 6)
    assert again.wait(timeout=300) == 0, again.stderr.read()
    assert f"resumed after iteration {done}" in again.stdout.read()
    a, b = _weights(tmp_path / "ref"), _weights(run)
    assert a["counters"] == b["counters"]
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    leftovers = [f for f in (run / "checkpoints").iterdir() if f.name.endswith(".tmp")]
    assert not leftovers


def _children(pid: int) -> list[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_ctrl_c_leaves_no_self_play_worker(tmp_path):
    """Ctrl-C at a terminal (SIGINT to the whole process group) stops the run with one
    line and status 130: the self-play processes (``selfplay.workers=2``) leave the
    signal to the run, print nothing, and end with it."""
    run = tmp_path / "run"
    p = _train(run, 50, "selfplay.workers=2", start_new_session=True,
               preexec_fn=terminal_ctrl_c)
    deadline = time.time() + 240
    while time.time() < deadline and not (run / "checkpoints" / "last.pt").exists():
        time.sleep(0.05)
    workers = _children(p.pid)
    assert len(workers) >= 2, workers  # the crew is up once an iteration is done
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130
    # one line, no traceback of the run or of a worker
    assert err.strip() == (f"stopped (Ctrl-C): {run / 'checkpoints' / 'last.pt'} keeps the "
                           "last finished iteration; the same command resumes from it"), err
    deadline = time.time() + 10
    while time.time() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.05)
    assert not [w for w in workers if Path(f"/proc/{w}").exists()]


def test_progress_where_results_went_and_nothing_left(tmp_path):
    """Not a terminal: a start line, progress lines for every step, an end line; run
    again, it says there is nothing left to do and shows the stored results."""
    run = tmp_path / "run"
    env = {**os.environ, "ISZ_PROGRESS_EVERY_S": "0"}
    p = _train(run, 1, "logger.progress=true", env=env)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    first = out.splitlines()[0]
    assert first.startswith(f"run {run}: new run, 1 iterations; watch: ")
    exe, flag, logdir = first.split("watch: ")[1].split()
    assert Path(exe).is_file() and flag == "--logdir" and Path(logdir) == run / "tb"
    for step in ("self-play 1: 24/24 games", "training 1: 8/8 steps",
                 "eval vs random: 4/4 deals", "exploitability: 12/12 infostates"):
        assert step in err, step
    assert f"checkpoints in {run / 'checkpoints'} (last.pt = best.pt)" in out
    assert f"results in {run / 'results.json'}" in out
    stored = json.loads((run / "results.json").read_text())["final"]
    again = _train(run, 1)
    out2, err2 = again.communicate(timeout=300)
    assert again.returncode == 0, err2
    assert out2.startswith(f"nothing left to do: {run} already finished 1 iteration")
    assert f"eval/score_vs_random             {stored['eval/score_vs_random']:.4f}" in out2


BAD_RUNS = {
    "unknown_option": (["game=chess"], "unknown game option 'chess'"),
    "unknown_belief": (["belief=foo"], "unknown belief option 'foo'"),
    "key_typo": (["trainer.iteratons=5"], "did you mean trainer.iterations?"),
    "wrong_type": (["trainer.iterations=abc"], "bad value 'abc' for trainer.iterations"),
    "added_key": (["+trainer.foo=1"], "unknown config key(s) trainer.foo"),
    "run_dir_is_a_file": (["experiment.run_dir={tmp}/file"], "is not a folder"),
    "run_dir_under_a_file": (["experiment.run_dir={tmp}/file/run"], "which is a file"),
    "continue_from_missing": (["trainer.continue_from={tmp}/none/last.pt"],
                              "/none/last.pt': no such checkpoint file"),
}


@pytest.mark.parametrize("case", sorted(BAD_RUNS))
def test_bad_runs_are_one_line_with_status_2(tmp_path, case):
    (tmp_path / "file").write_text("not a folder")
    args = [a.format(tmp=tmp_path) for a in BAD_RUNS[case][0]]
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "train.py"),
                        f"experiment.run_dir={tmp_path / 'run'}", *args], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("error: ") and p.stderr.count("\n") == 1, p.stderr
    assert BAD_RUNS[case][1] in p.stderr
    assert not (tmp_path / "run").exists()  # checked before hydra or training start


def _tiny_cfg(run_dir: Path) -> TrainConfig:
    cfg = alphazero_config()
    cfg.game.name = "kuhn_poker"
    cfg.selfplay.games_per_iteration = 8
    cfg.selfplay.parallel_games = 8
    cfg.search.simulations = 8
    cfg.trainer.iterations = 2
    cfg.trainer.steps_per_iteration = 2
    cfg.trainer.batch_size = 8
    cfg.trainer.eval_every = 0
    cfg.trainer.eval_opponents = []
    cfg.logger.progress = False
    cfg.logger.tensorboard = False
    cfg.experiment.run_dir = str(run_dir)
    return cfg


def test_disk_too_full_to_start(tmp_path, monkeypatch):
    import shutil

    usage = shutil.disk_usage(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage._replace(free=1 << 20))
    monkeypatch.setattr(loop, "open_source", lambda *a, **k: pytest.fail("self-play started"))
    with pytest.raises(IszError, match=r"has 1 MB free; this run needs about \d+ MB"):
        loop.train(_tiny_cfg(tmp_path / "run"))


def test_disk_full_while_saving_is_one_line(tmp_path, monkeypatch, capsys):
    import errno

    from isz.cli import one_line_errors

    def full(run_dir, *a, **k):
        raise OSError(errno.ENOSPC, "No space left on device", str(run_dir / "last.pt"))

    monkeypatch.setattr(loop.run_state, "save", full)
    with pytest.raises(SystemExit) as info, one_line_errors():
        loop.train(_tiny_cfg(tmp_path / "run"))
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no space left on the device writing") and "last.pt" in err
    assert err.count("\n") == 1


def test_nan_loss_stops_with_last_good_checkpoint(tmp_path, monkeypatch):
    cfg = _tiny_cfg(tmp_path / "run")
    cfg.trainer.iterations = 3
    from isz.training import learner

    real = learner.train_step  # what the loop's train_steps calls
    calls = {"n": 0}

    def poisoned(model, opt, sched, batch, device, value_weight, **kw):
        calls["n"] += 1
        if calls["n"] > 2:  # iteration 2
            batch.returns[:] = float("nan")
        return real(model, opt, sched, batch, device, value_weight, **kw)

    monkeypatch.setattr(learner, "train_step", poisoned)
    with pytest.raises(TrainingDiverged, match="loss became nan"):
        loop.train(cfg)
    assert _weights(tmp_path / "run")["counters"]["iteration"] == 1


def test_continue_from_is_resuming_a_copy(tmp_path, capsys):
    """A new folder with ``continue_from`` ends bit-identical to a copy of the source
    run resumed with the same config; the source is only read; then it resumes itself."""
    import shutil

    base = _tiny_cfg(tmp_path / "base")
    loop.train(base)
    shutil.copytree(tmp_path / "base", tmp_path / "copy")
    before = (tmp_path / "base" / "checkpoints" / "last.pt").read_bytes()
    copy = _tiny_cfg(tmp_path / "copy")
    copy.trainer.iterations = 3
    loop.train(copy)
    nxt = _tiny_cfg(tmp_path / "next")
    nxt.trainer.iterations = 3
    nxt.trainer.continue_from = str(tmp_path / "base" / "checkpoints" / "last.pt")
    capsys.readouterr()
    loop.train(nxt)
    assert "continued from" in capsys.readouterr().out
    a, b = _weights(tmp_path / "copy"), _weights(tmp_path / "next")
    assert a["counters"] == b["counters"] and b["counters"]["iteration"] == 3
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    assert (tmp_path / "base" / "checkpoints" / "last.pt").read_bytes() == before
    nxt.trainer.iterations = 4  # now its own last.pt: a resume, continue_from ignored
    loop.train(nxt)
    assert "resumed after iteration 3" in capsys.readouterr().out
    shutil.rmtree(tmp_path / "base")  # the source gone: a resume does not need it
    nxt.trainer.iterations = 5
    loop.train(nxt)
    assert "resumed after iteration 4" in capsys.readouterr().out


def test_a_slow_sampler_gets_a_note(tmp_path, monkeypatch, capsys):
    """Self-play that spends most of its time drawing worlds says so once, naming the
    belief; the share is in the metrics (``perf/belief_share``)."""
    from isz.belief.uniform import UniformBelief

    real = UniformBelief.sample_many

    def slow(self, view, n, rng):
        time.sleep(0.04)  # a resampler that enumerates, say, a few hundred placements
        return real(self, view, n, rng)

    monkeypatch.setattr(UniformBelief, "sample_many", slow)
    loop.train(_tiny_cfg(tmp_path / "run"))
    out = capsys.readouterr().out
    assert out.count("note: drawing worlds took") == 1, out  # once, not each iteration
    assert "(belief 'uniform' on 'kuhn_poker')" in out
    lines = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    shares = [x["perf/belief_share"] for x in lines if "perf/belief_share" in x]
    assert len(shares) == 2 and max(shares) > 0.7 and all(0 < s <= 1 for s in shares)


def test_a_run_saved_before_buffer_segments_resumes(tmp_path, capsys):
    """A run whose ``last.pt`` names one whole-ring buffer file (``buffer_file``, as
    before segments) resumes bit-identical to one resumed from its segments (in one
    process, as `test_continue_from_is_resuming_a_copy`), its next save writing the ring
    as a segment and removing the old file."""
    import shutil

    import numpy as np

    from isz.training.buffer import ReplayBuffer

    old = _tiny_cfg(tmp_path / "old")
    loop.train(old)
    shutil.copytree(tmp_path / "old", tmp_path / "ref")
    ref = _tiny_cfg(tmp_path / "ref")
    ref.trainer.iterations = 3
    loop.train(ref)
    ck = tmp_path / "old" / "checkpoints"
    saved = torch.load(ck / "last.pt", weights_only=True)
    meta = saved["extra"].pop("buffer")
    buf = ReplayBuffer.load_segments(ck, meta["capacity"], meta["files"])
    for name in meta["files"]:
        (ck / name).unlink()
    buf.save(ck / "buffer-000002.npz")  # the whole ring in one file, as runs saved it
    saved["extra"]["buffer_file"] = "buffer-000002.npz"
    torch.save(saved, ck / "last.pt")
    old.trainer.iterations = 3
    capsys.readouterr()
    loop.train(old)
    assert "resumed after iteration 2" in capsys.readouterr().out
    a, b = _weights(tmp_path / "ref"), _weights(tmp_path / "old")
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k
    assert sorted(p.name for p in ck.glob("buffer-*")) == ["buffer-000003.npz"]
    assert b["extra"]["buffer"]["files"] == ["buffer-000003.npz"]
    # that one segment is the whole ring, not iteration 3's rows alone
    mine, theirs = (ReplayBuffer.load_segments(d, c["extra"]["buffer"]["capacity"],
                                               c["extra"]["buffer"]["files"])
                    for d, c in ((ck, b), (tmp_path / "ref" / "checkpoints", a)))
    assert mine.total_added == theirs.total_added > 0 and len(theirs.segments) == 3
    for f, arr in theirs.arrays.items():
        np.testing.assert_array_equal(mine.arrays[f], arr)


def test_finish_line_says_which_iteration_best_is(tmp_path):
    """The end line names best.pt's iteration when it is not last.pt's: only last.pt holds
    the final checks' verdict."""
    from isz.nn import ModelConfig, build_model, save_checkpoint
    from isz.training.logging import _which

    game = isz.make_game("kuhn_poker")
    net, cfg = build_model(game, ModelConfig(width=8, depth=1)), ModelConfig(width=8, depth=1)
    ck = tmp_path / "checkpoints"
    assert _which(tmp_path) == "last.pt"  # no best.pt (nothing evaluated)
    for name, it in (("last.pt", 40), ("best.pt", 30)):
        save_checkpoint(ck / name, model=net, game=game, model_cfg=cfg,
                        counters={"iteration": it})
    assert _which(tmp_path) == "last.pt; best.pt: iteration 30, its best evaluation"
    save_checkpoint(ck / "best.pt", model=net, game=game, model_cfg=cfg,
                    counters={"iteration": 40})
    assert _which(tmp_path) == "last.pt = best.pt"
