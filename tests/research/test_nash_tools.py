"""The toward-Nash tools: tabular mirror dynamics, the final-checkpoint table, the curves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import isz
from isz.nn import ModelConfig, build_model, save_checkpoint
from research import mirror_dynamics as md
from research import nash_curves, nash_table


def _run(capsys, tool, *args) -> tuple[int, str]:
    """``tool.main(args)``: its exit status and what it printed on stderr."""
    code = tool.main([str(a) for a in args])
    return code, capsys.readouterr().err


def test_moving_magnet_reaches_nash_where_the_uniform_one_stops():
    """Exact q, no network: the uniform magnet's last iterate stops at its regularised
    equilibrium (about 0.044 on Kuhn); the moving magnet's goes on toward Nash."""
    uniform, no_avg = md.trajectory("kuhn_poker", **md.parse("alpha=0.1"))
    moving, _ = md.trajectory("kuhn_poker", **md.parse("alpha=0.1,magnet=network,every=10"))
    assert len(uniform) == len(moving) == 10 and no_avg == []
    assert 0.03 < uniform[-1] < 0.06
    assert moving[-1] < 0.001 and moving[-1] < moving[4] < moving[0]
    with pytest.raises(isz.IszError, match="bad spec item"):
        md.parse("alpha=0.1,gamma=3")
    with pytest.raises(isz.IszError, match="iters must be int"):
        md.parse("iters=ten")


def test_average_policy_converges_where_plain_mirror_descent_cycles():
    """No magnet (alpha 0): the last iterate cycles above 0.15 on Kuhn; the reach-weighted
    average of the iterates (what fictitious play and CFR report) goes on down."""
    last, avg = md.trajectory("kuhn_poker", **md.parse("alpha=0,eta=2,avg_from=1"))
    _, late = md.trajectory("kuhn_poker", **md.parse("alpha=0,eta=2,avg_from=50"))
    assert len(avg) == 10 and len(late) == 6  # iterations 50, 60, .., 100
    assert min(last[2:]) > 0.15 and avg[-1] < 0.06 and avg[-1] < avg[0]
    _, logit = md.trajectory("kuhn_poker", **md.parse("alpha=0,eta=2,avg_from=1,"
                                                      "avg_weight=logit"))
    assert len(logit) == 10 and logit[-1] < min(last[2:])
    with pytest.raises(isz.IszError, match="avg_weight must be one of"):
        md.trajectory("kuhn_poker", **md.parse("avg_from=1,avg_weight=median"))


def _fake_run(run: Path, seed: int) -> None:
    """A run folder: an untrained checkpoint with planner knobs and a metrics.jsonl."""
    game = isz.make_game("kuhn_poker")
    cfg = ModelConfig(width=8, depth=1)
    planner = {"iterations": 8, "belief": "posterior", "opponents": "evaluate",
               "final": "mirror", "root_selection": "uniform", "mirror_eta": 0.5}
    (run / "checkpoints").mkdir(parents=True)
    save_checkpoint(run / "checkpoints" / "last.pt", model=build_model(game, cfg), game=game,
                    model_cfg=cfg, extra={"planner": planner})
    rows = [{"iteration": i, "positions": 100 * i, "games": 40 * i, "work_s": 0.5 * i,
             "eval/exploitability": 0.4 / i + 0.01 * seed, "eval/exploitability_net": 0.3 / i}
            for i in (1, 2, 3)]
    rows.insert(1, {"iteration": 5, "positions": 1})  # not evaluated: ignored
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_table_and_curves_from_run_folders(tmp_path, capsys):
    for seed in (0, 1):
        _fake_run(tmp_path / f"r_s{seed}", seed)
    out = tmp_path / "table.json"
    code, err = _run(capsys, nash_table, "--run", f"fake={tmp_path}/r_s*", "--planner-seeds",
                     "0", "1", "--output", out)
    assert code == 0, err
    recipe = json.loads(out.read_text())["recipes"][0]
    assert recipe["net"]["n"] == 2 and recipe["planner"]["n"] == 4
    # an untrained network is about as exploitable as uniform play (0.458)
    assert all(0.3 < r["net"] < 1.0 and len(r["planner"]) == 2 for r in recipe["runs"])
    assert recipe["runs"][0]["planner_knobs"]["root_selection"] == "uniform"
    assert recipe["net"]["mean"] == pytest.approx(sum(r["net"] for r in recipe["runs"]) / 2)

    curves = tmp_path / "curves"
    code, err = _run(capsys, nash_curves, "--run", f"fake={tmp_path}/r_s*", "--cfr-iterations",
                     "50", "--output", curves, "--png", tmp_path / "c.png")
    assert code == 0, err
    data = json.loads(curves.with_suffix(".json").read_text())
    run = data["runs"][0]
    assert run["iteration"] == [1, 2, 3] and run["positions"] == [100, 200, 300]
    assert run["planner"]["mean"] == pytest.approx([0.405, 0.205, 0.4 / 3 + 0.005])
    assert run["planner"]["min"][0] == pytest.approx(0.4)
    cfr = data["cfr"]
    assert cfr["iteration"][-1] == 50 and cfr["positions"][-1] == 50 * 2 * 24
    assert cfr["average"][-1] < 0.05 < cfr["average"][0]  # CFR's average converges
    assert (tmp_path / "c.png").stat().st_size > 10_000
    assert curves.with_suffix(".csv").read_text().startswith("curve,iteration,positions")

    code, err = _run(capsys, nash_curves, "--run", f"none={tmp_path}/nothing*", "--output",
                     curves)
    assert code == 2 and "no run folder" in err
    code, err = _run(capsys, nash_curves, "--run", f"avg={tmp_path}/r_s*#average_policy",
                     "--cfr-iterations", "5", "--output", curves)
    assert code == 2 and "has no 'eval/average_policy_exploitability'" in err
    code, err = _run(capsys, nash_curves, "--run", f"avg={tmp_path}/r_s*#best", "--output",
                     curves)
    assert code == 2 and "#best is not a product of a run" in err


