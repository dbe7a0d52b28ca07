"""What the example games' no-leak tests share: a tiny network checkpoint of a game, and
the check that an agent acts alike on two true states that share the deciding seat's
view (a twin drawn from that view by the game's uniform resampler)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import numpy as np

from isz.belief import UniformBelief
from isz.games.base import Game, State
from tests.conftest import random_history


def tiny_checkpoint(game: Game, path) -> str:
    """A checkpoint of ``game`` with an untrained width-8 network (torch seed 0)."""
    import torch

    from isz.nn.checkpoint import save_checkpoint
    from isz.nn.model import ModelConfig, build_model

    torch.manual_seed(0)
    cfg = ModelConfig(8, 0)
    return str(save_checkpoint(path, model=build_model(game, cfg), game=game, model_cfg=cfg))


def random_decisions(game: Game, rng: np.random.Generator, lo: int, hi: int,
                     count: int = 40) -> Iterator[State]:
    """``count`` states, each reached by ``random_history`` in ``lo`` to ``hi - 1``
    steps (drawn from ``rng``): the candidates ``assert_same_action_on_twins`` scans."""
    for _ in range(count):
        yield random_history(game, rng, int(rng.integers(lo, hi)))


def assert_same_action_on_twins(game: Game, states: Iterable[State],
                                make_agent: Callable[[], object],
                                rng: np.random.Generator, pairs: int = 5) -> None:
    """For the first ``pairs`` decision states of ``states`` with a twin (another true
    state that gives the deciding seat the same view), a fresh ``make_agent()`` picks
    one action on both, seeded alike; fails if fewer than ``pairs`` twins were found."""
    found = 0
    for state in states:
        p = state.current_player()
        if p < 0:
            continue
        twin = next((State(game, w.copy()) for w in UniformBelief(game).sample_many(
            state.view(p), 32, rng) if not np.array_equal(w, state.data)), None)
        if twin is None:  # nothing hidden from p here
            continue
        acts = [make_agent().act(s.view(p), np.random.default_rng(1)) for s in (state, twin)]
        assert acts[0] == acts[1]
        found += 1
        if found == pairs:
            return
    raise AssertionError(f"only {found} of {pairs} decision states had a twin")
