"""The fitted playout in checkpoints and runs: recorded, judged against uniform play,
fitted each generation by the loop, the same on any number of processes, and its command
(`isz.training.playout_fit`; the leaf and the fit itself: test_playout_fit.py)."""

from __future__ import annotations

import inspect
from functools import partial
from types import SimpleNamespace

import numpy as np
import pytest
import torch

import isz
from isz.nn import ModelConfig, build_model, save_checkpoint
from isz.nn.checkpoint import load_checkpoint, planner_record
from isz.progress import Progress
from isz.training.playout_fit import MoveRows, fit_checkpoint, judge, record_moves

SMALL = dict(players=3, suits=3, ranks=4, hand_size=3, trump="card", bidding=True,
             dealer="chance", hook=True)


def _checkpoint(tmp_path, record, game):
    torch.manual_seed(0)
    model = build_model(game, ModelConfig(width=8, depth=1))
    return str(save_checkpoint(tmp_path / "c.pt", model=model, game=game,
                               model_cfg=ModelConfig(width=8, depth=1),
                               extra={"planner": record, "note": "kept"}))


def test_a_checkpoint_records_its_fitted_playout_and_plays_with_it(tmp_path, monkeypatch):
    game = isz.make_game("tricks", **SMALL)
    path = _checkpoint(tmp_path, {"agent": "guided_so_ismcts", "iterations": 40,
                                  "belief": "voids"}, game)
    # 12 games are too few to beat uniform reliably: the fit is taken as earning its
    # place here (the fit's quality: test_the_fit_recovers_a_deterministic_player)
    monkeypatch.setattr("isz.training.playout_fit.earns_place", lambda held_out: True)
    result = fit_checkpoint(path, games=12, test_games=4, seed=0)
    assert result["rows"] > 50 and result["fitted_with"] == "playout" and result["used"]
    assert np.isfinite(result["held_out"]["nll"]) and result["held_out"]["rows"] > 10
    ckpt = load_checkpoint(path)
    record = planner_record(ckpt)
    assert record["leaf"] == "policy" and record["playout_weights"] == result["weights"]
    assert ckpt["extra"]["note"] == "kept" and ckpt["extra"]["playout_fit"]["rows"] == \
        result["rows"]
    agent = isz.load_planner(path, device="cpu")
    np.testing.assert_array_equal(agent.playout_w, result["weights"])
    assert result["iterations"] == 40  # the record's search
    # the next generation, fitted to a deeper search than the record's: the record keeps
    # its own iterations for play
    again = fit_checkpoint(path, games=4, test_games=2, seed=1, iterations=80)
    assert again["fitted_with"] == "policy" and again["iterations"] == 80
    assert load_checkpoint(path)["extra"]["playout_fit"]["iterations"] == 80
    assert planner_record(load_checkpoint(path))["iterations"] == 40


def test_a_fit_no_better_than_uniform_play_is_not_used(tmp_path, monkeypatch):
    """Judged on held-out games no better than the random playout, a fit leaves the
    checkpoint's planner as it was (and the loop's teacher back on random playouts)."""
    from isz.training import playout_fit

    assert playout_fit.earns_place({"nll": 0.7, "uniform_nll": 0.8})
    assert not playout_fit.earns_place({"nll": 0.8, "uniform_nll": 0.8})
    game = isz.make_game("tricks", **SMALL)
    record = {"agent": "guided_so_ismcts", "iterations": 40, "belief": "voids"}
    path = _checkpoint(tmp_path, record, game)
    worse = {"nll": 1.2, "uniform_nll": 1.1, "top1": 0.3, "rows": 9}
    calls = []

    def fit_planner(*a, **k):
        calls.append(a)
        return {"weights": [1.0] * 24, "held_out": worse, "rows": 40, "seconds": 0.1}

    monkeypatch.setattr(playout_fit, "fit_planner", fit_planner)
    result = fit_checkpoint(path, games=12, test_games=4, seed=0)
    assert not result["used"] and planner_record(load_checkpoint(path)) == record
    assert load_checkpoint(path)["extra"]["playout_fit"]["held_out"] == worse
    cfg = SimpleNamespace(selfplay=SimpleNamespace(playout_fit_games=5, workers=2),
                          trainer=SimpleNamespace(actors=0))
    st = SimpleNamespace(model=build_model(game, ModelConfig(16, 1)),
                         playout_weights=[0.5] * 24)
    monkeypatch.setattr("isz.training.evaluation.planner_knobs",
                        lambda cfg, final="most_visits": dict(record, iterations=4,
                                                              final=final))
    quiet = partial(Progress, enabled=False)
    out = playout_fit.fit_step(st, cfg, game, torch.device("cpu"), 0, quiet)
    assert st.playout_weights is None and out["playout/used"] == 0.0
    # the loop's fit plays on selfplay.workers processes, but one alongside Ray actors
    cfg.trainer.actors = 2
    playout_fit.fit_step(st, cfg, game, torch.device("cpu"), 0, quiet)
    assert [c[-1] for c in calls[1:]] == [2, 1]


