"""Without PettingZoo (or gymnasium) installed, the bridge fails with one clear line;
importing it imports neither (runs everywhere)."""

from __future__ import annotations

import subprocess
import sys

import pytest

import isz
import isz.pettingzoo


@pytest.mark.parametrize("missing", ["pettingzoo", "gymnasium"])
def test_missing_pettingzoo_names_the_install_command(monkeypatch, missing):
    monkeypatch.setitem(sys.modules, missing, None)  # import <missing> -> ImportError
    for build in (lambda: isz.pettingzoo.env("kuhn_poker"),
                  lambda: isz.pettingzoo.raw_env("kuhn_poker"),
                  lambda: isz.pettingzoo.IszAECEnv):
        with pytest.raises(isz.IszError, match=r"PettingZoo is not installed.*isz\[pettingzoo\]"):
            build()


def test_importing_the_bridge_imports_neither():
    code = ("import isz, isz.pettingzoo, sys; "
            "print('pettingzoo' in sys.modules, 'gymnasium' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "False"]
