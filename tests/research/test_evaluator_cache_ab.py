"""research.evaluator_cache_ab: one row per game and batch size, three evaluators timed on
the same rows (Crazy Eights registered for this test alone, as the conftest fixture does)."""

from __future__ import annotations

import json
from pathlib import Path

import isz.agents.network
from research import evaluator_cache_ab


def test_rows_time_before_today_and_the_network_alone(capsys, crazy_eights):
    before = Path(isz.agents.network.__file__)  # any evaluator file loads as "before"
    evaluator_cache_ab.main(["--before", str(before), "--rows", "8,40", "--reps", "2"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["game"], r["rows"]) for r in rows] == [
        ("crazy_eights", 8), ("crazy_eights", 40), ("tricks", 8), ("tricks", 40)]
    assert all(set(r["ms_per_1000_rows"]) == {"before", "today", "network"} and
               min(r["ms_per_1000_rows"].values()) > 0 for r in rows)
