"""`research.actors_estimate`: self-play and learner seconds from a run's log, and the
estimate with N actors."""

from __future__ import annotations

import json

from research.actors_estimate import main, per_iteration


def _run(path, iterations=5, positions=1000, rate=500.0, steps=100, step_rate=200.0):
    path.mkdir()
    with (path / "metrics.jsonl").open("w") as f:
        for i in range(1, iterations + 1):
            f.write(json.dumps({"positions": i * positions, "steps": i * steps,
                                "perf/positions_per_s": rate,
                                "perf/train_steps_per_s": step_rate,
                                "elapsed_s": i * 2.5}) + "\n")
    return path


def test_per_iteration_reads_the_log(tmp_path):
    row = per_iteration(_run(tmp_path / "r"))
    assert row["selfplay_s"] == 2.0 and row["learner_s"] == 0.5
    assert row["iterations"] == 5 and row["iterations_s"] == 12.5


def test_estimate_overlaps_and_hits_the_learner_floor(tmp_path, capsys):
    main([str(_run(tmp_path / "r")), "--wall", "20", "--actors", "1", "2", "100",
          "--efficiency", "0.5"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0]["rest_s"] == 7.5
    one, two, many = out[1:4]
    assert one["iteration_s"] == 4.0 and one["estimate_s"] == 5 * 4.0 + 7.5
    assert two["iteration_s"] == 2.0 and not two["learner_bound"]
    assert many["iteration_s"] == 0.5 and many["learner_bound"]
