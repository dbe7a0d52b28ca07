"""The moving magnet of the mirror target (``search.magnet=network``) and turn-taking root
selection (``search.root_selection=uniform``): validated knobs,
a snapshot of the network that switches every ``magnet_every`` iterations, carried
through a resume, and the exploitability it reaches on Kuhn (slow)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from isz import IszError
from isz.nn.checkpoint import load_checkpoint
from isz.training import loop
from isz.training.config import TrainConfig, validate
from isz.training.logging import read_metrics
from tests.training.kuhn_mirror import kuhn_mirror_cfg, train_stopped_after

ROOT = Path(__file__).resolve().parents[2]


def _cfg(run_dir: Path, iterations: int = 4) -> TrainConfig:
    cfg = kuhn_mirror_cfg(run_dir, iterations)
    cfg.search.magnet = "network"
    cfg.search.magnet_every = 2
    return cfg


@pytest.mark.parametrize("change,message", [
    ({"magnet": "average"}, "search.magnet"),
    ({"magnet_every": 0}, "search.magnet_every"),
    ({"target": "visits"}, "needs search.target=mirror"),
    ({"mirror_alpha": 0.0}, "needs search.mirror_alpha > 0"),
    ({"root_selection": "greedy"}, "search.root_selection"),
    ({"planner_eta": 0.0}, "search.planner_eta must be a number > 0 or null"),
    ({"root_selection": "uniform", "magnet": "uniform", "target": "visits"},
     "search.root_selection=uniform needs search.target=mirror"),
])
def test_bad_magnet_settings_are_named(tmp_path, change, message):
    cfg = _cfg(tmp_path)
    for k, v in change.items():
        setattr(cfg.search, k, v)
    with pytest.raises(IszError, match=re.escape(message)):
        validate(cfg)


def test_network_magnet_refuses_actors(tmp_path):
    cfg = _cfg(tmp_path)
    cfg.trainer.actors = 1
    with pytest.raises(IszError, match="trainer.actors=0"):
        validate(cfg)


def test_uniform_magnet_needs_nothing_else(tmp_path):
    cfg = _cfg(tmp_path)
    cfg.search.magnet, cfg.search.target, cfg.search.mirror_alpha = "uniform", "visits", 0.0
    validate(cfg)  # the default: every preset as before


def test_planner_knobs_carry_root_selection_and_planner_eta(tmp_path):
    from isz.training.evaluation import planner_knobs

    cfg = _cfg(tmp_path)
    cfg.search.root_selection = "uniform"
    knobs = planner_knobs(cfg)
    assert knobs["root_selection"] == "uniform" and knobs["final"] == "mirror"
    assert knobs["mirror_eta"] == cfg.search.mirror_eta  # planner_eta null: the same step
    cfg.search.planner_eta = 0.5
    assert planner_knobs(cfg)["mirror_eta"] == 0.5


def test_planner_common_worlds_is_the_planners_alone(tmp_path):
    """``search.planner_common_worlds``: the planner record takes it (null: the
    ``common_worlds`` self-play uses); self-play's own search does not change."""
    from isz.training.evaluation import planner_knobs
    from isz.training.loop import _selfplay_cfg

    cfg = _cfg(tmp_path)
    cfg.search.root_selection = "uniform"
    assert planner_knobs(cfg)["common_worlds"] is False
    before = _selfplay_cfg(cfg)
    cfg.search.planner_common_worlds = True
    validate(cfg)
    assert planner_knobs(cfg)["common_worlds"] is True
    assert _selfplay_cfg(cfg) == before
    cfg.search.root_selection = "puct"
    with pytest.raises(IszError, match="search.planner_common_worlds=true needs "
                                       "search.root_selection=uniform"):
        validate(cfg)


def _weights_equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_magnet_switches_every_k_iterations_and_survives_a_resume(tmp_path, monkeypatch):
    ref = tmp_path / "ref"
    loop.train(_cfg(ref, 5))
    rows = read_metrics(ref / "metrics.jsonl")
    assert [r["iteration"] for r in rows] == [1, 2, 3, 4, 5]
    # iterations 1-2 pull toward the initial network, 3-4 toward iteration 2's, ...
    assert [r["selfplay/magnet_iteration"] for r in rows] == [0, 0, 2, 2, 4]
    assert all(r["positions"] > 0 and r["work_s"] > 0 for r in rows)
    assert all(a["elapsed_s"] < b["elapsed_s"] for a, b in zip(rows, rows[1:], strict=False))
    ck = ref / "checkpoints"
    magnet = load_checkpoint(ck / "last.pt")["extra"]["magnet"]
    assert magnet["iteration"] == 4
    assert _weights_equal(magnet["state"], load_checkpoint(ck / "iter-000004.pt")["model"])
    assert not _weights_equal(magnet["state"], load_checkpoint(ck / "last.pt")["model"])

    # stop after iteration 3 (the magnet is iteration 2's), resume: same run to the bit
    run = tmp_path / "run"
    train_stopped_after(monkeypatch, _cfg(run, 5), saves=3)
    loop.train(_cfg(run, 5))
    a, b = load_checkpoint(ref / "checkpoints" / "last.pt"), \
        load_checkpoint(run / "checkpoints" / "last.pt")
    assert _weights_equal(a["model"], b["model"])
    assert [r["selfplay/magnet_iteration"] for r in read_metrics(run / "metrics.jsonl")] \
        == [0, 0, 2, 2, 4]