def test_only_a_rollout_planner_takes_a_fitted_playout(tmp_path):
    game = isz.make_game("tricks", **SMALL)
    path = _checkpoint(tmp_path, {"agent": "puct_ismcts", "iterations": 8}, game)
    with pytest.raises(isz.IszError, match="plays 'puct_ismcts'; a fitted playout serves"):
        fit_checkpoint(path, games=2, test_games=1)


def test_move_rows_pad_to_the_widest_decision():
    rows = MoveRows(np.zeros((2, 3, 4)), np.array([[1, 1, 0], [1, 1, 1]], bool),
                    np.array([1, 2]))
    j = judge(rows, np.zeros(4))
    assert j["nll"] == pytest.approx((np.log(2) + np.log(3)) / 2)


def test_the_loop_fits_a_playout_each_generation_and_its_teacher_plays_it(tmp_path,
                                                                          monkeypatch):
    """``selfplay.playout_fit_games``: after each generation the planner's moves are
    fitted; the next iteration's teacher searches with those weights, the checkpoint's
    planner plays with them, and a resumed run reads them back."""
    import json

    from isz.selfplay import teacher
    from isz.training import loop
    from tests.training.test_recipe import _recipe_cfg

    seen = []
    real = teacher.teacher_search

    def spy(*args, **kw):
        # teacher_search(game, sample, view, iterations, rng, prior, c_puct, playout_weights,
        # ...): the playout it searches with
        weights = inspect.signature(real).bind(*args, **kw).arguments["playout_weights"]
        seen.append(None if weights is None else tuple(weights))
        return real(*args, **kw)

    monkeypatch.setattr("isz.selfplay.selfplay.teacher_search", spy)
    # the plumbing under test; 5-game fits need not beat uniform (a fit that does not is
    # dropped: test_a_fit_no_better_than_uniform_play_is_not_used)
    monkeypatch.setattr("isz.training.playout_fit.earns_place", lambda held_out: True)
    cfg = _recipe_cfg(tmp_path / "run")
    cfg.game.name, cfg.game.params = "tricks", dict(SMALL)
    cfg.selfplay.games_per_iteration = cfg.selfplay.parallel_games = 4
    cfg.selfplay.teacher_iterations = 16
    cfg.selfplay.playout_fit_games = 5
    cfg.trainer.ladder_deals = cfg.trainer.value_check_deals = 0
    cfg.trainer.root_check_deals = 0
    loop.train(cfg)
    ck = tmp_path / "run" / "checkpoints"
    gen1 = planner_record(load_checkpoint(ck / "gen-000001.pt"))
    last = planner_record(load_checkpoint(ck / "last.pt"))
    assert gen1["leaf"] == last["leaf"] == "policy"
    assert len(gen1["playout_weights"]) == 48 and gen1["playout_weights"] != \
        last["playout_weights"]
    # iteration 1's teacher played random playouts, iteration 2's the first fit
    assert set(seen[:8]) == {None} and set(seen[-8:]) == {tuple(gen1["playout_weights"])}
    metrics = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").open()]
    assert len(metrics) == 2 and all(0 < m["playout/nll"] < 10 and 0 < m["playout/top1"] <= 1
                                     and m["playout/used"] == 1 for m in metrics)
    agent = isz.load_planner(str(ck / "last.pt"), device="cpu")
    np.testing.assert_array_equal(agent.playout_w, last["playout_weights"])
    cfg.trainer.iterations = 3  # resume: iteration 3's teacher plays the last fit
    seen.clear()
    loop.train(cfg)
    assert set(seen[:8]) == {tuple(last["playout_weights"])}


