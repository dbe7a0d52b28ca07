"""OpenSpiel's bots as isz agents: view-only decisions, knobs, strength, time budget."""

from __future__ import annotations

import time

import numpy as np
import pytest

import isz
from isz.evaluation import match
from tests.conftest import random_decision, twin_state

pytest.importorskip("pyspiel")

GAMES = ["kuhn_poker", "leduc_poker", "oh_hell"]
REPRODUCIBLE = [("openspiel_ismcts", {"impl": "python"}), ("openspiel_mcts", {})]


def _pairs(game_name, count, seed=0):
    """``count`` (state, twin state, player) triples at random decisions of a game."""
    game = isz.make_game(game_name)
    rng = np.random.default_rng(seed)
    for i in range(count):
        state = random_decision(game, rng, int(rng.integers(0, 60)))
        p = state.current_player()
        yield game, state, twin_state(game, state, p, rng) or state.clone(), p, i


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("agent_name, knobs", REPRODUCIBLE)
def test_same_view_same_action(game_name, agent_name, knobs):
    """The project's security boundary (tests/search/test_no_leak.py) for these bots."""
    differ = 0
    for game, state, twin, p, seed in _pairs(game_name, 8):
        differ += not np.array_equal(state.data, twin.data)
        a1 = isz.make_agent(agent_name, game, iterations=40, **knobs).act(
            state.view(p), np.random.default_rng(seed))
        a2 = isz.make_agent(agent_name, game, iterations=40, **knobs).act(
            twin.view(p), np.random.default_rng(seed))
        assert a1 == a2, f"{agent_name} on {game_name}: {a1} vs {a2} from one view"
        assert a1 in state.legal_actions()
    assert differ >= 4  # the hidden parts really differed


@pytest.mark.parametrize("game_name", GAMES)
def test_cpp_ismcts_input_is_a_function_of_the_view(game_name):
    """The C++ bot breaks ties in hash-map order, so its action is not reproducible even
    on one input; what it is handed (OpenSpiel state and seed) must depend on the view."""
    for game, state, twin, p, seed in _pairs(game_name, 8, seed=1):
        agent = isz.make_agent("openspiel_ismcts", game, iterations=40)
        s1, seed1 = agent.prepare(state.view(p), np.random.default_rng(seed))
        s2, seed2 = agent.prepare(twin.view(p), np.random.default_rng(seed))
        assert s1.history() == s2.history() and seed1 == seed2
        assert s1.information_state_string(p) == agent.twin.openspiel_state(state) \
            .information_state_string(p)
        assert agent.act(state.view(p), np.random.default_rng(seed)) in state.legal_actions()


@pytest.mark.parametrize("agent_name", ["openspiel_ismcts", "openspiel_mcts"])
def test_bots_beat_random_on_leduc(agent_name):
    game = isz.make_game("leduc_poker")
    agents = [isz.make_agent(agent_name, game, iterations=300), isz.make_agent("random", game)]
    r = match(game, agents, deals=150, seed=3, progress=False)
    bot = r.agents[0]  # chips won: random folds too often for win/loss to show it
    assert bot.utility > 3 * bot.utility_se, r.table()
    assert not agents[0].cheats


@pytest.mark.parametrize("name, knobs", [("openspiel_ismcts", {}), ("openspiel_mcts", {}),
                                         ("openspiel_ismcts", {"impl": "python"})])
def test_time_budget_sets_the_time_per_decision(name, knobs):
    game = isz.make_game("oh_hell")
    state = random_decision(game, np.random.default_rng(2), 40)
    view = state.view(state.current_player())
    agent = isz.make_agent(name, game, iterations=None, time_budget=0.1, **knobs)
    for _ in range(4):  # counted searches are paced by the previous decision's time
        agent.act(view, np.random.default_rng(0))
    start = time.perf_counter()
    for _ in range(4):
        agent.act(view, np.random.default_rng(0))
    assert 0.03 < (time.perf_counter() - start) / 4 < 0.5  # loose: the machine is shared
    assert np.isnan(agent.last_simulations) or agent.last_simulations > 8
    tiny = isz.make_agent(name, game, iterations=None, time_budget=1e-6, **knobs)
    for _ in range(3):  # a budget below OpenSpiel's two first simulations: no crash
        assert tiny.act(view, np.random.default_rng(0)) in view.legal_actions
    assert np.isnan(tiny.last_simulations) or tiny.last_simulations >= 2


def test_policy_is_the_bot_final_policy():
    game = isz.make_game("leduc_poker")
    state = random_decision(game, np.random.default_rng(4), 3)
    view = state.view(state.current_player())
    agent = isz.make_agent("openspiel_ismcts", game, iterations=200, impl="python",
                           final="visit_distribution")
    pi = agent.policy(view, np.random.default_rng(5))
    assert pi.sum() == pytest.approx(1.0)
    assert set(np.flatnonzero(pi)) <= set(view.legal_actions)
    assert (pi > 0).sum() >= 2  # visit counts, not a one-hot


@pytest.mark.parametrize("name, knobs, match_text", [
    ("openspiel_ismcts", {"final": "mirror"}, "final-move rule"),
    ("openspiel_mcts", {"final": "visit_distribution"}, "final-move rule"),
    ("openspiel_ismcts", {"impl": "rust"}, "impl"),
    ("openspiel_mcts", {"impl": "python"}, "unknown knob"),
    ("openspiel_ismcts", {"time_budget": 0}, "time_budget must be a positive"),
    ("openspiel_ismcts", {"uct_c": -1}, "uct_c must be"),
    ("openspiel_ismcts", {"iterations": 1}, "iterations must be"),
    ("openspiel_mcts", {"iterations": None}, "needs iterations"),
])
def test_bad_knobs(name, knobs, match_text):
    with pytest.raises(isz.IszError, match=match_text):
        isz.make_agent(name, isz.make_game("kuhn_poker"), **knobs)


def test_game_without_twin():
    with pytest.raises(isz.IszError, match="no OpenSpiel twin"):
        isz.make_agent("openspiel_ismcts", isz.make_game("tricks"))
