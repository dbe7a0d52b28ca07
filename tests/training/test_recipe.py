"""The default recipe: self-play taught by the current planner, generation snapshots,
the strength ladder after each, and the planner the run records (guided_so_ismcts with
the game's best belief)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import isz
from isz import IszError
from isz.nn.checkpoint import load_checkpoint
from isz.settings.training import TRAINER
from isz.training.config import TrainConfig, ends_generation, validate
from isz.training.loop import train


def _recipe_cfg(run_dir) -> TrainConfig:
    cfg = TrainConfig()  # the declared defaults are the recipe
    cfg.game.name = "kuhn_poker"
    cfg.selfplay.games_per_iteration = 16
    cfg.selfplay.parallel_games = 8
    cfg.selfplay.teacher_iterations = 64
    cfg.model.width, cfg.model.depth = 16, 1
    cfg.trainer.iterations = 2
    cfg.trainer.steps_per_iteration = 4
    cfg.trainer.batch_size = 16
    cfg.trainer.eval_every = 0
    cfg.trainer.final_eval_deals = 4
    cfg.trainer.value_check_deals = cfg.trainer.root_check_deals = 4
    cfg.trainer.eval_opponents = ["random"]
    cfg.trainer.exploitability_max_histories = 0
    cfg.trainer.generation_every = 1
    cfg.trainer.ladder_deals = 4
    cfg.trainer.ladder_time = 0.002
    cfg.trainer.eval_workers = 1
    cfg.logger.progress = False
    cfg.experiment.run_dir = str(run_dir)
    return cfg


def test_the_default_recipe_records_its_teacher_and_ladders_its_generations(tmp_path, capsys):
    run = tmp_path / "run"
    train(_recipe_cfg(run))
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("ladder")]
    assert len(said) == 2 and "gen2 " in said[1] and "so_ismcts = 0" in said[1]
    ck = run / "checkpoints"
    assert sorted(p.name for p in ck.glob("gen-*.pt")) == ["gen-000001.pt", "gen-000002.pt"]
    record = load_checkpoint(ck / "last.pt")["extra"]["planner"]
    check = json.loads((run / "results.json").read_text())["final"]
    mix = check["value_check/value_mix"]
    # the check's rule: the values are recorded when ahead on the mean of one round
    assert mix == (0.25 if check["value_check/diff"] > 0 else 0.0)
    assert check["value_check/deals"] == 4
    # then the root's rule: the priors' PUCT when it is ahead on the mean of one round,
    # else so_ismcts's UCB (c_puct 0)
    c_puct = check["root_check/c_puct"]
    assert c_puct == (1.5 if check["root_check/diff"] < 0 else 0.0)
    assert check["root_check/deals"] == 4
    assert record == {"agent": "guided_so_ismcts", "iterations": 64, "c_puct": c_puct,
                      "belief": "auto", "belief_policy": "network", "final": "most_visits",
                      "value_mix": mix}
    planner = isz.load_planner(str(ck / "last.pt"), device="cpu")
    assert planner.name == "guided_so_ismcts"
    assert type(planner.belief).__name__ == "PosteriorBelief"  # auto, with the network
    ladder = json.loads((run / "ladder" / "ladder.json").read_text())
    assert {p["name"] for p in ladder["players"]} == {"gen1", "gen2", "so_ismcts"}
    # each generation meets its predecessor and the baseline: nothing farther back
    assert sorted(sorted(t["players"]) for t in ladder["pairings"]) == [
        ["gen1", "gen2"], ["gen1", "so_ismcts"], ["gen2", "so_ismcts"]]
    for p in ladder["players"]:
        assert np.isfinite(p["rating"]) and p["se"] >= 0
    assert (run / "ladder" / "ladder.png").stat().st_size > 0


def test_doubling_generations_end_at_powers_of_two_and_the_last_iteration(tmp_path):
    t = TrainConfig().trainer
    t.iterations, t.generation_every, t.generation_schedule = 30, 6, "doubling"
    assert [it for it in range(1, 31) if ends_generation(t, it)] == [1, 2, 4, 8, 16, 30]
    t.generation_schedule = "every"
    assert [it for it in range(1, 31) if ends_generation(t, it)] == [6, 12, 18, 24, 30]
    t.generation_every = 0
    assert not any(ends_generation(t, it) for it in range(1, 31))
    cfg = _recipe_cfg(tmp_path / "run")
    cfg.trainer.iterations, cfg.trainer.ladder_deals = 3, 0
    cfg.trainer.generation_every, cfg.trainer.generation_schedule = 0, "doubling"
    train(cfg)
    ck = tmp_path / "run" / "checkpoints"
    assert sorted(p.name for p in ck.glob("gen-*.pt")) == [
        "gen-000001.pt", "gen-000002.pt", "gen-000003.pt"]
    cfg.trainer.generation_schedule = "halving"
    with pytest.raises(IszError, match="generation_schedule.*halving.*every.*doubling"):
        validate(cfg)


def test_the_planner_teacher_targets_are_its_visits(tmp_path):
    """A position's policy target is a distribution over the legal moves, and the
    recorded q is in [-1, 1], for every decision of teacher self-play."""
    from isz.agents.network import NetworkEvaluator
    from isz.nn.model import build_model
    from isz.selfplay import SelfPlayConfig, play

    game = isz.make_game("tricks")
    ev = NetworkEvaluator(build_model(game), "cpu")
    cfg = SelfPlayConfig(parallel_games=4, teacher="planner", teacher_iterations=50,
                         belief="auto", value_target_q=1.0, value_target_q_rows="all")
    pos, stats = play(game, ev, cfg, 4, np.random.default_rng(0))
    decisions = pos.policies.sum(axis=1) > 0
    assert stats.games == 4 and decisions.sum() == 4 * game.max_game_length // 2
    assert np.allclose(pos.policies[decisions].sum(axis=1), 1.0)
    assert np.all(pos.policies[decisions][~pos.masks[decisions]] == 0)
    assert np.all(np.abs(pos.returns) <= 1.0)


def test_a_game_from_outside_the_package_trains_with_the_defaults(goofspiel, tmp_path):
    """examples/goofspiel.py (registered as ``game.module`` would): the same recipe, no
    knob chosen for it (sizes only), and its planner loads from the checkpoint."""
    cfg = _recipe_cfg(tmp_path / "goof")
    cfg.game.name, cfg.game.module = "goofspiel", "examples.goofspiel"
    cfg.trainer.generation_every, cfg.trainer.ladder_deals = 0, 0
    # no checks: the record leaves value_mix and c_puct at their defaults
    cfg.trainer.value_check_deals = cfg.trainer.root_check_deals = 0
    train(cfg)
    path = tmp_path / "goof" / "checkpoints" / "last.pt"
    ckpt = load_checkpoint(path)
    assert ckpt["game_module"] == "examples.goofspiel"
    assert ckpt["extra"]["planner"]["agent"] == "guided_so_ismcts"
    assert "value_mix" not in ckpt["extra"]["planner"]
    planner = isz.load_planner(str(path), device="cpu")
    assert planner.game.name == "goofspiel"


def test_a_value_check_of_one_deal_is_refused():
    """A paired SE needs two deals: 1 is refused by name, 0 (off) and 2 pass."""

    setting = next(s for s in TRAINER if s.name == "value_check_deals")
    with pytest.raises(IszError, match=r"value_check_deals must be 0 .* got 1"):
        setting.validate(1)
    assert (setting.validate(0), setting.validate(2)) == (0, 2)
    with pytest.raises(IszError, match="value_check_deals"):
        setting.validate(-3)


def test_generation_checks_hand_their_verdict_to_the_teacher_and_the_snapshot(
        tmp_path, monkeypatch):
    """With ``trainer.generation_checks`` the checks judge every generation but the last
    (the final checks judge that one) on the network as trained; each generation's
    snapshot records their verdict, and the teacher of the iterations after it searches
    with it (``planner``: its root's value mix and c_puct; ``root``: c_puct alone); a
    resumed run keeps the last verdict."""
    from isz.training import loop

    verdicts = iter([{"value_check/value_mix": 0.25, "root_check/c_puct": 0.0},
                     {"value_check/value_mix": 0.0, "root_check/c_puct": 1.5},
                     {"value_check/value_mix": 0.25, "root_check/c_puct": 0.0},
                     {"value_check/value_mix": 0.0, "root_check/c_puct": 1.5}])
    judged, taught = [], []

    def fake_checks(game, model, cfg, device, seed, step, record, say):
        judged.append((record.get("value_mix", 0.0), record["c_puct"]))
        return next(verdicts)

    real_source = loop.open_source

    def spy_source(*args, **kwargs):
        source = real_source(*args, **kwargs)
        collect = source.collect

        def spied(st, sp_cfg, games, progress=None):
            taught.append((sp_cfg.teacher_value_mix, sp_cfg.puct.c_puct))
            return collect(st, sp_cfg, games, progress=progress)

        source.collect = spied
        return source

    monkeypatch.setattr(loop, "final_checks", fake_checks)
    monkeypatch.setattr(loop, "open_source", spy_source)
    run = tmp_path / "run"
    cfg = _recipe_cfg(run)
    cfg.trainer.iterations, cfg.trainer.ladder_deals = 3, 0
    cfg.trainer.generation_checks = "planner"
    train(cfg)
    # judged as trained every time: generations 1 and 2, then the final checks
    assert judged == [(0.0, 1.5)] * 3
    assert taught == [(0.0, 1.5), (0.25, 0.0), (0.0, 1.5)]
    ck = run / "checkpoints"
    planners = [load_checkpoint(ck / f"gen-00000{g}.pt")["extra"]["planner"]
                for g in (1, 2, 3)]
    assert [(p["value_mix"], p["c_puct"]) for p in planners] == [
        (0.25, 0.0), (0.0, 1.5), (0.25, 0.0)]
    rows = [json.loads(line) for line in (run / "metrics.jsonl").open()]
    assert [r["value_check/value_mix"] for r in rows] == [0.25, 0.0, 0.25]
    # one more iteration: the teacher resumes with the last verdict (the final checks')
    cfg.trainer.iterations = 4
    train(cfg)
    assert taught[3:] == [(0.25, 0.0)] and judged[3:] == [(0.0, 1.5)]
    # root: the same checks and snapshots; the teacher takes the root's rule alone
    judged.clear(), taught.clear()
    verdicts = iter([{"value_check/value_mix": 0.25, "root_check/c_puct": 0.0}] * 2)
    cfg = _recipe_cfg(tmp_path / "root")
    cfg.trainer.iterations, cfg.trainer.ladder_deals = 2, 0
    cfg.trainer.generation_checks = "root"
    train(cfg)
    assert judged == [(0.0, 1.5)] * 2 and taught == [(0.0, 1.5), (0.0, 0.0)]
    planner = load_checkpoint(tmp_path / "root" / "checkpoints" / "gen-000001.pt")
    assert planner["extra"]["planner"]["value_mix"] == 0.25
    # off (the default): no check before the last iteration, the teacher as trained
    judged.clear(), taught.clear()
    verdicts = iter([{"value_check/value_mix": 0.25, "root_check/c_puct": 0.0}] * 2)
    cfg = _recipe_cfg(tmp_path / "off")
    cfg.trainer.iterations, cfg.trainer.ladder_deals = 2, 0
    assert cfg.trainer.generation_checks == "off"
    train(cfg)
    assert judged == [(0.0, 1.5)] and taught == [(0.0, 1.5)] * 2
    # resumed past its final check: the next generation records the planner as trained
    cfg.trainer.iterations = 4
    train(cfg)
    assert taught[2:] == [(0.0, 1.5)] * 2 and len(judged) == 2
    third = load_checkpoint(tmp_path / "off" / "checkpoints" / "gen-000003.pt")
    assert "value_mix" not in third["extra"]["planner"]
    assert third["extra"]["planner"]["c_puct"] == 1.5
