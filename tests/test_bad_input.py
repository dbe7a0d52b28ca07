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


# -- API footguns: what an agent is handed --------------------------------------------------

VIEW_AGENTS = ["random", "so_ismcts", "mo_ismcts", "pimc", "puct_ismcts"]


def _kuhn_decision():
    """Kuhn poker after the deal: player 0 to move."""
    state = isz.make_game("kuhn_poker").new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    return state


def _agent(name, game):
    return isz.make_agent(name, game, **({} if name == "random" else {"iterations": 8}))


@pytest.mark.parametrize("name", VIEW_AGENTS)
@pytest.mark.parametrize("entry", ["act", "policy"])
def test_view_of_a_seat_not_to_move(name, entry):
    state = _kuhn_decision()
    agent = _agent(name, state.game)
    with pytest.raises(IszError, match=r"view of player 1, but player 0 is to move"):
        getattr(agent, entry)(state.view(1), np.random.default_rng(0))
    assert getattr(agent, entry)(state.view(0), np.random.default_rng(0)) is not None


@pytest.mark.parametrize("name", VIEW_AGENTS)
def test_state_where_a_view_belongs(name):
    state = _kuhn_decision()
    with pytest.raises(IszError, match=r"View, never the true State.*state\.view"):
        _agent(name, state.game).act(state, np.random.default_rng(0))


@pytest.mark.parametrize("name", VIEW_AGENTS)
def test_view_of_another_game(name):
    leduc = isz.make_game("leduc_poker").new_initial_state()
    while leduc.is_chance_node():
        leduc.apply_action(leduc.chance_outcomes()[0][0])
    agent = _agent(name, isz.make_game("kuhn_poker"))
    with pytest.raises(IszError, match=r"made for kuhn_poker\(\).*view of leduc_poker"):
        agent.act(leduc.view(leduc.current_player()), np.random.default_rng(0))


def test_view_of_a_finished_game():
    state = _kuhn_decision()
    state.apply_action(0)
    state.apply_action(0)  # pass, pass: the game is over
    with pytest.raises(IszError, match="nobody .*is to move"):
        isz.make_agent("random", state.game).act(state.view(0), np.random.default_rng(0))


def test_cheating_agent_refuses_views_and_other_games():
    state = _kuhn_decision()
    agent = isz.make_agent("cheat_uct", state.game, iterations=8)
    with pytest.raises(IszError, match="act_cheating"):
        agent.act(state.view(0), np.random.default_rng(0))
    with pytest.raises(IszError, match="got View"):
        agent.act_cheating(state.view(0), np.random.default_rng(0))
    assert agent.act_cheating(state, np.random.default_rng(0)) in (0, 1)


def test_non_cheating_agent_has_no_act_cheating():
    state = _kuhn_decision()
    with pytest.raises(IszError, match="does not cheat"):
        isz.make_agent("random", state.game).act_cheating(state, np.random.default_rng(0))


@pytest.mark.parametrize("name", isz.game_names())
def test_describe_accepts_views(name):
    from tests.conftest import random_decision

    game = isz.make_game(name)
    state = random_decision(game, np.random.default_rng(3), 8)
    to_move = state.current_player()
    for p in range(game.num_players):
        text = game.describe(state.view(p))
        assert f"seen by player {p}" in text and f"player {to_move} to move" in text
    assert "legal:" in game.describe(state.view(to_move))
    assert isinstance(game.describe(state), str) and str(state)


def test_describe_refuses_other_games_and_non_states():
    kuhn = _kuhn_decision()
    with pytest.raises(IszError, match="a view of kuhn_poker"):
        isz.make_game("leduc_poker").describe(kuhn.view(0))
    with pytest.raises(IszError, match="State or a View, got int"):
        kuhn.game.describe(3)
