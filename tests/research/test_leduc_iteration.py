"""research/leduc_iteration.py: one real self-play iteration's targets per information
set; with all_hands every hand of each visited public state gets a target."""

from __future__ import annotations

import json

import pytest
import torch

import isz
from isz.nn import ModelConfig, build_model
from isz.nn.checkpoint import save_checkpoint
from research import leduc_iteration as li


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    torch.manual_seed(0)
    game = isz.make_game("leduc_poker")
    cfg = ModelConfig(width=16, depth=1)
    return save_checkpoint(tmp_path_factory.mktemp("ck") / "net.pt",
                           model=build_model(game, cfg), game=game, model_cfg=cfg)


def _run(checkpoint, tmp_path, *flags) -> dict:
    out = tmp_path / f"it{len(flags)}.json"
    assert li.main([str(checkpoint), "--games", "16", "--draws", "1", "--simulations", "4",
                    *flags, "--json", str(out)]) == 0
    return json.loads(out.read_text())


def test_all_hands_covers_every_hand_of_the_visited_public_states(checkpoint, tmp_path):
    held = _run(checkpoint, tmp_path)
    every = _run(checkpoint, tmp_path, "--all-hands", "--common-worlds")
    assert every["all_hands"] and every["common_worlds"] and not held["all_hands"]
    # Leduc: 6 hands per public state in round 1, 5 in round 2 (the public card is out)
    ratio = every["searches_per_iteration"] / every["decisions_per_iteration"]
    assert 5.0 <= ratio <= 6.0
    assert held["searches_per_iteration"] == held["decisions_per_iteration"]
    r2 = {r["group"]: r for r in every["rows"]}["round 2, all"]
    r2_held = {r["group"]: r for r in held["rows"]}["round 2, all"]
    # 16 games reach few round-2 sets; every hand of them makes several times as many
    assert 1 - r2["unseen"] > 3 * (1 - r2_held["unseen"])
    assert r2["targets"] > 3 * r2_held["targets"]
    # the network's own figure does not depend on the targets
    assert every["exploitability"]["network"] == held["exploitability"]["network"]


def test_command_refuses_bad_counts(checkpoint, capsys):
    assert li.main([str(checkpoint), "--draws", "0"]) == 2
    assert "--draws, --games and --simulations must be >= 1" in capsys.readouterr().err
