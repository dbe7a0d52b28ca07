"""Without OpenSpiel installed, the bridge fails with one clear line (runs everywhere)."""

from __future__ import annotations

import sys

import pytest

import isz
from isz.openspiel import openspiel_twin


def test_missing_openspiel_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel -> ImportError
    game = isz.make_game("kuhn_poker")
    for build in (lambda: openspiel_twin(game),
                  lambda: isz.make_agent("openspiel_ismcts", game),
                  lambda: isz.make_agent("openspiel_mcts", game)):
        with pytest.raises(isz.IszError, match=r"OpenSpiel is not installed.*isz\[openspiel\]"):
            build()


def test_importing_isz_does_not_import_openspiel():
    import subprocess

    code = "import isz, sys; print('pyspiel' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
