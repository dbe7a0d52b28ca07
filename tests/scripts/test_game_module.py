"""``game.module`` (train.py) and ``game_module`` (evaluate.py): a module that cannot be
imported is one ``error:`` line and exit status 2 (the working path runs in
tests/examples/test_tutorial.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.mark.parametrize("script, args", [
    ("train.py", ["game.name=goofspiel", "game.module=no_such_pkg.goofspiel"]),
    ("evaluate.py", ["game=goofspiel", "game_module=no_such_pkg.goofspiel"]),
])
def test_unknown_game_module_is_one_line(tmp_path, script, args):
    p = subprocess.run([sys.executable, str(SCRIPTS / script), *args,
                        f"hydra.run.dir={tmp_path / 'hydra'}",
                        f"{'experiment.run_dir' if script == 'train.py' else 'output'}="
                        f"{tmp_path / 'out'}"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip().splitlines() == [
        "error: cannot import game module 'no_such_pkg.goofspiel': No module named "
        "'no_such_pkg' (it must be importable from this environment: installed, or under a "
        "folder on sys.path)"]
