"""Recon trains with the network-driven particle filter (belief=particle, policy=network):
the real entry point runs one iteration, logs the filter under belief/, and records the
belief with its knobs for the planner it saves."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from isz.nn.checkpoint import load_checkpoint
from isz.training.config import validate
from tests.recipes import alphazero_config
from tests.training.test_train import SMALL

ROOT = Path(__file__).resolve().parents[2]
RECON = [a for a in SMALL if not a.startswith("game=") and "eval_opponents" not in a] + [
    "game=recon", "belief=particle", "belief.policy=network", "belief.knobs.particles=200",
    "trainer.eval_opponents=[so_ismcts]", "trainer.iterations=1"]


def test_one_iteration_with_the_network_particle_filter(tmp_path):
    run = tmp_path / "run"
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "train.py"), *RECON,
                        f"experiment.run_dir={run}"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    assert "eval/score_vs_so_ismcts" in p.stdout
    planner = load_checkpoint(run / "checkpoints" / "last.pt")["extra"]["planner"]
    assert planner["belief"] == {"name": "particle", "particles": 200,
                                 "resample_threshold": 0.5, "seed": 0}
    assert planner["belief_policy"] == "network"
    acc = EventAccumulator(str(run / "tb"))
    acc.Reload()
    scalars = {k: acc.Scalars(k)[-1].value for k in acc.Tags()["scalars"]}
    assert 0 < scalars["belief/ess"] <= 200
    assert 0 < scalars["belief/ess_fraction"] <= 1
    assert 0 < scalars["belief/true_slot_probability"] <= 1
    assert 0 < scalars["belief/slot_entropy"] <= 2.08  # log 8 slots
    assert 0 <= scalars["belief/resample_rate"] <= 1


def test_unknown_belief_knob_is_named():
    cfg = alphazero_config()
    cfg.game.name, cfg.belief.name, cfg.belief.knobs = "recon", "particle", {"particle": 5}
    try:
        validate(cfg)
    except Exception as e:  # noqa: BLE001 - the message is what is checked
        assert "belief.knobs particle" in str(e) and "particles" in str(e)
    else:
        raise AssertionError("no error")
