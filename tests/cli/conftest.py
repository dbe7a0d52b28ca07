"""Run a console command in this process, as its command line would."""

from __future__ import annotations

import logging
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch


@pytest.fixture
def command(monkeypatch, capsys):
    """``command(main, *args)``: the command ``main`` (`isz.cli.train.main`, ...) run here
    with ``args`` as its command line; its ``returncode``, ``stdout`` and ``stderr``."""
    threads = torch.get_num_threads()  # evaluate sets one thread per decision

    def run(main, *args):
        # hydra must not configure logging here: its handlers would write to this test's
        # captured streams, closed by the next test
        quiet = ["hydra/job_logging=none", "hydra/hydra_logging=none"]
        monkeypatch.setattr(sys, "argv", ["isz", *(str(a) for a in args), *quiet])
        root = logging.getLogger()
        handlers, level = list(root.handlers), root.level
        try:
            code = main() or 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else int(e.code is not None)
        finally:
            torch.set_num_threads(threads)
            root.handlers[:] = handlers
            root.setLevel(level)
        out = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)

    return run


def console_script(name: str) -> str:
    """The installed console command ``name`` (``isz-evaluate``, ...) of this environment."""
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is not installed beside {sys.executable}: pip install -e ."
    return found
