"""``isz-bench``'s rows: one JSON object a measurement, the keys the docs read."""

from __future__ import annotations

import json

import pytest

from isz.cli.bench import main


def test_the_leaf_rows_put_the_random_and_the_fitted_playout_side_by_side(capsys):
    assert main(["--only", "leaf", "--games", "tricks,recon", "--iterations", "40",
                 "--reps", "1"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["game"], r["leaf"]) for r in rows] == [
        ("tricks", "playout"), ("tricks", "policy"), ("recon", "playout"), ("recon", "policy")]
    assert all(r["bench"] == "search_speed" and r["agent"] == "so_ismcts" and
               r["metric"] == "iterations_per_s" and r["value"] > 0 for r in rows)


def test_an_unknown_section_is_named_with_the_known_ones(tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    with pytest.raises(SystemExit, match=r"unknown section\(s\) 'serch' in --only; "
                                         r"known: search, leaf,"):
        main(["--only", "search,serch", "--out", str(out)])
    assert capsys.readouterr().out == "" and not out.exists()  # nothing ran


def test_search_rows_for_the_games_and_agents_asked(tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    assert main(["--only", "search", "--games", "kuhn_poker", "--agents", "so_ismcts,pimc",
                 "--iterations", "50", "--reps", "1", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["game"], r["agent"]) for r in rows] == [("kuhn_poker", "so_ismcts"),
                                                      ("kuhn_poker", "pimc")]
    assert [json.loads(line) for line in out.read_text().splitlines()] == rows


def test_the_cache_row_times_the_cache_beside_the_network_alone():
    from isz.bench.nn import cache_speed
    row = cache_speed("kuhn_poker", rows=200, repeat=0.5, device="cpu", reps=2)
    assert (row["bench"], row["metric"], row["rows"], row["repeat"]) == (
        "evaluator_cache", "ms_per_1000_rows", 200, 0.5)
    assert row["value"] > 0 and row["network_alone"] > 0
    assert row["ratio"] == pytest.approx(row["value"] / row["network_alone"], rel=0.05)
