"""Learning through search, measured: exact exploitability of the trained planner
(PUCT-ISMCTS with the network) and of the raw network, on Kuhn and Leduc poker.

Uniform random play: Kuhn 0.4583, Leduc 2.3736 (NashConv / 2, in chips).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _train(run_dir: Path, *overrides: str, timeout: int) -> dict[str, float]:
    cmd = [sys.executable, str(ROOT / "scripts" / "train.py"), *overrides,
           f"experiment.run_dir={run_dir}", "logger.progress=false", "logger.tensorboard=false"]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, p.stderr[-3000:]
    return {k: float(v) for k, v in re.findall(r"^(eval/\S+)\s+([-\d.]+)$", p.stdout, re.M)}


def test_kuhn_short_run_learns_far_below_uniform(tmp_path):
    out = _train(tmp_path / "run", "experiment=kuhn_nash", "trainer.iterations=12",
                 "selfplay.games_per_iteration=128", "trainer.steps_per_iteration=50",
                 "trainer.eval_every=0", "trainer.eval_opponents=[]", timeout=600)
    assert out["eval/exploitability"] < 0.2
    assert out["eval/exploitability_net"] < 0.2


@pytest.mark.slow
def test_kuhn_nash_preset_below_0_10(tmp_path):
    out = _train(tmp_path / "run", "experiment=kuhn_nash", timeout=1800)
    assert out["eval/exploitability"] < 0.10
    assert out["eval/exploitability_net"] < 0.10
