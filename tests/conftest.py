"""Shared fixtures: small deterministic helpers for every test module."""

from __future__ import annotations

import numpy as np
import pytest

import isz


def random_history(game, rng: np.random.Generator, steps: int):
    """Play up to ``steps`` random actions/outcomes; stop early at a terminal."""
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    return state


def random_decision(game, rng: np.random.Generator, steps: int):
    """A random history reaching a decision node (at least past all leading chance)."""
    state = random_history(game, rng, steps)
    if state.current_player() >= 0:
        return state
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() >= 0:
            return state
        outs = state.chance_outcomes()
        state.apply_action(outs[rng.integers(len(outs))][0])
    raise AssertionError("no decision node")


def twin_state(game, state, player: int, rng: np.random.Generator):
    """Another true state that gives ``player`` the same view as ``state`` (a world drawn
    from that view by the game's uniform resampler, up to 32 tries), or None when every
    draw is ``state`` itself (nothing hidden from ``player``)."""
    from isz.belief import UniformBelief
    from isz.games.base import State

    view = state.view(player)
    for w in UniformBelief(game).sample_many(view, 32, rng):
        if not np.array_equal(w, state.data):
            twin = State(game, w.copy())
            assert twin.view(player).key == view.key
            return twin
    return None


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


ALL_GAMES = isz.game_names()


def _for_one_test(module_name: str, class_name: str):
    """A game from examples/, registered for one test only, so the registry other tests
    iterate keeps the package's own games; yields its module."""
    import importlib

    from isz.games.registry import _GAMES

    module = importlib.import_module(module_name)
    cls = getattr(module, class_name)
    isz.register_game(cls)  # again after an earlier test removed it
    yield module
    _GAMES.pop(cls.name, None)


@pytest.fixture
def goofspiel():
    """The tutorial's outside game (examples/goofspiel.py)."""
    yield from _for_one_test("examples.goofspiel", "Goofspiel")


@pytest.fixture
def liars_dice():
    """The second outside game (examples/liars_dice.py)."""
    yield from _for_one_test("examples.liars_dice", "LiarsDice")


@pytest.fixture
def phantom_ttt():
    """The third outside game (examples/phantom_ttt.py)."""
    yield from _for_one_test("examples.phantom_ttt", "PhantomTTT")


@pytest.fixture
def crazy_eights():
    """The fourth outside game (examples/crazy_eights.py)."""
    yield from _for_one_test("examples.crazy_eights", "CrazyEights")


@pytest.fixture
def skull():
    """The fifth outside game (examples/skull.py)."""
    yield from _for_one_test("examples.skull", "Skull")


@pytest.fixture
def love_letter():
    """The sixth outside game (examples/love_letter.py)."""
    yield from _for_one_test("examples.love_letter", "LoveLetter")


@pytest.fixture
def battleship():
    """The seventh outside game (examples/battleship.py)."""
    yield from _for_one_test("examples.battleship", "Battleship")


@pytest.fixture
def lost_cities():
    """The eighth outside game (examples/lost_cities.py)."""
    yield from _for_one_test("examples.lost_cities", "LostCities")
