"""research/leduc_target_error.py: exact on-policy tables, an unbiased search under exact
leaf values (and a biased one under wrong values), and the command's report."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest
import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.evaluation.exploitability import exploitability
from isz.nn import ModelConfig, build_model
from isz.nn.checkpoint import save_checkpoint
from research import leduc_exact as exact
from research import leduc_target_error as lte


@pytest.fixture(scope="module")
def setup():
    torch.manual_seed(0)
    game = isz.make_game("leduc_poker")
    model = build_model(game, ModelConfig(width=16, depth=1))
    net = NetworkEvaluator(model, "cpu")
    return game, model, net, exact.exact_tables(game, exact.net_policy(net), 5.0, 0.05)


def test_exact_tables_agree_with_the_game_tree(setup):
    game, _, _, ex = setup
    assert len(ex.views) == 936 and set(ex.street) == {1, 2}
    np.testing.assert_allclose((ex.probs * ex.q).sum(axis=1), ex.value, atol=1e-12)
    first = [i for i, v in enumerate(ex.views) if v.player == 0 and v.data[3] == 0]
    assert len(first) == 6  # one per card of player 0, nothing played yet
    np.testing.assert_allclose(ex.reach[first].sum(), 1.0)
    index = {v.key: i for i, v in enumerate(ex.views)}
    pv = exploitability(game, lambda v: ex.probs[index[v.key]]).policy_values[0]
    assert (ex.reach[first] * ex.value[first]).sum() * 13 == pytest.approx(pv, abs=1e-9)
    np.testing.assert_allclose(ex.step.sum(axis=1), 1.0)
    # every card of a public state: player 0's first decision is one public state
    np.testing.assert_allclose(ex.public_reach[first], 1.0)
    assert np.all(ex.public_reach >= ex.step_reach - 1e-12)
    assert np.all(ex.step[~ex.legal] == 0)


def _mean_q(setup, evaluator, sets, repeats=48):
    game, _, net, ex = setup
    cfg = lte.selfplay_config(argparse.Namespace(simulations=32, eta=5.0, alpha=0.05))
    q, _ = lte.sample_searches(game, evaluator, net, cfg, ex, ex.probs, sets, repeats, 0)
    mask = ex.legal[sets]
    pairs = q.transpose(0, 2, 1)[mask]  # [legal (set, move) pairs, repeats]
    se = pairs.std(axis=1, ddof=1) / np.sqrt(repeats)
    return pairs.mean(axis=1) - ex.q[sets][mask], se


def test_search_under_exact_leaf_values_is_unbiased_and_wrong_values_show(setup):
    _, _, net, ex = setup
    sets = np.array([i for i, v in enumerate(ex.views) if v.data[3] <= 1])[:8]  # round 1
    err, se = _mean_q(setup, exact.ExactValueEvaluator(net, ex.view_value), sets)
    assert np.all(np.abs(err) < 4 * se + 1e-9), (err, se)
    off = {k: (seat, v + 0.3) for k, (seat, v) in ex.view_value.items()}
    err, se = _mean_q(setup, exact.ExactValueEvaluator(net, off), sets)
    assert np.mean(err) > 0.05 and np.mean(err) > 4 * np.sqrt(np.mean(se ** 2))


def test_command_writes_a_table_per_variant(setup, tmp_path):
    game, model, _, _ = setup
    ck = save_checkpoint(tmp_path / "net.pt", model=model, game=game,
                         model_cfg=ModelConfig(width=16, depth=1))
    out = tmp_path / "e.json"
    rc = lte.main([str(ck), "--next", str(ck), "--simulations", "4", "--repeats", "2",
                   "--round1-factor", "1", "--variants", "network",
                   "--json", str(out)])
    assert rc == 0
    res = json.loads(out.read_text())
    assert res["magnet_used"] == "the network"  # the checkpoint recorded none
    for v in res["variants"].values():
        assert [r["group"] for r in v["rows"]][-1] == "all"
        assert len(v["rows"]) == 11 and v["rows"][-1]["sets"] == 936
        e = v["exploitability"]
        assert e["next_network"] == e["network"]  # the same network: no move
        assert e["exact_step"] < e["network"]  # one exact step improves the policy
    assert res["variants"]["network"]["rows"][-1]["next_sq"] == pytest.approx(
        res["variants"]["network"]["rows"][-1]["step_sq"])


def test_command_refuses_another_game(tmp_path, capsys):
    game = isz.make_game("kuhn_poker")
    model = build_model(game, ModelConfig(width=8, depth=1))
    ck = save_checkpoint(tmp_path / "k.pt", model=model, game=game,
                         model_cfg=ModelConfig(width=8, depth=1))
    assert lte.main([str(ck)]) == 2
    assert "this tool reads Leduc" in capsys.readouterr().err
