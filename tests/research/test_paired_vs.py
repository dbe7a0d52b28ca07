"""`research.paired_vs`: two variants of a checkpoint's planner, each against a baseline on
the same deals, and their difference paired over deals."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import isz
from isz.nn.checkpoint import save_checkpoint
from isz.nn.model import ModelConfig, build_model
from research import paired_vs


@pytest.fixture
def checkpoint(tmp_path):
    game = isz.make_game("kuhn_poker")
    torch.manual_seed(0)
    cfg = ModelConfig(width=8, depth=1)
    return str(save_checkpoint(tmp_path / "p.pt", model=build_model(game, cfg), game=game,
                               model_cfg=cfg, extra={"planner": {
                                   "agent": "guided_so_ismcts", "iterations": 16}}))


def test_the_difference_is_paired_over_the_same_deals(tmp_path, checkpoint):
    out = tmp_path / "pv.json"
    payload = paired_vs.main([
        checkpoint, "--game", "kuhn_poker", "--variant", "values=value_mix=0.25",
        "--variant", "none=value_mix=0,c_puct=0", "--time", "0.001", "--deals", "6",
        "--seed", "3", "--workers", "1", "--output", str(out)])
    assert json.loads(out.read_text())["diff"] == pytest.approx(payload["diff"])
    values, none = payload["values"], payload["none"]
    assert values["knobs"]["value_mix"] == 0.25 and none["knobs"]["c_puct"] == 0
    assert values["result"]["deals"] == none["result"]["deals"] == 6
    # the difference is the per-deal mean of the two matches' seat-0 returns
    means = [r["result"]["agents"][0]["utility"] for r in (values, none)]
    assert payload["diff"] == pytest.approx(means[0] - means[1])
    assert np.isfinite(payload["se"])


def test_two_variants_are_needed(checkpoint, tmp_path):
    with pytest.raises(SystemExit):
        paired_vs.main([checkpoint, "--game", "kuhn_poker", "--variant", "a=value_mix=0",
                        "--output", str(tmp_path / "x.json")])
