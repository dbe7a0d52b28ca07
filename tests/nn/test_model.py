"""PolicyValueNet: shapes, masking (exact zeros, no NaN), value range, devices."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.nn import ModelConfig, autocast_context, build_model, resolve_device
from isz.types import IszError


@pytest.fixture(params=["kuhn_poker", "leduc_poker"])
def game(request):
    return isz.make_game(request.param)


def _batch(game, b=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(b, game.tensor_size, generator=g)
    mask = torch.rand(b, game.num_actions, generator=g) < 0.5
    mask[:, 0] = True
    return x, mask


def test_shapes(game):
    torch.manual_seed(0)
    net = build_model(game, ModelConfig(width=16, depth=3))
    x, mask = _batch(game)
    logits, value = net(x, mask)
    assert logits.shape == (5, game.num_actions) and logits.dtype == torch.float32
    assert value.shape == (5, game.num_players) and value.dtype == torch.float32


def test_accepts_view_tensors(game):
    net = build_model(game, {"width": 8, "depth": 1})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    view = state.view(state.current_player())
    x = torch.from_numpy(np.stack([view.tensor()] * 2))
    mask = torch.zeros(2, game.num_actions, dtype=torch.bool)
    mask[:, list(view.legal_actions)] = True
    probs, value = net.predict(x, mask)
    assert torch.allclose(probs.sum(-1), torch.ones(2))


def test_illegal_actions_get_exactly_zero(game):
    torch.manual_seed(1)
    net = build_model(game, ModelConfig(width=16, depth=2))
    x, mask = _batch(game, b=64, seed=1)
    logits, _ = net(x * 1000, mask)  # large inputs: large logits
    probs = torch.softmax(logits, -1)
    assert torch.isfinite(probs).all()
    assert (probs[~mask] == 0).all()
    assert torch.allclose(probs.sum(-1), torch.ones(64))
    logp = torch.log_softmax(logits, -1)
    assert torch.isfinite(logp).all()
    assert torch.isfinite((probs * logp).sum())  # entropy / CE terms stay finite


def test_row_without_legal_action_is_not_nan(game):
    net = build_model(game, ModelConfig(width=8, depth=1))
    x, mask = _batch(game, b=3)
    mask[1] = False
    logits, value = net(x, mask)
    probs = torch.softmax(logits, -1)
    assert torch.isfinite(probs).all() and torch.isfinite(value).all()
    loss = -(torch.zeros_like(probs) * torch.log_softmax(logits, -1)).sum()
    loss.backward()
    assert all(torch.isfinite(p.grad).all() for p in net.parameters() if p.grad is not None)


def test_value_in_range(game):
    torch.manual_seed(2)
    net = build_model(game, ModelConfig(width=16, depth=2))
    _, value = net(torch.randn(32, game.tensor_size) * 100)
    assert (value.abs() <= 1).all()


def test_bad_inputs():
    game = isz.make_game("kuhn_poker")
    net = build_model(game, ModelConfig(width=8, depth=1))
    with pytest.raises(IszError, match="11"):
        net(torch.zeros(2, 7))
    with pytest.raises(IszError, match="mask shape"):
        net(torch.zeros(2, 11), torch.ones(2, 3, dtype=torch.bool))
    with pytest.raises(IszError, match="width"):
        ModelConfig(width=0)
    with pytest.raises(IszError, match="unknown model config"):
        build_model(game, {"width": 8, "heads": 2})


def test_resolve_device():
    assert resolve_device("cpu") == torch.device("cpu")
    assert resolve_device("auto").type in ("cpu", "cuda")
    with pytest.raises(IszError, match="tpu.*available: auto, cpu"):
        resolve_device("tpu")
    if not torch.cuda.is_available():
        with pytest.raises(IszError, match="'cuda'.*not available"):
            resolve_device("cuda")
        with pytest.raises(IszError, match="cuda:1"):
            resolve_device("cuda:1")


def test_autocast_noop_on_cpu():
    game = isz.make_game("kuhn_poker")
    net = build_model(game, ModelConfig(width=8, depth=1))
    x, mask = _batch(game)
    with autocast_context(torch.device("cpu")):
        logits, value = net(x, mask)
    assert logits.dtype == torch.float32 and value.dtype == torch.float32


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_autocast_cuda_masking():
    game = isz.make_game("leduc_poker")
    dev = resolve_device("cuda")
    net = build_model(game, ModelConfig(width=32, depth=2)).to(dev)
    x, mask = _batch(game, b=16)
    with autocast_context(dev):
        logits, value = net(x.to(dev), mask.to(dev))
    probs = torch.softmax(logits, -1)
    assert logits.dtype == torch.float32 and torch.isfinite(probs).all()
    assert (probs[~mask.to(dev)] == 0).all() and (value.abs() <= 1).all()
