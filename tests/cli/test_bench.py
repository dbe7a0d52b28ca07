"""``isz-bench``'s rows: one JSON object a measurement, the keys the docs read."""

from __future__ import annotations

import json

from isz.cli.bench import main


def test_the_leaf_rows_put_the_random_and_the_fitted_playout_side_by_side(capsys):
    assert main(["--only", "leaf", "--games", "tricks,recon", "--iterations", "40",
                 "--reps", "1"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["game"], r["leaf"]) for r in rows] == [
        ("tricks", "playout"), ("tricks", "policy"), ("recon", "playout"), ("recon", "policy")]
    assert all(r["bench"] == "search_speed" and r["agent"] == "so_ismcts" and
               r["metric"] == "iterations_per_s" and r["value"] > 0 for r in rows)
