"""Checkpoints: round trip, atomic writes, and clear refusals of bad files."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch

import isz
from isz.nn import ModelConfig, build_model, load_checkpoint, load_model, save_checkpoint
from isz.types import IszError

CFG = ModelConfig(width=16, depth=2)


@pytest.fixture
def kuhn():
    return isz.make_game("kuhn_poker")


@pytest.fixture
def saved(tmp_path, kuhn):
    torch.manual_seed(0)
    net = build_model(kuhn, CFG)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    net(torch.rand(4, 11))[0].sum().backward()
    opt.step()
    path = tmp_path / "ckpt" / "model.pt"
    save_checkpoint(path, model=net, game=kuhn, model_cfg=CFG, optimizer=opt,
                    counters={"step": 7, "games": 120},
                    extra={"note": "hi", "lrs": [1e-3, 5e-4], "ema": torch.ones(3)})
    return path, net, opt


def test_round_trip(saved, kuhn):
    path, net, opt = saved
    model, info = load_model(path, kuhn)
    x = torch.rand(8, 11)
    mask = torch.rand(8, 2) < 0.7
    net.eval()
    for a, b in zip(net(x, mask), model(x, mask), strict=True):
        assert torch.equal(a, b)
    assert info["counters"] == {"step": 7, "games": 120}
    assert info["extra"]["note"] == "hi" and torch.equal(info["extra"]["ema"], torch.ones(3))
    assert info["game"] == kuhn.spec and info["model_config"] == {"width": 16, "depth": 2}
    opt2 = torch.optim.Adam(model.parameters(), lr=1e-3)
    opt2.load_state_dict(info["optimizer"])
    assert opt2.state_dict()["state"][0]["step"] == opt.state_dict()["state"][0]["step"]


def test_load_model_without_game(saved):
    model, _ = load_model(saved[0])
    assert model.input_size == 11 and model.num_actions == 2 and model.num_players == 2


def test_no_temp_file_left(saved):
    path = saved[0]
    assert sorted(os.listdir(path.parent)) == ["model.pt"]


def test_failed_save_leaves_nothing(tmp_path, kuhn):
    net = build_model(kuhn, CFG)
    with pytest.raises(IszError, match="extra.*object"):
        save_checkpoint(tmp_path / "m.pt", model=net, game=kuhn, model_cfg=CFG,
                        extra={"bad": object()})
    with pytest.raises(IszError, match="counter"):
        save_checkpoint(tmp_path / "m.pt", model=net, game=kuhn, model_cfg=CFG,
                        counters={"step": 1.5})
    assert os.listdir(tmp_path) == []


def test_overwrite_is_atomic_replace(saved, kuhn):
    path, net, _ = saved
    save_checkpoint(path, model=net, game=kuhn, model_cfg=CFG, counters={"step": 8})
    assert load_checkpoint(path)["counters"] == {"step": 8}
    assert sorted(os.listdir(path.parent)) == ["model.pt"]


def test_other_game_refused(saved):
    leduc = isz.make_game("leduc_poker")
    with pytest.raises(IszError, match="kuhn_poker.*leduc_poker"):
        load_model(saved[0], leduc)


def test_older_tensor_layout_refused(tmp_path, kuhn):
    """A checkpoint trained before its game's tensor changed: one line, what to do."""
    from isz.nn.model import PolicyValueNet

    old = PolicyValueNet(kuhn.tensor_size - 2, kuhn.num_actions, kuhn.num_players, CFG)
    path = tmp_path / "old.pt"
    save_checkpoint(path, model=old, game=kuhn, model_cfg=CFG)
    with pytest.raises(IszError, match=rf"size {kuhn.tensor_size - 2}.*size "
                                       rf"{kuhn.tensor_size}.*train it again"):
        load_model(path, kuhn)
    with pytest.raises(IszError, match="older tensor layout"):
        isz.load_planner(str(path))


def test_missing_file(tmp_path):
    with pytest.raises(IszError, match="nope.pt.*not found"):
        load_checkpoint(tmp_path / "nope.pt")


def test_truncated_file(saved, tmp_path):
    data = saved[0].read_bytes()
    bad = tmp_path / "half.pt"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(IszError, match="half.pt"):
        load_checkpoint(bad)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_bytes(tmp_path, seed):
    bad = tmp_path / "noise.pt"
    bad.write_bytes(np.random.default_rng(seed).bytes(4096))
    with pytest.raises(IszError, match="noise.pt"):
        load_checkpoint(bad)


def test_not_an_isz_checkpoint(tmp_path):
    other = tmp_path / "other.pt"
    torch.save({"weights": torch.zeros(2)}, other)
    with pytest.raises(IszError, match="not an isz checkpoint"):
        load_checkpoint(other)


def test_unknown_version(saved, tmp_path):
    ckpt = torch.load(saved[0], weights_only=True)
    ckpt["version"] = 99
    future = tmp_path / "future.pt"
    torch.save(ckpt, future)
    with pytest.raises(IszError, match="version 99"):
        load_checkpoint(future)


def test_pickled_code_refused(tmp_path):
    evil = tmp_path / "evil.pt"
    torch.save({"format": "isz-checkpoint", "obj": ModelConfig()}, evil)
    with pytest.raises(IszError, match="evil.pt"):
        load_checkpoint(evil)
