"""Run a console command in this process, as its command line would."""

from __future__ import annotations

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
        monkeypatch.setattr(sys, "argv", ["isz", *(str(a) for a in args)])
        try:
            code = main() or 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else int(e.code is not None)
        finally:
            torch.set_num_threads(threads)
        out = capsys.readouterr()
        return SimpleNamespace(returncode=code, stdout=out.out, stderr=out.err)

    return run


def console_script(name: str) -> str:
    """The installed console command ``name`` (``isz-evaluate``, ...) of this environment."""
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is not installed beside {sys.executable}: pip install -e ."
    return found
