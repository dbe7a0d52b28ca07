"""The package installs: a wheel built from a copy of this checkout, installed into a new
virtual environment (no link to the checkout), works from an empty folder with the
configs it carries (conf/ ships inside it as isz/conf)."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("isz", "conf", "pyproject.toml", "setup.py", "README.md")
TINY = ["game=kuhn_poker", "trainer.iterations=1", "selfplay.games_per_iteration=8",
        "selfplay.parallel_games=8", "search.simulations=8", "trainer.steps_per_iteration=2",
        "trainer.batch_size=8", "trainer.eval_every=0", "trainer.final_eval_deals=2",
        "trainer.value_check_deals=2", "trainer.root_check_deals=2",
        "trainer.eval_opponents=[random]", "model.width=8", "model.depth=1",
        "logger.progress=false"]


def _run(cmd: list, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, f"{cmd}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The ``bin`` folder of a new virtual environment with the wheel installed. Offline
    and quick: the wheel is built with this environment's setuptools, and the new
    environment reaches this one's packages (torch, numba, ...) through a .pth file
    instead of installing them again; isz itself comes from the wheel only."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=skip)
        else:
            shutil.copy2(ROOT / name, src / name)
    _run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
          "--no-index", "-q", "-w", tmp / "dist", src], cwd=tmp)
    (wheel,) = (tmp / "dist").glob("isz-*.whl")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)
    python = venv / "bin" / "python"
    purelib = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                   cwd=tmp).stdout.strip()
    Path(purelib, "_this_env_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    _run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", "-q",
          wheel], cwd=tmp)
    return venv / "bin"


def test_the_wheel_carries_its_configs(installed, tmp_path):
    where = _run([installed / "python", "-c", "import isz.cli.conf as c; print(c.conf_dir())"],
                 cwd=tmp_path).stdout.strip()
    assert Path(where).is_relative_to(installed.parent) and where.endswith("isz/conf")
    job = _run([installed / "isz-train", "--cfg", "job", "experiment=kuhn_nash_magnet"],
               cwd=tmp_path).stdout
    assert "name: kuhn_nash_magnet" in job and "name: posterior" in job
    assert "magnet: network" in job and "name: kuhn_poker" in job
    evaluate = _run([installed / "isz-evaluate", "--cfg", "job", "deals=7"], cwd=tmp_path).stdout
    assert "deals: 7" in evaluate and "agents: null" in evaluate
    for command in ("isz-play", "isz-bench"):  # the same wiring, checked once above
        assert f"from isz.cli.{command[4:]} import main" in (installed / command).read_text()
    assert list(tmp_path.iterdir()) == []  # nothing written into the launch folder


@pytest.mark.slow  # compiles the game and search kernels for the fresh install: ~1-2 min
def test_the_installed_isz_trains_from_an_empty_folder(installed, tmp_path):
    out = _run([installed / "isz-train", *TINY], cwd=tmp_path).stdout
    assert "eval/exploitability" in out
    run = tmp_path / "runs" / "kuhn_poker"
    assert (run / "checkpoints" / "last.pt").is_file() and (run / "results.json").is_file()
