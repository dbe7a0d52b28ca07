"""The security boundary: agents decide from views, never from hidden state.

For every game and every non-cheating agent, two true states that share a
view (the second one a different world drawn from the view) give the same
action with the same seed. Histories come from hypothesis with a fixed
derandomised search, so the test is deterministic.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import isz
from tests.conftest import random_decision, twin_state

# OpenSpiel's bots play only games with an OpenSpiel twin, and OpenSpiel is optional:
# the same test for them is in tests/openspiel/test_bots.py
NATIVE = [n for n in isz.agent_names() if not n.startswith("openspiel_")]
AGENTS = [n for n in NATIVE if not isz.make_agent(n, isz.make_game("kuhn_poker")).cheats]
SMALL = {"iterations": 60}


def _knobs(name):
    return SMALL if "iterations" in isz.agent_knobs(name) else {}


@settings(max_examples=60, deadline=None, derandomize=True)
@given(game_name=st.sampled_from(isz.game_names()), agent_name=st.sampled_from(AGENTS),
       steps=st.integers(0, 40), seed=st.integers(0, 2**31))
def test_same_view_same_action(game_name, agent_name, steps, seed):
    game = isz.make_game(game_name)
    rng = np.random.default_rng(seed)
    state = random_decision(game, rng, steps)
    p = state.current_player()
    twin = twin_state(game, state, p, rng)
    if twin is None:  # nothing hidden here (e.g. every card known)
        twin = state.clone()
    a1 = isz.make_agent(agent_name, game, **_knobs(agent_name)).act(
        state.view(p), np.random.default_rng(seed))
    a2 = isz.make_agent(agent_name, game, **_knobs(agent_name)).act(
        twin.view(p), np.random.default_rng(seed))
    assert a1 == a2, f"{agent_name} on {game_name}: {a1} vs {a2} from one view"


def test_twins_really_differ_somewhere():
    """Guard against a vacuous test: hidden parts do differ for most histories."""
    differ = 0
    for name in isz.game_names():
        game = isz.make_game(name)
        rng = np.random.default_rng(1)
        for steps in range(0, 30, 3):
            state = random_decision(game, rng, steps)
            differ += twin_state(game, state, state.current_player(), rng) is not None
    assert differ >= 2 * len(isz.game_names())


def test_cheat_is_the_only_cheater():
    game = isz.make_game("kuhn_poker")
    cheaters = [n for n in NATIVE if isz.make_agent(n, game).cheats]
    assert cheaters == ["cheat_uct"]
