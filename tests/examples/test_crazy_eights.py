"""The fourth outside game, Crazy Eights (examples/crazy_eights.py): its conformance, its
rules (follow suit or rank, a wild keeps the turn to declare a suit, draw while the deck
lasts and pass only once it is empty, an empty hand wins, a blocked game goes to the
fewest cards), what each seat sees, its resampler against the exact uniform posterior,
and that the searches decide from the view alone."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief
from tests.conftest import random_history
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
    state = _deal(game, [["6S"], ["7H"], ["6H"]], "7S", ranks=3)
    state.apply_action(8)  # player 0 draws (deck: 8S 8H)
    state.apply_action(_card("8S", 3))
    state.apply_action(_card("7H", 3))  # player 1 follows the rank
    assert state.is_terminal() and state.returns() == [-0.5, 1.0, -0.5]


@pytest.mark.parametrize("plays, want", [
    (0, [0.0, 0.0, 0.0]),  # all 5 cards each: everyone wins, nobody scores
    (1, [1.0, -0.5, -0.5]),  # player 0 played one card: it alone has the fewest
    (2, [0.25, 0.25, -0.5]),  # players 0 and 1: (3 - 2) / (2 * 2) each
])
def test_a_blocked_game_goes_to_the_fewest_cards(crazy_eights, plays, want):
    # 16 cards, 3 hands of 5 and the starter: no deck, so passing is allowed at once
    game = isz.make_game("crazy_eights", players=3, suits=4, ranks=4, hand=5)
    state = game.new_initial_state()
    for c in range(16):  # player 0 holds 0 3 6 9 12; the starter 15 (8C): clubs
        state.apply_action(c)
    for seat in range(3):  # the first ``plays`` seats play a club (not a wild), then pass
        legal = state.legal_actions()
        if seat < plays:
            assert legal[-2] == 12 + seat  # 4C, then 5C
        state.apply_action(legal[-2] if seat < plays else legal[-1])
    pass_ = game.num_actions - 1
    while not state.is_terminal():
        assert state.legal_actions()[-1] == pass_
        state.apply_action(pass_)
    assert state.returns() == pytest.approx(want) and sum(state.returns()) == pytest.approx(0)
    two = isz.make_game("crazy_eights", suits=3, ranks=3, hand=4)  # 2 players, no deck
    state = two.new_initial_state()
    for c in range(9):
        state.apply_action(c)
    state.apply_action(two.num_actions - 1)
    state.apply_action(two.num_actions - 1)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]  # a blocked tie


def test_a_drawn_card_is_seen_by_the_drawer_only(crazy_eights):
    game = isz.make_game("crazy_eights")
    base = _deal(game, [["3S", "4H", "5D", "8S", "6C"], ["4S", "5H", "6D", "7C", "5C"]], "6H")
    base.apply_action(28)  # player 0 draws
    a, b = base.child(_card("7S")), base.child(_card("3C"))
    assert a.view(1).key == b.view(1).key
    assert np.array_equal(a.view(1).tensor(), b.view(1).tensor())
    assert a.view(0).key != b.view(0).key
    # player 1's record: its own dealt cards (sorted), tokens for the others', every
    # public step; player 0 sees its card
    assert a.view(1).data[:11] == (-1, 1, -1, 8, -1, 15, -1, 20, -1, 22, 9)
    assert a.view(1).data[11:] == (28, -1) and a.view(0).data[11:] == (28, _card("7S"))
    # the order a hand was dealt in is forgotten, not the hand
    c = _deal(game, [["3S", "4H", "5D", "8S", "6C"], ["5C", "5H", "6D", "7C", "4S"]], "6H")
    d = _deal(game, [["3S", "4H", "5D", "8S", "6C"], ["5C", "5H", "6D", "7C", "3C"]], "6H")
    assert c.view(1).key == _deal(game, [["3S", "4H", "5D", "8S", "6C"],
                                         ["4S", "5H", "6D", "7C", "5C"]], "6H").view(1).key
    assert c.view(0).key == d.view(0).key and c.view(1).key != d.view(1).key
    assert game.describe_view(a.view(0)) == \
        "your hand: 3S 7S 8S 4H 5D 6C\ntop 6H suit H | deck 12 | hand sizes 0:6 1:5"
    t = a.view(1).tensor()  # own hand, pile, top, suit; the seat block past them
    assert t.shape == (150,)
    assert np.flatnonzero(t[:24]).tolist() == sorted(map(_card, ["4S", "5H", "6D", "7C", "5C"]))
    assert np.flatnonzero(t[24:48]).tolist() == [_card("6H")]
    assert t[48 + _card("6H")] == 1 and t[72 + 1] == 1 and t[72 + 4] == 0  # no declaring
    assert t[77:79].tolist() == pytest.approx([5 / 18, 6 / 18])  # own seat first
    assert t[79] == pytest.approx(12 / 13) and t[80:82].tolist() == [1, 0]  # its turn
    assert t[82:84].tolist() == [0, 1]  # player 1


@pytest.mark.parametrize("params", [{}, {"players": 3, "suits": 3, "ranks": 4, "hand": 3}])
def test_worlds_keep_the_view(crazy_eights, params):
    game = isz.make_game("crazy_eights", **params)
    rng = np.random.default_rng(0)
    for _ in range(12):
        state = random_history(game, rng, int(rng.integers(5, 60)))
        p = int(rng.integers(game.num_players))
        view = state.view(p)
        worlds = UniformBelief(game).sample_many(view, 16, rng)
        assert all(isz.State(game, w).view(p).key == view.key for w in worlds)


def test_a_hidden_card_is_uniform_over_the_unseen(crazy_eights):
    game = isz.make_game("crazy_eights")
    state = _deal(game, [["3S", "4H", "5D", "8S", "6C"], ["4S", "5H", "6D", "7C", "5C"]], "6H")
    state.apply_action(_card("4H"))  # player 0 plays one of its cards: public
    n = 3600
    worlds = UniformBelief(game).sample_many(state.view(1), n, np.random.default_rng(0))
    seen = set(map(_card, ["4S", "5H", "6D", "7C", "5C", "6H", "4H"]))
    unseen = [c for c in range(24) if c not in seen]
    # player 0's dealt cards are the four other slots: "4H" is in one of them
    hands = worlds[:, [0, 2, 4, 6, 8]]
    assert ((hands == _card("4H")).sum(axis=1) == 1).all()
    counts = np.bincount(hands[hands != _card("4H")], minlength=24)
    assert counts[list(seen)].sum() == 0
    expect = 4 * n / len(unseen)  # each of the 17 unseen cards in 4 of 17 places
    chi = ((counts[unseen] - expect) ** 2 / expect).sum()
    dof = len(unseen) - 1
    assert chi < dof + 5 * np.sqrt(2 * dof), chi


def test_the_resampler_is_the_uniform_posterior(crazy_eights):
    """On a game small enough to enumerate (3 players, 6 cards, a card each; 59,893
    histories), the worlds' hidden cards follow the exact posterior of histories
    weighed alike (a policy that says nothing: the chance odds alone), within a
    chi-square bound: a card another seat played sits in one of its slots before."""
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
