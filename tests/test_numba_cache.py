"""numba's disk cache can hit for per-game closures: their keys are the same in every process."""

from __future__ import annotations

import subprocess
import sys

SNIPPET = """
import isz
from isz.search.playout import make_playout
for name in ("kuhn_poker", "leduc_poker"):
    print(name, make_playout(isz.make_game(name).kernel)[1]._uuid)
"""


def _uuids() -> dict[str, str]:
    out = subprocess.run([sys.executable, "-c", SNIPPET], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    return dict(line.split() for line in out.splitlines())


def test_closure_uuid_is_the_same_in_every_process_and_differs_per_game():
    first, second = _uuids(), _uuids()
    assert first == second
    assert first["kuhn_poker"] != first["leduc_poker"]
    assert all(u.startswith("isz-") for u in first.values())
