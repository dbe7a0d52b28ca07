"""scripts/evaluate.py end to end: a real run writes JSON; user errors exit cleanly."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "evaluate.py"

ERROR_CASES = {
    "unknown_game": (["game=no_such_game"], "no_such_game"),
    "unknown_agent": (["game=kuhn_poker", "agents=[random,no_such_agent]"], "no_such_agent"),
    "zero_deals": (["game=kuhn_poker", "agents=[random]", "deals=0"], "deals"),
    "zero_iterations": (["game=kuhn_poker", "agents=[random]", "iterations=0"], "iterations"),
    "typo_key": (["game=kuhn_poker", "agents=[random]", "deal=3"], "deal"),
    "added_typo_key": (["game=kuhn_poker", "agents=[random]", "+dealz=3"], "dealz"),
    "unknown_knob": (["game=kuhn_poker", "agents=[random]", "knobs.random.wrld=2"], "wrld"),
    "too_many_agents": (["game=coin_guess", "agents=[random,random]"], "1 seat"),
}


def _start(args: list[str], tmp: Path) -> subprocess.Popen:
    cmd = [sys.executable, str(SCRIPT), *args, f"hydra.run.dir={tmp / 'run'}",
           f"output={tmp / 'out.json'}"]
    return subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


@pytest.fixture(scope="module")
def error_runs(tmp_path_factory):
    """Every error case, launched at once (each run is mostly interpreter start-up)."""
    procs = {}
    for name, (args, _) in ERROR_CASES.items():
        procs[name] = _start(args, tmp_path_factory.mktemp(name))
    return {name: (p, *p.communicate(timeout=120)) for name, p in procs.items()}


def test_end_to_end_writes_json(tmp_path):
    proc = _start(["game=kuhn_poker", "agents=[random,random]", "deals=4"], tmp_path)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "random" in out and "kuhn_poker" in out
    payload = json.loads((tmp_path / "out.json").read_text())
    assert payload["config"]["deals"] == 4 and payload["config"]["game"] == "kuhn_poker"
    assert [s["agent"] for s in payload["seats"]] == ["random", "random"]
    result = payload["result"]
    assert result["games"] == 8 and len(result["agents"]) == 2
    assert sum(a["score"] for a in result["agents"]) == pytest.approx(1.0)
    assert not list(tmp_path.glob(".out.json.*"))  # no temp file left behind


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_user_errors_exit_cleanly(error_runs, case):
    proc, out, err = error_runs[case]
    assert proc.returncode != 0
    assert ERROR_CASES[case][1] in err
    assert "Traceback" not in err
    assert not (Path(proc.args[-1].split("=", 1)[1])).exists()
