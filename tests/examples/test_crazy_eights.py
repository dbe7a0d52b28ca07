"""The fourth outside game, Crazy Eights (examples/crazy_eights.py): its conformance, its
rules (follow suit or rank, a wild keeps the turn to declare a suit, draw while the deck
lasts and pass only once it is empty, an empty hand wins, a blocked game goes to the
fewest cards), what each seat sees, its resampler against the exact uniform posterior,
and that the searches decide from the view alone."""

from __future__ import annotations

import pytest

import isz
from tests.examples.posterior import assert_resampler_is_uniform_posterior
from tests.examples.twins import assert_planner_decides_from_view, assert_search_decides_from_view


def _card(label: str, ranks: int = 6) -> int:
    """``"5H"`` -> its id: ranks count down from 8 (wild), suits S H D C."""
    return "SHDC".index(label[-1]) * ranks + int(label[:-1]) - 9 + ranks


def _deal(game, hands, starter, ranks=6):
    """Deal ``hands`` (one list of labels per seat, round robin) and turn up ``starter``."""
    state = game.new_initial_state()
    for j in range(len(hands[0])):
        for hand in hands:
            state.apply_action(_card(hand[j], ranks))
    state.apply_action(_card(starter, ranks))
    return state


@pytest.mark.parametrize("params, histories", [
    ({}, 60),
    ({"players": 3}, 20),
    ({"players": 3, "suits": 2, "ranks": 3, "hand": 1}, 30),
    ({"players": 4, "suits": 2, "ranks": 5, "hand": 2}, 30),
])
def test_conformance(crazy_eights, params, histories):
    from isz.games.testing import check_game

    check_game(isz.make_game("crazy_eights", **params), histories=histories)


def test_follow_suit_or_rank_and_a_wild_declares(crazy_eights):
    game = isz.make_game("crazy_eights")  # 24 cards: declare 24..27, draw 28, pass 29
    assert (game.num_actions, game.max_chance_outcomes, game.max_game_length) == (30, 24, 87)
    state = _deal(game, [["3S", "4H", "5D", "8S", "6C"], ["4S", "5H", "6D", "7C", "5C"]], "6H")
    assert state.current_player() == 0
    # hearts, or a 6, or the wild 8; drawing is always allowed while the deck lasts
    assert state.legal_actions() == sorted(map(_card, ["4H", "6C", "8S"])) + [28]
    for illegal in (_card("3S"), _card("5D"), _card("4S"), 24, 29):
        with pytest.raises(isz.IllegalActionError):
            state.apply_action(illegal)
    state.apply_action(_card("8S"))
    assert state.current_player() == 0 and state.legal_actions() == [24, 25, 26, 27]
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(28)  # no drawing instead of declaring
    state.apply_action(26)  # declare diamonds
    assert state.current_player() == 1
    assert state.legal_actions() == [_card("6D"), 28]  # the declared suit, not spades
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(_card("4S"))
    state.apply_action(_card("6D"))  # diamonds now, and 6s
    assert state.legal_actions() == sorted(map(_card, ["5D", "6C"])) + [28]
    assert str(state) == "hands 0: 3S 4H 5D 6C | 1: 4S 5H 5C 7C | top 6D suit D | deck 13"
    assert game.action_to_string(26, 0) == "declare D"
    assert [game.action_to_string(a, 1) for a in (_card("8C"), 28, 29)] == \
        ["play 8C", "draw", "pass"]
    assert game.action_to_string(_card("3H"), isz.CHANCE) == "card 3H"


def test_draw_while_the_deck_lasts_then_pass(crazy_eights):
    # 6 cards (ranks 6, 7, 8 in spades and hearts): a hand of 2 each, a wild starter,
    # one card left to draw; draw 8, pass 9
    game = isz.make_game("crazy_eights", suits=2, ranks=3, hand=2)
    state = _deal(game, [["6S", "7H"], ["7S", "6H"]], "8S", ranks=3)  # a wild: spades
    assert state.legal_actions() == [_card("6S", 3), 8]
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(9)  # no pass while the deck has a card
    state.apply_action(8)
    assert state.current_player() == isz.CHANCE
    assert state.chance_outcomes() == [(_card("8H", 3), 1.0)]
    kernel, kp = game.kernel, game.kparams
    assert [kernel.observe(state.data, kp, 5, p) for p in (0, 1)] == [5, -1]
    state.apply_action(5)
    assert state.current_player() == 1
    assert state.legal_actions() == [_card("7S", 3), 9]  # deck empty: pass, not draw
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(8)
    state.apply_action(9)
    assert state.legal_actions() == [_card("6S", 3), _card("8H", 3), 9]  # pass still allowed
    state.apply_action(9)  # everyone passed in a row: blocked, 2 cards beat 3
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    assert str(state) == "hands 0: 6S 7H 8H | 1: 7S 6H | top 8S suit S | deck 0 | returns -1 +1"


def test_an_empty_hand_wins(crazy_eights):
    game = isz.make_game("crazy_eights", suits=2, ranks=3, hand=1)
    state = _deal(game, [["6S"], ["6H"]], "7S", ranks=3)
    state.apply_action(_card("6S", 3))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    state = _deal(game, [["8H"], ["6H"]], "7S", ranks=3)  # a last wild: nothing to declare
    state.apply_action(_card("8H", 3))
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    game = isz.make_game("crazy_eights", players=3, suits=2, ranks=3, hand=1)
    assert_resampler_is_uniform_posterior(game, 6, 14, rich=6)


@pytest.mark.parametrize("params, words", [
    ({"players": 5}, r"players must be an integer in \[2, 4\], got 5"),
    ({"players": True}, r"players must be an integer in \[2, 4\], got True"),
    ({"suits": 1}, r"suits must be an integer in \[2, 4\], got 1"),
    ({"ranks": 9}, r"ranks must be an integer in \[3, 8\], got 9"),
    ({"ranks": 6.0}, r"ranks must be an integer in \[3, 8\], got 6.0"),
    ({"hand": 0}, r"hand must be an integer in \[1, 7\], got 0"),
    ({"players": 4, "hand": 6}, r"players \* hand \+ 1 <= suits \* ranks .*"
                                r"got 4 \* 6 \+ 1 = 25 > 4 \* 6 = 24"),
    ({"decks": 2}, r"unknown parameter\(s\) decks"),
])
def test_bad_parameters(crazy_eights, params, words):
    with pytest.raises(isz.IszError, match=words):
        isz.make_game("crazy_eights", **params)


@pytest.mark.parametrize("agent", ["so_ismcts", "mo_ismcts"])
def test_search_decides_from_the_view(crazy_eights, agent):
    """Two true states that share the deciding seat's view (the hidden cards differ):
    one action, for 5 such pairs."""
    assert_search_decides_from_view(isz.make_game("crazy_eights"), agent, 12, 40)


def test_the_network_planner_decides_from_the_view(crazy_eights, tmp_path):
    """The default recipe's planner (guided_so_ismcts, `replay` worlds: too many
    histories to enumerate), on 5 pairs of twins."""
    pytest.importorskip("torch")
    from isz.belief.registry import resolve_belief

    game = isz.make_game("crazy_eights")
    assert resolve_belief("auto", game, network=True) == "replay"
    assert_planner_decides_from_view(game, tmp_path / "c8.pt", (12, 40))
