"""research.reservoir_average: the reservoir's own tabular average against the average
network, on a tiny Kuhn run."""

from __future__ import annotations

import json

import numpy as np
import pytest

from isz import IszError, make_game
from isz.evaluation.exploitability import exploitability, game_tree
from isz.nn import load_model
from isz.training import loop
from research import reservoir_average
from research.iterate_averages import network_policies
from tests.training.kuhn_mirror import kuhn_mirror_cfg


def test_tabular_average_is_the_mean_target_per_information_set():
    views = game_tree(make_game("kuhn_poker")).views
    x = np.stack([views[i].tensor().reshape(-1) for i in (0, 0, 0, 5)])
    p = np.array([[1, 0], [0, 1], [0, 1], [0.25, 0.75]], np.float32)
    mean, count = reservoir_average.tabular_average(x, p, views)
    assert count[0] == 3 and count[5] == 1 and count.sum() == 4
    assert mean[0] == pytest.approx([1 / 3, 2 / 3]) and mean[5] == pytest.approx([0.25, 0.75])
    with pytest.raises(IszError, match="1 reservoir rows match no information set"):
        reservoir_average.tabular_average(np.vstack([x, x[:1] + 7]), np.vstack([p, p[:1]]),
                                          views)


def test_a_runs_reservoir_and_network_are_measured(tmp_path, capsys):
    cfg = kuhn_mirror_cfg(tmp_path / "run", 3)
    cfg.trainer.average_policy_from = 2
    cfg.trainer.average_policy_steps = 8
    loop.train(cfg)
    out = tmp_path / "r.json"
    assert reservoir_average.main([str(tmp_path / "run"), "--output", str(out)]) == 0
    row = json.loads(out.read_text())["runs"][0]
    game = make_game("kuhn_poker")
    tree = game_tree(game)
    net = network_policies(load_model(tmp_path / "run/checkpoints/average_policy.pt")[0],
                           tree.views, game)
    index = {v.key: i for i, v in enumerate(tree.views)}
    want = exploitability(game, lambda v: net[index[v.key]]).exploitability
    assert row["network"] == pytest.approx(want) and row["sets"] == 12
    assert 0 <= row["unseen"] < 12 and 0 < row["tabular"] < 1 and row["rows"] > 0
    assert row["tabular"] != pytest.approx(row["network"])  # 8 steps fit it loosely

    assert reservoir_average.main([str(tmp_path / "nothing")]) == 2
    assert "no reservoir-<n>.npz" in capsys.readouterr().err

    # the run's own iterates 1..3, weighted by play, and resampled at its reservoir's rows
    args = [str(tmp_path / "run"), "--iterates", str(tmp_path / "run"), "--from", "1",
            "--draws", "2", "--output", str(out)]
    assert reservoir_average.main(args) == 0
    row = json.loads(out.read_text())["runs"][0]
    assert 0 < row["play_weighted"] < 1 and len(row["resampled"]) == 2
    assert len(row["resampled_x10"]) == 2 and all(0 < e < 1 for e in row["resampled"])
    assert reservoir_average.main(args[:3] + ["--from", "0"]) == 2
    assert "every iteration from 0" in capsys.readouterr().err
    assert reservoir_average.main(args[:1] + ["--iterates", "a", "b"]) == 2
    assert "names 2 folders for 1 runs" in capsys.readouterr().err


def test_play_reach_is_how_often_play_and_chance_reach_a_set():
    """Uniform play in Kuhn: seat 0's first decision (its card: 1/3), seat 1 after a
    pass or a bet (1/3 x 1/2 each), seat 0 after pass, bet (1/3 x 1/2 x 1/2)."""
    game = make_game("kuhn_poker")
    tree = game_tree(game)
    legal = np.zeros((len(tree.views), game.num_actions))
    for i, v in enumerate(tree.views):
        legal[i, list(v.legal_actions)] = 1
    visits = reservoir_average.play_reach(tree, legal / legal.sum(1, keepdims=True))
    assert sorted(np.round(visits * 12, 9)) == [1] * 3 + [2] * 6 + [4] * 3
