"""Matches on Ray: the same result as the local pool deal by deal (a planner
included), a worker killed mid-match has its deals replayed with the result
unchanged, and bad settings fail before any deal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import isz
from isz import IszError
from isz.distributed import RayMatches
from isz.evaluation import LocalPool, MatchSpec, SeatSpec, make_backend, play_match
from isz.nn import ModelConfig, build_model, save_checkpoint
from isz.training.config import RayCfg

# a Ray start that hangs fails its test instead of stalling the suite (CI has 90 minutes)
pytestmark = pytest.mark.timeout(300, method="thread")

ROOT = Path(__file__).resolve().parents[2]


def _checkpoint(path: Path) -> str:
    game = isz.make_game("kuhn_poker")
    cfg = ModelConfig(width=8, depth=1)
    return str(save_checkpoint(path, model=build_model(game, cfg), game=game, model_cfg=cfg))


def _planner_spec(ck: str, deals: int = 12) -> MatchSpec:
    return MatchSpec("kuhn_poker", (SeatSpec("planner", {"iterations": 8}, ck),
                                    SeatSpec("so_ismcts", {"iterations": 20})), deals, 3)


def _tricks_spec(deals: int = 10) -> MatchSpec:
    return MatchSpec("tricks", (SeatSpec("so_ismcts", {"iterations": 20}),
                                SeatSpec("pimc", {"iterations": 20, "determinizations": 2})),
                     deals, 7)


def _same(a, b) -> None:
    np.testing.assert_array_equal(a.deal_scores, b.deal_scores)
    for x, y in zip(a.agents, b.agents, strict=True):
        assert (x.name, x.utility, x.decisions, x.simulations_per_decision, x.stats) == \
            (y.name, y.utility, y.decisions, y.simulations_per_decision, y.stats)


def test_a_match_on_ray_equals_the_local_pool_planner_included(local_ray, tmp_path):
    spec = _planner_spec(_checkpoint(tmp_path / "k.pt"))
    ref = play_match(spec, LocalPool(2), progress=False)
    ticks = []
    with RayMatches(workers=2) as backend:
        res = play_match(spec, backend, progress=ticks.append)
        assert len({p for p in backend.pids if p}) == 2  # two worker processes played
        again = play_match(_tricks_spec(4), backend, progress=False)  # the same workers
        assert backend.deaths == 0
    _same(ref, res)
    assert sum(ticks) == spec.deals and (res.backend, res.workers) == ("ray", 2)
    assert res.agents[0].name == "planner" and res.agents[0].simulations_per_decision == 8
    _same(play_match(_tricks_spec(4), progress=False), again)


def test_a_worker_killed_mid_match_has_its_deals_replayed(local_ray, capfd):
    spec = _tricks_spec()
    ref = play_match(spec, progress=False)
    backend = RayMatches(workers=2)
    killed = []

    def kill_one(n):  # a fault hook: after the first deal, kill the other worker's process
        if not killed:
            victim = next(p for p in backend.pids if p is not None)
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    with backend:
        res = play_match(spec, backend, progress=kill_one)
        assert backend.deaths == 1 and backend.replayed >= 1
    _same(ref, res)
    assert "died" in capfd.readouterr().err


def test_too_many_workers_or_a_bad_address_fail_at_once(local_ray):
    spec = _planner_spec("unused", 2)
    with pytest.raises(IszError, match="workers=64 Ray match workers need 64 CPUs"):
        play_match(_tricks_spec(2), RayMatches(workers=64), progress=False)
    t = time.time()
    with pytest.raises(IszError, match="is unreachable"):
        play_match(_tricks_spec(2), make_backend("ray", 2, RayCfg(address="127.0.0.1:9")),
                   progress=False)
    assert time.time() - t < 30
    with pytest.raises(IszError, match="is not a file"):
        play_match(spec, RayMatches(workers=1), progress=False)
    with pytest.raises(IszError, match="backend='mpi'"):
        make_backend("mpi")


@pytest.mark.slow
def test_evaluate_script_on_a_local_ray(tmp_path):
    """``backend=ray``: a new local Ray with 2 workers; the JSON equals the local run's."""
    base = [sys.executable, str(ROOT / "scripts" / "evaluate.py"), "game=tricks",
            "agents=[so_ismcts,pimc]", "iterations=20", "deals=6", "progress=false",
            f"hydra.run.dir={tmp_path / 'h'}"]
    runs = {}
    for name, extra in (("local", ["workers=2"]),
                        ("ray", ["backend=ray", "workers=2", "ray.num_cpus=2"])):
        p = subprocess.run([*base, *extra, f"output={tmp_path / name}.json"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr[-2000:]
        runs[name] = json.loads((tmp_path / f"{name}.json").read_text())["result"]
    assert runs["ray"]["backend"] == "ray" and runs["ray"]["workers"] == 2
    assert runs["ray"]["paired"] == runs["local"]["paired"]
    assert [a["utility"] for a in runs["ray"]["agents"]] == \
        [a["utility"] for a in runs["local"]["agents"]]


def test_training_evaluations_run_on_the_runs_ray(local_ray, tmp_path):
    """With self-play actors the learner's evaluations go to Ray workers asking for no
    CPU (the actors hold them): same scalars as the local pool's."""
    import torch

    from isz.training.evaluation import evaluate
    from tests.recipes import alphazero_config

    cfg = alphazero_config()
    cfg.game.name = "tricks"
    cfg.search.simulations = 6
    cfg.trainer.eval_opponents = ["so_ismcts"]
    cfg.trainer.exploitability_max_histories = 0
    cfg.experiment.run_dir = str(tmp_path)
    game = isz.make_game("tricks")
    model = build_model(game, ModelConfig(8, 1))
    cpu = torch.device("cpu")
    local = evaluate(game, model, cfg, cpu, deals=8, seed=2)
    assert local["eval/se_vs_so_ismcts"] > 0  # the deals differ: the comparison can fail
    holder = local_ray.remote(num_cpus=2)(_Holder).remote()  # as self-play actors would
    local_ray.get(holder.ping.remote())
    cfg.trainer.actors = 1
    try:
        assert evaluate(game, model, cfg, cpu, deals=8, seed=2) == local
    finally:
        local_ray.kill(holder)


class _Holder:
    def ping(self) -> int:
        return 1
