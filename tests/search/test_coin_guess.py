"""Seed 000's strategy-fusion trap: PIMC gambles, ISMCTS takes the sure 0.6."""

from __future__ import annotations

import numpy as np
import pytest

import isz

DECISIONS = 200


def _gamble_rate(agent_name: str) -> float:
    game = isz.make_game("coin_guess")
    agent = isz.make_agent(agent_name, game, iterations=1000)
    rng = np.random.default_rng(2024)
    gambles = 0
    for _ in range(DECISIONS):
        state = game.new_initial_state()
        state.apply_action(int(rng.integers(2)))  # the hidden coin
        gambles += agent.act(state.view(0), rng) == 1
    return gambles / DECISIONS


def test_pimc_gambles():
    assert _gamble_rate("pimc") >= 0.95


@pytest.mark.parametrize("agent", ["so_ismcts", "mo_ismcts"])
def test_ismcts_takes_the_sure_thing(agent):
    assert _gamble_rate(agent) <= 0.05
