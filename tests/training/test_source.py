"""Self-play on this machine (`LocalSelfPlay`): the iteration's games in seeded chunks,
the same games for any number of worker processes."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import numpy as np
import pytest
import torch

import isz
from isz.nn import ModelConfig, build_model
from isz.search.puct_driver import PUCTConfig
from isz.selfplay import SelfPlayConfig
from isz.selfplay.chunks import chunk_sizes
from isz.selfplay.records import FIELDS
from isz.training.source import LocalSelfPlay

SETTINGS = {
    "puct": dict(parallel_games=4, simulations=12, puct=PUCTConfig(dirichlet_eps=0.25)),
    "mirror": dict(parallel_games=4, simulations=12, target="mirror",
                   puct=PUCTConfig(dirichlet_eps=0.25)),
    "planner": dict(parallel_games=4, teacher="planner", teacher_iterations=40),
}


def _state(magnet: bool = False):
    game = isz.make_game("kuhn_poker")
    torch.manual_seed(0)
    model = build_model(game, ModelConfig(width=16, depth=1))
    other = None
    if magnet:
        other = copy.deepcopy(model)
        with torch.no_grad():
            for p in other.parameters():
                p.mul_(0.5)
    return game, SimpleNamespace(model=model, magnet=other, rng=np.random.default_rng(7))


def _collect(workers: int, kind: str, games: int = 10, rounds: int = 2):
    """``rounds`` collects with weights that change in between, as a run's do."""
    game, st = _state(magnet=kind == "mirror")
    cfg = SelfPlayConfig(**SETTINGS[kind])
    source = LocalSelfPlay(game, "cpu", workers)
    out, ticks = [], []
    try:
        for _ in range(rounds):
            pos, stats, _ = source.collect(st, cfg, games, progress=ticks.append)
            out.append((pos, stats))
            with torch.no_grad():  # the learner's step: the next chunks must see it
                for p in st.model.parameters():
                    p.add_(0.05 * torch.randn_like(p))
    finally:
        source.close()
    return out, ticks, st.rng.bit_generator.state


@pytest.mark.parametrize("kind", sorted(SETTINGS))
def test_any_number_of_processes_plays_the_same_games(kind):
    one, ticks1, rng1 = _collect(1, kind)
    three, ticks3, rng3 = _collect(3, kind)
    assert rng1 == rng3  # the run's generator moves on alike
    assert sum(ticks1) == sum(ticks3) == 20
    for (a, sa), (b, sb) in zip(one, three, strict=True):
        for f in FIELDS:
            np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f)
        assert sa.games == sb.games == 10 and sa.positions == sb.positions > 0
        np.testing.assert_array_equal(sa.final_returns, sb.final_returns)
    # the weights changed between the collects, and so did the games' targets
    assert not np.array_equal(one[0][0].policies, one[1][0].policies)


def test_a_chunk_that_fails_raises_its_error_here():
    game, st = _state()
    bad = SelfPlayConfig(parallel_games=4, teacher="planner", target="mirror")
    source = LocalSelfPlay(game, "cpu", 2)
    try:
        with pytest.raises(ValueError, match="teacher's target is its visits"):
            source.collect(st, bad, 10)
    finally:
        source.close()


def test_chunks_are_parallel_games_each_and_the_rest():
    assert chunk_sizes(256, 64) == [64] * 4
    assert chunk_sizes(10, 4) == [4, 4, 2]
    assert chunk_sizes(3, 64) == [3]
