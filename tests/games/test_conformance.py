"""Every registered game and preset passes the conformance checker."""

import pytest

import isz
from isz.games.testing import ConformanceError, check_game


@pytest.mark.parametrize("name", isz.game_names())
def test_registered_game_conforms(name):
    check_game(isz.make_game(name), histories=25, seed=7)


def test_checker_catches_a_leaky_view():
    """A view that shows the hidden coin must be rejected."""
    game = isz.make_game("coin_guess")
    game.view_data = lambda state, player: (1, int(state.data[1]), int(state.data[0]))
    with pytest.raises(ConformanceError):
        check_game(game, histories=5)
