"""The ladder on a tiny trained Kuhn run: what it plays, its ratings and SEs, its
cache (a second run plays nothing; a new checkpoint plays only its own tables; a
checkpoint training removed stays rated), its files, the training step and the
command."""

from __future__ import annotations

import json
import shutil

import pytest
import torch
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from isz.evaluation.ladder import LadderSettings, ladder_step, main, run_ladder
from isz.nn.checkpoint import load_checkpoint, planner_record
from isz.training.config import TrainConfig
from isz.training.loop import train

SETTINGS = dict(iterations=20, time_per_move=None, deals=48, baselines=("so_ismcts", "random"),
                bootstrap=100)
CLI = ["--iterations", "20", "--deals", "48", "--baselines", "so_ismcts,random",
       "--bootstrap", "100", "--quiet"]


def _cfg(run_dir) -> TrainConfig:
    cfg = TrainConfig()
    cfg.game.name = "kuhn_poker"
    cfg.selfplay.games_per_iteration, cfg.selfplay.parallel_games = 24, 8
    cfg.search.simulations = 16
    cfg.model.width, cfg.model.depth = 16, 1
    t = cfg.trainer
    t.iterations, t.steps_per_iteration, t.batch_size = 3, 8, 32
    t.eval_every, t.final_eval_deals, t.eval_opponents = 0, 2, ["random"]
    t.value_check_deals = t.root_check_deals = 2
    t.exploitability_max_histories, t.checkpoint_every, t.keep_last = 0, 1, 5
    t.eval_knobs = {"so_ismcts": {"c": 0.5}}  # the ladder's so_ismcts must get it
    cfg.logger.progress = False
    cfg.experiment.run_dir = str(run_dir)
    return cfg


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A 3-iteration Kuhn run and its first ladder."""
    run = tmp_path_factory.mktemp("ladder") / "run"
    cfg = _cfg(run)
    train(cfg)
    return run, cfg, run_ladder(run, LadderSettings(**SETTINGS))


def _players(ladder) -> dict:
    return {p["name"]: p for p in ladder["players"]}


def _moved(players: list[dict], gone: str = "") -> list[dict]:
    """``players`` without their files (a copied run folder has other paths); ``gone``:
    the one whose file was removed."""
    return [{**p, "file": None if p["name"] == gone else "?"} if "file" in p else p
            for p in players]


def test_ratings_pairings_and_work(trained):
    run, _, ladder = trained
    p = _players(ladder)
    # last.pt is a copy of iter-000003.pt: one player; best.pt is not a ladder file
    assert sorted(p) == ["it1", "it2", "it3", "random", "so_ismcts"]
    assert (p["so_ismcts"]["rating"], p["so_ismcts"]["se"]) == (0.0, 0.0)
    assert p["so_ismcts"]["knobs"] == {"c": 0.5, "iterations": 20}  # the run's eval_knobs
    assert ladder["baseline_knobs"]["source"] == "the run's trainer.eval_knobs"
    # so_ismcts beats random at Kuhn: rated above it by more than 2 SE (fixed seeds)
    assert p["random"]["rating"] < -2 * p["random"]["se"] < 0
    assert [p[f"it{i}"]["iteration"] for i in (1, 2, 3)] == [1, 2, 3]
    hours = [p[f"it{i}"]["hours"] for i in (1, 2, 3)]
    assert 0 < hours[0] < hours[1] < hours[2] < 1
    assert all(p[n]["se"] > 0 for n in ("random", "it1", "it2", "it3"))
    # each checkpoint as it plays: the planner its file records
    for n in ("it1", "it2", "it3"):
        assert p[n]["planner"] == planner_record(load_checkpoint(p[n]["file"]))
        assert p[n]["planner"]["agent"] == p["it1"]["planner"]["agent"]
    # every searcher spent its simulation budget, random none
    assert {n: p[n]["simulations_per_move"] for n in p} == \
        {"so_ismcts": 20.0, "random": 0.0, "it1": 20.0, "it2": 20.0, "it3": 20.0}
    tables = {t["name"]: t for t in ladder["pairings"]}
    assert sorted(tables) == sorted([
        "so_ismcts~random", "it1~so_ismcts", "it1~random", "it2~it1", "it2~so_ismcts",
        "it2~random", "it3~it2", "it3~it1", "it3~so_ismcts", "it3~random"])
    for t in tables.values():
        assert (t["deals"], t["games"], t["played_deals"]) == (48, 96, 48)
        (pair,) = t["paired"]
        assert pair["diff"] == pytest.approx(t["scores"][0] - t["scores"][1])
        assert pair["se"] >= 0  # 0 where every deal gives the same difference
        # chips a game, zero-sum: what one seat wins the other loses, deal by deal
        assert t["utilities"][0] == pytest.approx(-t["utilities"][1])
        assert t["utility_se"][0] == pytest.approx(t["utility_se"][1])
    # so_ismcts wins chips from random at Kuhn by more than 2 SE
    vs_random = tables["so_ismcts~random"]
    assert vs_random["utilities"][0] > 2 * vs_random["utility_se"][0] > 0
    assert tables["so_ismcts~random"]["paired"][0]["se"] > 0
    assert ladder["played_deals"] == 10 * 48
    assert json.loads((run / "ladder" / "ladder.json").read_text()) == \
        json.loads(json.dumps(ladder))


def test_tensorboard_and_png(trained):
    run, _, ladder = trained
    p = _players(ladder)
    events = EventAccumulator(str(run / "tb" / "ladder"))
    events.Reload()
    assert {"ladder/planner", "ladder/planner_se", "ladder/hours", "ladder/so_ismcts",
            "ladder/random"} <= set(events.Tags()["scalars"])
    planner = events.Scalars("ladder/planner")
    assert [e.step for e in planner] == [1, 2, 3]
    assert [e.value for e in planner] == pytest.approx([p[f"it{i}"]["rating"] for i in (1, 2, 3)],
                                                       abs=1e-4)
    assert [e.value for e in events.Scalars("ladder/random")] == \
        pytest.approx([p["random"]["rating"]] * 3, abs=1e-4)
    png = (run / "ladder" / "ladder.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_cache_new_checkpoint_and_removed_checkpoint(trained, tmp_path):
    src, _, first = trained
    run = tmp_path / "run"
    shutil.copytree(src, run)
    again = run_ladder(run, LadderSettings(**SETTINGS))
    assert again["played_deals"] == 0
    assert _moved(again["players"]) == _moved(first["players"])
    # a generation snapshot (another network, iteration 4): only its own tables are played
    ck = load_checkpoint(run / "checkpoints" / "last.pt")
    ck["model"] = {k: v * 0.5 for k, v in ck["model"].items()}
    ck["counters"]["iteration"] = 4
    torch.save(ck, run / "checkpoints" / "gen-1.pt")
    more = run_ladder(run, LadderSettings(**SETTINGS))
    played = {t["name"] for t in more["pairings"] if t["played_deals"]}
    assert played == {"gen1~it3", "gen1~it2", "gen1~so_ismcts", "gen1~random"}
    assert more["played_deals"] == 4 * 48
    assert (_players(more)["gen1"]["generation"], _players(more)["gen1"]["checkpoint_kind"]) \
        == (1, "gen")
    # the generations alone: gen1 and the baselines, from the tables already played
    gens = run_ladder(run, LadderSettings(**SETTINGS, checkpoints=("gen",)))
    assert gens["played_deals"] == 0
    assert [p["name"] for p in gens["players"]] == ["so_ismcts", "random", "gen1"]
    assert {t["name"] for t in gens["pairings"]} == \
        {"so_ismcts~random", "gen1~so_ismcts", "gen1~random"}
    # training removes iter-000001.pt: it stays on the ladder with its games
    (run / "checkpoints" / "iter-000001.pt").unlink()
    later = run_ladder(run, LadderSettings(**SETTINGS))
    assert later["played_deals"] == 0
    assert _players(later)["it1"]["file"] is None
    assert _moved(later["players"], gone="it1") == _moved(more["players"], gone="it1")


def test_training_step_shares_the_cache(trained):
    run, cfg, first = trained
    ladder = ladder_step(run, cfg, **SETTINGS)  # the run's eval_knobs, seed and workers
    assert ladder["played_deals"] == 0
    assert ladder["players"] == first["players"]


def test_command(trained, tmp_path, capsys):
    src, _, first = trained
    run = tmp_path / "run"
    shutil.copytree(src, run)
    assert main([str(run), *CLI]) == 0
    out = capsys.readouterr().out
    assert "played 0 new deal(s)" in out and "it3" in out
    assert _moved(json.loads((run / "ladder" / "ladder.json").read_text())["players"]) == \
        _moved(first["players"])


@pytest.mark.parametrize("argv, message", [
    (["{empty}"], "holds no checkpoint"),
    (["{missing}"], "is not a folder"),
    (["{empty}", "--time", "0"], "time_per_move must be a number of seconds > 0"),
    (["{empty}", "--baselines", "stockfish"], "unknown baseline 'stockfish'"),
    (["{empty}", "--knobs", "so_ismcts=voids"], "is not JSON"),
    (["{empty}", "--checkpoints", "gen,best"], "give some of gen, iter, last"),
    (["{empty}", "--checkpoints", "gen"], "holds no checkpoint (gen-*.pt)"),
])
def test_command_errors(tmp_path, capsys, argv, message):
    (tmp_path / "empty" / "checkpoints").mkdir(parents=True)
    argv = [a.format(empty=tmp_path / "empty", missing=tmp_path / "nope") for a in argv]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_chart_axis_is_logarithmic_for_generations_that_double_only():
    from isz.evaluation.ladder_report import x_axis

    def players(hours):
        return [{"hours": h, "iteration": i} for i, h in enumerate(hours, 1)]
    xs, label, log = x_axis(players([0.03, 0.05, 0.09, 0.15, 0.26, 0.44]))  # doubling, minutes
    assert label == "training minutes" and xs == pytest.approx([1.8, 3, 5.4, 9, 15.6, 26.4])
    assert log
    assert x_axis(players([0.08, 0.25, 0.34, 0.42, 0.5])) == \
        ([0.08, 0.25, 0.34, 0.42, 0.5], "training hours", False)  # every 6th: span 6x, linear
    every_10th = [0.0078 * k for k in range(1, 17)]  # 16 generations: span 16x, linear
    assert x_axis(players(every_10th))[2] is False
    assert x_axis(players([None, 0.2])) == ([1, 2], "training iteration", False)
    assert x_axis([]) == ([], "training iteration", False)
