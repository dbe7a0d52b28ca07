"""The training loop's evaluations go through `play_match`: the same scores as the
in-memory planner played in the arena, journals kept per matchup under
``<run_dir>/eval`` until the next evaluation."""

from __future__ import annotations

import torch

import isz
from isz.evaluation import match
from isz.nn.model import ModelConfig, build_model
from isz.training.config import TrainConfig
from isz.training.evaluation import evaluate, planner
from tests.recipes import alphazero_config


def _cfg(run_dir) -> TrainConfig:
    cfg = alphazero_config()  # a PUCT planner: its simulations are the opponents' too
    cfg.game.name = "tricks"
    cfg.search.simulations = 6
    cfg.trainer.eval_opponents = ["random", "so_ismcts"]
    cfg.trainer.eval_workers = 2
    cfg.trainer.exploitability_max_histories = 0
    cfg.experiment.run_dir = str(run_dir)
    return cfg


def test_scores_equal_the_in_memory_planner_in_the_arena(tmp_path):
    cfg = _cfg(tmp_path)
    game = isz.make_game("tricks")
    torch.manual_seed(0)
    model = build_model(game, ModelConfig(16, 1))
    cpu = torch.device("cpu")
    out = evaluate(game, model, cfg, cpu, deals=6, seed=11)
    for opp in cfg.trainer.eval_opponents:
        knobs = {} if opp == "random" else {"iterations": 6}
        seats = [planner(game, model, cfg, cpu), isz.make_agent(opp, game, **knobs)]
        ref = match(game, seats, 6, 11, progress=False).agents[0]
        assert (out[f"eval/score_vs_{opp}"], out[f"eval/se_vs_{opp}"]) == (ref.score,
                                                                            ref.score_se)
        assert (out[f"eval/utility_vs_{opp}"], out[f"eval/utility_se_vs_{opp}"]) == (
            ref.utility, ref.utility_se)
    journals = sorted(p.name for p in (tmp_path / "eval").glob("*.jsonl"))
    assert [j.split(".")[0] for j in journals] == ["vs_random", "vs_so_ismcts"]
    model.policy_head.weight.data += 0.5  # new weights: a new match, the old journals go
    evaluate(game, model, cfg, cpu, deals=2, seed=11)
    assert not set(journals) & {p.name for p in (tmp_path / "eval").glob("*.jsonl")}