def test_a_playout_fit_needs_the_planner_teacher():
    from isz.training.config import TrainConfig, validate

    cfg = TrainConfig()
    cfg.selfplay.playout_fit_games, cfg.selfplay.teacher = 10, "so_ismcts"
    with pytest.raises(isz.IszError, match="playout_fit_games > 0 needs selfplay.teacher"):
        validate(cfg)


def test_the_run_logs_the_exploitability_of_the_planner_it_records():
    """The planner of the run's record — its fitted playout included — is the one whose
    exploitability the loop logs; the raw network's figure does not depend on it."""
    from isz.settings.planner_record import planner_record as run_record
    from isz.training.config import TrainConfig
    from isz.training.evaluation import exploitability_of, planner
    from isz.training.playout_fit import with_playout

    cfg = TrainConfig()
    cfg.game.name, cfg.search.simulations = "kuhn_poker", 40
    cfg.trainer.exploitability_max_histories = 1000
    game = isz.make_game("kuhn_poker")
    torch.manual_seed(0)
    model = build_model(game, ModelConfig(16, 1))
    cpu = torch.device("cpu")
    record = with_playout(run_record(cfg, "most_visits"), [6.0, -6.0])  # always pass
    agent = planner(game, model, cfg, cpu, final="visit_distribution", record=record)
    np.testing.assert_array_equal(agent.playout_w, [6.0, -6.0])
    plain = exploitability_of(game, model, cfg, cpu, seed=3)
    fitted = exploitability_of(game, model, cfg, cpu, seed=3, record=record)
    assert plain["eval/exploitability"] != fitted["eval/exploitability"]
    assert plain["eval/exploitability_net"] == fitted["eval/exploitability_net"]


def test_the_fit_records_the_same_moves_on_any_number_of_processes(tmp_path):
    """Chunks of `CHUNK_GAMES` games, each from its own seed and with the agent's caches
    cleared: forked workers record what this process would, in the same order (it
    fails if a chunk's draws came from a stream shared with the chunks before it)."""
    from isz.training.playout_fit import CHUNK_GAMES, record_chunks

    game = isz.make_game("tricks", **SMALL)
    path = _checkpoint(tmp_path, {"agent": "guided_so_ismcts", "iterations": 30,
                                  "belief": "sir"}, game)
    agent = isz.load_planner(path, device="cpu")
    games = 2 * CHUNK_GAMES + 3
    seen: list[int] = []
    one = record_chunks(agent, game, games, np.random.SeedSequence(5), 1, seen.append)
    three = record_chunks(agent, game, games, np.random.SeedSequence(5), 3)
    assert seen == [CHUNK_GAMES, CHUNK_GAMES, 3]
    for a, b in ((one.feats, three.feats), (one.mask, three.mask),
                 (one.target, three.target)):
        np.testing.assert_array_equal(a, b)
    # 23 games of 3 seats x 4 decisions (a bid, 3 cards)
    assert len(one) == games * 3 * 4
    # the last chunk alone, from its own seed, is the rows' tail
    tail = record_moves(agent, game, 3,
                        np.random.default_rng(np.random.SeedSequence(5).spawn(3)[2]))
    np.testing.assert_array_equal(tail.target, one.target[-len(tail):])
    other = record_chunks(agent, game, games, np.random.SeedSequence(6), 1)
    assert not np.array_equal(other.target, one.target)
    seed = np.random.SeedSequence(5)  # one seed object, twice: the same rows
    np.testing.assert_array_equal(record_chunks(agent, game, 3, seed).target,
                                  record_chunks(agent, game, 3, seed).target)


def test_the_command_fits_at_another_search_and_names_a_bad_one(tmp_path, capsys):
    """``isz-fit-playout --iterations I`` plays the fit's games at I a move and leaves the
    record's search for play; a bad count is one line that names it."""
    from isz.training.playout_fit import main

    game = isz.make_game("tricks", **SMALL)
    path = _checkpoint(tmp_path, {"agent": "guided_so_ismcts", "iterations": 40,
                                  "belief": "voids"}, game)
    with pytest.raises(SystemExit) as e:
        main([path, "--iterations", "0"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "--iterations" in err and len(err.strip().splitlines()) == 1
    assert main([path, "--games", "4", "--test-games", "2", "--iterations", "16",
                 "--workers", "1"]) == 0
    assert '"iterations": 16' in capsys.readouterr().out
    assert planner_record(load_checkpoint(path))["iterations"] == 40
