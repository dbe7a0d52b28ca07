"""research/bench_checkouts.py: the paired ratios of its summary, and the PUCT batch row
(its kernel time is a part of the whole)."""

from __future__ import annotations

import json

from research import bench_checkouts as bc


def test_summary_takes_the_median_of_paired_ratios(tmp_path):
    path = tmp_path / "rows.jsonl"
    rows = []
    for rep, (before, after) in enumerate([(100, 110), (200, 240), (50, 40)]):
        for name, value in (("before", before), ("after", after)):
            rows.append({"bench": "search_speed", "game": "tricks", "agent": "so_ismcts",
                         "iterations": 1000, "value": value, "checkout": name,
                         "repeat": rep})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    table = bc.summary(str(path)).splitlines()
    assert len(table) == 3
    # rates 100, 200, 50 -> 100 before; 110, 240, 40 -> 110 after; pairs 0.8, 1.1, 1.2
    assert table[2] == "| tricks | so_ismcts | 1,000 iterations | 100 | 110 | 1.10 (0.80-1.20) |"


def test_batch_row_times_the_kernel_calls_within_the_run():
    row = bc.batch_speed("kuhn_poker", searches=2, lanes=2, sims=16, reps=2)
    assert row["searches"] == 2 and row["iterations"] == 16
    # the kernel calls take some of a simulation's time, less than the slowest run's whole
    assert 0 < row["kernel_us_per_simulation"] < 1e6 / row["min"]
