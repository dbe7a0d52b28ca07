"""What the example games' no-leak tests share: a tiny network checkpoint of a game, and
the check that an agent acts alike on two true states that share the deciding seat's
view (a twin drawn from that view by the game's uniform resampler)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import numpy as np

import isz
from isz.games.base import Game, State
from tests.conftest import random_history, twin_state


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
        twin = twin_state(game, state, p, rng)
        if twin is None:  # nothing hidden from p here
            continue
        acts = [make_agent().act(s.view(p), np.random.default_rng(1)) for s in (state, twin)]
        assert acts[0] == acts[1]
        found += 1
        if found == pairs:
            return
    raise AssertionError(f"only {found} of {pairs} decision states had a twin")


def assert_search_decides_from_view(game: Game, agent: str, lo: int, hi: int) -> None:
    """`assert_same_action_on_twins` for rollout search ``agent`` (60 iterations) over
    `random_decisions` of ``lo`` to ``hi - 1`` steps (generator seed 3)."""
    rng = np.random.default_rng(3)
    assert_same_action_on_twins(game, random_decisions(game, rng, lo, hi),
                                lambda: isz.make_agent(agent, game, iterations=60), rng)


def assert_planner_decides_from_view(game: Game, path, decisions, belief: str = "replay",
                                     **knobs) -> None:
    """`assert_same_action_on_twins` for the default recipe's planner (guided_so_ismcts,
    40 simulations, worlds from ``belief``, more planner ``knobs``) on a `tiny_checkpoint`
    written to ``path``. ``decisions``: ``(lo, hi)`` for `random_decisions`, or a
    function of the generator (seed 3) that yields the candidate states."""
    path = tiny_checkpoint(game, path)
    rng = np.random.default_rng(3)
    states = decisions(rng) if callable(decisions) else random_decisions(game, rng, *decisions)
    assert_same_action_on_twins(game, states, lambda: isz.load_planner(
        path, game, device="cpu", agent="guided_so_ismcts", belief=belief, iterations=40,
        **knobs), rng)
