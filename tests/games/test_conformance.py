"""Every registered game and preset passes the conformance checker."""

import dataclasses

import numba
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


def test_checker_catches_a_view_that_forgets_an_observation():
    """Player 0 sees a token when the opponent is dealt; a view that does not record
    it is coarser than what the player observed."""
    game = isz.make_game("kuhn_poker")
    real = game.view_data

    def coarse(state, player):
        own, dealt, *bets = real(state, player)
        return (own, 2 if own >= 0 else dealt, *bets)

    game.view_data = coarse
    with pytest.raises(ConformanceError, match="forgets something the player observed"):
        check_game(game, histories=5)


def test_checker_allows_a_hand_kept_as_a_set():
    """tricks keeps a hand as a set: two deal orders of one hand give one view, which
    the checker accepts (the observations agree up to their order)."""
    check_game(isz.make_game("tricks"), histories=60, seed=0)


def test_checker_catches_an_info_key_that_does_not_follow_the_view():
    """An info_key that is the same in every world cannot tell the opponent's
    information states apart, which MO trees branch on."""
    game = isz.make_game("leduc_poker")
    game.kernel = dataclasses.replace(game.kernel, info_key=numba.njit(lambda s, params, p: 0))
    with pytest.raises(ConformanceError, match="info_key of player"):
        check_game(game, histories=5)
