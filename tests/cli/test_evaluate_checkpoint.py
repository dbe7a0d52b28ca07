"""`isz-evaluate checkpoint=PATH` plays the trained planner in the arena."""

from __future__ import annotations

import json

import pytest

import isz
from isz.cli import evaluate
from isz.nn import ModelConfig, build_model, save_checkpoint


@pytest.fixture
def run(command, tmp_path, monkeypatch):
    """``run(*args)``: isz-evaluate with ``args``, launched from ``tmp_path``, writing
    ``tmp_path / "out.json"``."""
    monkeypatch.chdir(tmp_path)
    return lambda *args: command(evaluate.main, *args, "progress=false",
                                 f"output={tmp_path / 'out.json'}",
                                 f"hydra.run.dir={tmp_path / 'run'}")


def _kuhn_checkpoint(tmp_path, **kw):
    """A small untrained Kuhn checkpoint at ``tmp_path / "k.pt"``."""
    game = isz.make_game("kuhn_poker")
    cfg = ModelConfig(width=8, depth=1)
    return save_checkpoint(tmp_path / "k.pt", model=build_model(game, cfg), game=game,
                           model_cfg=cfg, **kw)


def test_checkpoint_plays_as_planner(tmp_path, run):
    ck = _kuhn_checkpoint(tmp_path)
    r = run(f"checkpoint={ck}", "agents=[planner,random]", "deals=3",
             "iterations=8")
    assert r.returncode == 0, r.stderr
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["config"]["game"] == "kuhn_poker"
    assert out["result"]["agents"][0]["name"] == "planner"  # the name the user gave
    bad = run(f"checkpoint={ck}", "game=leduc_poker", "deals=1")
    assert bad.returncode == 2 and "made for game" in bad.stderr
    assert "Traceback" not in bad.stderr
    (tmp_path / "broken.pt").write_bytes(ck.read_bytes()[:200])
    broken = run(f"checkpoint={tmp_path / 'broken.pt'}", "deals=1")
    assert broken.returncode == 2 and "broken.pt" in broken.stderr


def test_exploitability_of_every_agent(tmp_path, run):
    ck = _kuhn_checkpoint(tmp_path)
    r = run(f"checkpoint={ck}", "agents=[planner,random]", "deals=2",
             "iterations=8", "exploitability=true", "knobs.planner.final=visit_distribution")
    assert r.returncode == 0, r.stderr
    out = json.loads((tmp_path / "out.json").read_text())["exploitability"]
    assert out["random {}"] == pytest.approx(0.458333, abs=1e-6)
    (planner,) = [v for k, v in out.items() if k.startswith("planner")]
    assert 0.0 < planner < 2.0
    work = json.loads((tmp_path / "out.json").read_text())["exploitability_work"]
    (pw,) = [v for k, v in work.items() if k.startswith("planner")]
    assert pw["infostates"] == 12 and pw["simulations_per_infostate"] == 8
    assert pw["seconds_per_infostate"] > 0
    assert work["random {}"]["simulations_per_infostate"] == 0
    bad = run("game=tricks", "agents=[random]", "deals=1", "exploitability=true")
    assert bad.returncode == 2 and "histories" in bad.stderr


def test_load_planner_defaults_to_the_recorded_search_settings(tmp_path, run):
    recorded = {"iterations": 48, "belief": "posterior", "opponents": "evaluate",
                "final": "mirror", "mirror_eta": 3.0}
    ck = _kuhn_checkpoint(tmp_path, extra={"planner": recorded})
    agent = isz.load_planner(str(ck), device="cpu")
    assert agent.iterations == 48 and agent.belief.name == "posterior"
    assert agent.final == "mirror" and agent.cfg.opponents == "evaluate"
    assert agent.mirror_eta == 3.0
    assert isz.load_planner(str(ck), device="cpu", iterations=8).iterations == 8


def test_equal_time_per_move_with_planner_in_worker_processes(tmp_path, run):
    """time_per_move gives every searching agent the same wall budget; the JSON says
    what each spent; the planner plays in worker processes like any agent."""
    ck = _kuhn_checkpoint(tmp_path)
    r = run(f"checkpoint={ck}", "agents=[planner,so_ismcts]", "deals=4",
             "time_per_move=0.02", "workers=2")
    assert r.returncode == 0, r.stderr
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["config"]["time_per_move"] == 0.02
    assert [s["knobs"] for s in out["seats"]] == [{"time_budget": 0.02}] * 2
    for a in out["result"]["agents"]:
        assert a["decisions"] >= 8  # every game has a decision of each seat
        assert a["simulations_per_decision"] > 1
        assert 0.015 < a["seconds_per_decision"] < 1.0
    bad = run("game=kuhn_poker", "agents=[random]", "time_per_move=-1")
    assert bad.returncode == 2 and "time_per_move" in bad.stderr