def test_curves_of_a_runs_average_policy(tmp_path, capsys):
    for seed in (0, 1):
        _fake_run(tmp_path / f"r_s{seed}", seed)
        path = tmp_path / f"r_s{seed}" / "metrics.jsonl"
        rows = [json.loads(x) for x in path.read_text().splitlines()]
        for r in rows:
            if "eval/exploitability" in r:
                r["eval/average_policy_exploitability"] = r["eval/exploitability"] / 2
                r["eval/average_policy_exploitability_net"] = 0.1 + seed
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    curves = tmp_path / "curves"
    code, err = _run(capsys, nash_curves, "--run", f"avg={tmp_path}/r_s*#average_policy",
                     "--cfr-iterations", "5", "--output", curves)
    assert code == 0, err
    run = json.loads(curves.with_suffix(".json").read_text())["runs"][0]
    assert run["planner"]["mean"] == pytest.approx([0.2025, 0.1025, 0.2 / 3 + 0.0025])
    assert run["net"]["mean"] == pytest.approx([0.6, 0.6, 0.6])


def test_curves_include_an_earlier_json_and_draw_an_averaged_weights_curve(tmp_path, capsys):
    game = isz.make_game("kuhn_poker")
    cfg = ModelConfig(width=8, depth=1)
    for seed in (0, 1):
        run = tmp_path / f"r_s{seed}"
        _fake_run(run, seed)
        for i in (1, 2, 3):
            save_checkpoint(run / "checkpoints" / f"iter-{i:06d}.pt",
                            model=build_model(game, cfg), game=game, model_cfg=cfg)
    first = tmp_path / "first"
    code, err = _run(capsys, nash_curves, "--run", f"fake={tmp_path}/r_s*", "--cfr-iterations",
                     "20", "--output", first)
    assert code == 0, err
    old = json.loads(first.with_suffix(".json").read_text())

    again = tmp_path / "again"
    code, err = _run(capsys, nash_curves, "--include", f"{first}.json#fake", "--cfr-from",
                     f"{first}.json", "--average-curve", f"avg={tmp_path}/r_s*",
                     "--average-from", "2", "--output", again, "--png", tmp_path / "a.png")
    assert code == 0, err
    data = json.loads(again.with_suffix(".json").read_text())
    kept, avg = data["runs"]
    assert kept["planner"] == old["runs"][0]["planner"] and data["cfr"] == old["cfr"]
    assert avg["planner"] is None and avg["average_from"] == 2
    assert avg["iteration"] == [2, 3] and avg["positions"] == [200, 300]
    # untrained networks (and their averages) are about as exploitable as uniform play
    assert all(0.2 < v < 1.0 for row in avg["net"]["seeds"] for v in row)
    assert (tmp_path / "a.png").stat().st_size > 10_000

    code, err = _run(capsys, nash_curves, "--include", f"{first}.json#nope", "--cfr-from",
                     f"{first}.json", "--output", again)
    assert code == 2 and "no curve labelled 'nope'" in err
    code, err = _run(capsys, nash_curves, "--game", "leduc_poker", "--include",
                     f"{first}.json", "--output", again)
    assert code == 2 and "not --game leduc_poker" in err