def test_metrics_keep_only_iterations_the_checkpoint_has(tmp_path):
    """A resume after iteration 2 drops later lines (and a torn one) before appending."""
    from isz.training.config import LoggerCfg
    from isz.training.logging import RunLogger

    lines = [json.dumps({"iteration": i, "positions": 10 * i}) for i in (1, 2, 3)]
    (tmp_path / "metrics.jsonl").write_text("\n".join(lines) + '\n{"iteration": 4, "po')
    log = RunLogger(tmp_path, LoggerCfg(tensorboard=False, progress=False), start=2, total=5)
    log.iteration(3, {"loss/policy": 0.5, "eval/x": float("nan")}, {"positions": 31})
    rows = read_metrics(tmp_path / "metrics.jsonl")
    assert rows == [{"iteration": 1, "positions": 10}, {"iteration": 2, "positions": 20},
                    {"iteration": 3, "positions": 31, "loss/policy": 0.5}]


def test_learned_loop_with_moving_magnet_moves_kuhn_toward_nash(tmp_path):
    """The learned loop (not the tabular q): Kuhn with ``search.magnet=network`` for a small
    budget (80 iterations of 32 games x 16 simulations, 16 steps of 64; ~8 s on one core),
    training seed 0; the final network's exact exploitability is well below the uniform
    policy's 0.4583. Measured: 0.124 with the magnet (seeds 1, 2: 0.135, 0.122); the same
    budget without it (search.magnet=uniform): 0.146, 0.129, 0.146 for seeds 0-2, so the
    magnet wins on 2 seeds of 3 only, and no ordering is asserted. Bound 0.25: about twice
    the measured value, half the uniform policy's."""
    from isz import load_planner
    from isz.evaluation.exploitability import exploitability, uniform_policy
    from isz.search.evaluator import evaluator_policy

    cfg = _cfg(tmp_path, iterations=80)
    cfg.selfplay.games_per_iteration = 32
    cfg.search.simulations = 16
    cfg.trainer.steps_per_iteration = 16
    cfg.trainer.batch_size = 64
    cfg.trainer.checkpoint_every = 80
    cfg.trainer.seed = 0
    loop.train(cfg)
    planner = load_planner(str(tmp_path / "checkpoints" / "last.pt"), device="cpu")
    game = planner.game
    uniform = exploitability(game, uniform_policy).exploitability
    assert uniform == pytest.approx(0.4583, abs=1e-3)
    net = exploitability(game, evaluator_policy(planner.evaluator)).exploitability
    assert net < 0.25, net


@pytest.mark.slow
def test_kuhn_nash_magnet_preset_final_checkpoint_below_0_01(tmp_path):
    """The goal of issue 12 on Kuhn: the final checkpoint (not best.pt) of
    ``experiment=kuhn_nash_magnet`` (training seed 0) below 0.01, raw network and
    planner (the mean over planner seeds 0-4); kuhn_nash stays near 0.05."""
    from isz import load_planner
    from isz.evaluation.exploitability import agent_policy, exploitability
    from isz.search.evaluator import evaluator_policy

    run = tmp_path / "run"
    cmd = [sys.executable, str(ROOT / "scripts" / "train.py"), "experiment=kuhn_nash_magnet",
           f"experiment.run_dir={run}", "logger.progress=false", "logger.tensorboard=false",
           "trainer.eval_opponents=[]"]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert p.returncode == 0, p.stderr[-3000:]
    planner = load_planner(str(run / "checkpoints" / "last.pt"), device="cpu")
    assert planner.cfg.root_selection == "uniform" and planner.final == "mirror"
    game = planner.game
    assert exploitability(game, evaluator_policy(planner.evaluator)).exploitability < 0.01
    per_seed = [exploitability(game, agent_policy(planner, s)).exploitability
                for s in range(5)]
    assert sum(per_seed) / 5 < 0.01, per_seed
