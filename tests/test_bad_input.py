"""Bad input gets a clear error naming the bad value and what is allowed."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz import IllegalActionError, IszError


def test_unknown_game_lists_games():
    with pytest.raises(IszError, match=r"unknown game 'chess'.*allowed:.*kuhn_poker"):
        isz.make_game("chess")


def test_unknown_game_parameter():
    with pytest.raises(IszError, match=r"unknown parameter\(s\) decks .*allowed"):
        isz.make_game("kuhn_poker", decks=2)


def test_unknown_agent_lists_agents():
    with pytest.raises(IszError, match=r"unknown agent 'alphago'.*allowed:.*so_ismcts"):
        isz.make_agent("alphago", isz.make_game("kuhn_poker"))


@pytest.mark.parametrize("agent", ["so_ismcts", "mo_ismcts", "pimc", "cheat_uct"])
def test_unknown_knob_lists_knobs(agent):
    with pytest.raises(IszError, match=r"unknown knob\(s\) iters .*allowed:.*iterations"):
        isz.make_agent(agent, isz.make_game("kuhn_poker"), iters=5)


@pytest.mark.parametrize("bad", [0, -3, 2.5, "many", True])
def test_bad_iterations(bad):
    with pytest.raises(IszError, match="iterations"):
        isz.make_agent("so_ismcts", isz.make_game("kuhn_poker"), iterations=bad)


@pytest.mark.parametrize("knobs,word", [({"c": -1}, "exploration"),
                                        ({"final": "vote"}, "most_visits"),
                                        ({"time_budget": 0}, "time_budget"),
                                        ({"belief": "psychic"}, "uniform"),
                                        ({"determinizations": 0}, "determinizations")])
def test_bad_knob_values(knobs, word):
    with pytest.raises(IszError, match=word):
        isz.make_agent("pimc", isz.make_game("kuhn_poker"), **knobs)


def test_illegal_action_lists_legal_ones():
    state = isz.make_game("kuhn_poker").new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    with pytest.raises(IllegalActionError,
                       match=r"illegal action 7 .*legal: 0 \(pass\), 1 \(bet\)"):
        state.apply_action(7)


def test_illegal_chance_outcome_and_finished_game():
    state = isz.make_game("coin_guess").new_initial_state()
    with pytest.raises(IllegalActionError, match="chance"):
        state.apply_action(3)
    state.apply_action(0)
    state.apply_action(0)  # safe: the game ends
    with pytest.raises(IllegalActionError, match="over"):
        state.apply_action(0)


def test_view_of_missing_player():
    with pytest.raises(IszError, match="player 2"):
        isz.make_game("kuhn_poker").new_initial_state().view(2)


def test_agent_with_time_budget_runs():
    game = isz.make_game("kuhn_poker")
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(2)
    agent = isz.make_agent("so_ismcts", game, time_budget=0.02, iterations=None)
    assert agent.act(state.view(0), np.random.default_rng(0)) in (0, 1)
