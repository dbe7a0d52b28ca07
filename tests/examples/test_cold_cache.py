"""Every game's searches compile first on a cold kernel cache.

A user's first command may be a match, not the conformance checker: then numba types
the game's functions for the first time from inside the search kernels, whose entry
points compile without reference counting (`isz/search/jit.py`); a callee that does not
set the option takes its caller's, and so a rule function that allocated an array
(Crazy Eights' ``returns`` once, phantom tic-tac-toe's ``chance_outcomes``) failed to
compile. `isz.games.kernel.Kernel` now sets it on every rule function. The suite's own
order hid it: the warm cache from an earlier test served the function already typed.
Each case runs in a fresh process with an empty ``ISZ_CACHE_DIR``: so_ismcts, then the
network planner on an untrained checkpoint."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ALL_GAMES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ["goofspiel", "liars_dice", "phantom_ttt", "crazy_eights", "skull", "love_letter",
            "battleship", "lost_cities"]
# the package's games as registered ("-": nothing to import), then examples/'s
GAMES = [(n, "-") for n in ALL_GAMES] + [(n, f"examples.{n}") for n in EXAMPLES]

FIRST_MOVES = r"""
import importlib, sys
import numpy as np
import isz
from tests.conftest import random_decision
from tests.examples.twins import tiny_checkpoint
name, module, path = sys.argv[1:]
if module != "-":
    importlib.import_module(module)
game = isz.make_game(name)
rng = np.random.default_rng(0)
agents = [isz.make_agent("so_ismcts", game, iterations=40),
          isz.load_planner(tiny_checkpoint(game, path), iterations=40)]
moves = 0
for steps in (0, 5, 10):
    state = random_decision(game, rng, steps)
    for agent in agents:
        assert agent.act(state.view(state.current_player()), rng) in state.legal_actions()
        moves += 1
print(moves)
"""


@pytest.mark.slow
@pytest.mark.parametrize("name, module", GAMES)
def test_the_searches_compile_first_on_a_cold_cache(tmp_path, name, module):
    env = dict(os.environ, ISZ_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    env.pop("NUMBA_CACHE_DIR", None)  # else numba would not use the empty folder
    out = subprocess.run([sys.executable, "-c", FIRST_MOVES, name, module,
                          str(tmp_path / "tiny.pt")], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    assert int(out.stdout.split()[-1]) == 6  # both agents, three decisions
