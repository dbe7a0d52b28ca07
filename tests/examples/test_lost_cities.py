"""The eighth outside game, Lost Cities (examples/lost_cities.py): its conformance, its
rules (expeditions ascend, a wager only before any number, a discard cannot be taken
back the same turn, the game ends with the deck or the turn bound, the scoring), what
each seat sees (a card taken from a pile is known to be in the taker's hand), its
resampler against the exact uniform posterior, and that the searches decide from the
view alone."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief
from tests.examples.posterior import assert_resampler_is_uniform_posterior
from tests.examples.twins import assert_planner_decides_from_view, assert_search_decides_from_view


def _card(label: str, wagers: int = 1, ranks: int = 5) -> int:
    """``"Y4"`` -> its id (``"Yw"`` the yellow wager): colors Y B W G R."""
    j = 0 if label[1] == "w" else wagers + int(label[1:]) - 2
    return "YBWGR".index(label[0]) * (wagers + ranks) + j


def _deal(game, hands, **kw):
    """Deal two hands (lists of labels), round robin from player 0."""
    state = game.new_initial_state()
    for a, b in zip(*hands, strict=True):
        state.apply_action(_card(a, **kw))
        state.apply_action(_card(b, **kw))
    return state


HANDS = [["Yw", "Y3", "B2", "W6"], ["Y2", "B5", "W2", "Ww"]]
C = 18  # the default deck: 3 colors x (1 wager + 5 numbers); draw 36, take 37 + color


@pytest.mark.parametrize("params, histories", [
    ({}, 60),
    ({"colors": 2, "ranks": 2, "wagers": 0, "hand": 1, "turns": 6}, 60),
    ({"colors": 5, "ranks": 9, "wagers": 3, "hand": 8, "turns": 60}, 10),
])
def test_conformance(lost_cities, params, histories):
    from isz.games.testing import check_game

    check_game(isz.make_game("lost_cities", **params), histories=histories)


def test_expeditions_ascend_and_wagers_come_first(lost_cities):
    game = isz.make_game("lost_cities")
    assert (game.num_actions, game.max_chance_outcomes, game.max_game_length) == (40, 18, 98)
    state = _deal(game, HANDS)
    hand = sorted(map(_card, HANDS[0]))
    assert state.current_player() == 0 and state.legal_actions() == hand + [C + c for c in hand]
    state.apply_action(_card("Y3"))
    assert state.legal_actions() == [2 * C]  # the piles are empty: draw
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(2 * C + 1)
    state.apply_action(2 * C)
    assert state.current_player() == isz.CHANCE and len(state.chance_outcomes()) == 10
    kernel, kp = game.kernel, game.kparams
    assert [kernel.observe(state.data, kp, _card("Y4"), p) for p in (0, 1)] == [_card("Y4"), -1]
    state.apply_action(_card("Y4"))
    state.apply_action(C + _card("W2"))  # player 1 discards W2: it cannot take it back
    assert state.legal_actions() == [2 * C]
    state.apply_action(2 * C)
    state.apply_action(_card("B3"))
    # player 0: the Y wager is no longer playable (Y3 is out), Y4 is; W2 can be taken
    legal = state.legal_actions()
    assert _card("Yw") not in legal and _card("Y4") in legal and C + _card("Yw") in legal
    state.apply_action(C + _card("Yw"))
    assert state.legal_actions() == [2 * C, 2 * C + 3]  # the W pile, not the Y wager
    state.apply_action(2 * C + 3)
    assert str(state) == ("0: hand Y4 B2 W2 W6 expedition Y3 | 1: hand Y2 B3 B5 Ww expedition "
                          "- | piles Yw - - | deck 8")
    assert [game.action_to_string(a, 0) for a in (_card("Y3"), C + _card("Bw"), 36, 39)] == \
        ["play Y3", "discard Bw", "draw", "take W"]


def test_a_taken_card_is_public_a_drawn_one_is_not(lost_cities):
    game = isz.make_game("lost_cities")
    state = _deal(game, HANDS)
    state.apply_action(C + _card("Y3"))  # player 0 discards Y3, draws
    state.apply_action(2 * C)
    a, b = state.child(_card("Y4")), state.child(_card("B6"))
    assert a.view(1).key == b.view(1).key and a.view(0).key != b.view(0).key
    assert np.array_equal(a.view(1).tensor(), b.view(1).tensor())
    a.apply_action(_card("B5"))
    a.apply_action(2 * C + 1)  # player 1 takes Y3 from the pile
    t = a.view(0).tensor()  # player 0 now knows Y3 is in player 1's hand
    assert np.flatnonzero(t[5 * C:6 * C]).tolist() == [_card("Y3")]
    worlds = UniformBelief(game).sample_many(a.view(0), 50, np.random.default_rng(0))
    L = game.max_game_length
    assert all((int(w[L + 7]) >> _card("Y3")) & 1 for w in worlds)  # player 1's hand
    # player 1's dealt cards: B5 was played from one of them; the rest are unseen cards
    assert all(_card("B5") in w[[1, 3, 5, 7]] for w in worlds)
    assert game.describe_view(a.view(0)) == (
        "your hand: Yw Y4 B2 W6 | yours: - | theirs: B5 (known in hand: Y3)\npiles - - - | "
        "deck 9")


def test_the_game_ends_with_the_deck_or_the_turn_bound(lost_cities):
    game = isz.make_game("lost_cities", turns=2)
    state = _deal(game, HANDS)
    state.apply_action(_card("Y3"))  # player 0: Y3 scores 3 - 10 = -7
    state.apply_action(2 * C)
    state.apply_action(_card("B6"))
    state.apply_action(C + _card("B5"))
    state.apply_action(2 * C)
    assert not state.is_terminal()
    state.apply_action(_card("Y6"))
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]  # -7 against nothing
    small = isz.make_game("lost_cities", colors=2, ranks=2, wagers=0, hand=1)  # deck of 2
    state = small.new_initial_state()
    for c in (0, 2):
        state.apply_action(c)  # player 0 holds the first 2, player 1 the other
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])  # play
        state.apply_action(8)  # draw (2C, C = 4)
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_terminal()  # the deck ran out after two turns


def test_scoring(lost_cities):
    from examples.lost_cities_rules import _color_score

    kp = isz.make_game("lost_cities").kparams
    mask = sum(1 << _card(x) for x in ("Yw", "Y3", "Y4", "B2", "B3", "B4", "B5", "B6"))
    assert [_color_score(mask, kp, k) for k in range(3)] == [(3 + 4 - 10) * 2, 20 - 10, 0]


def test_the_resampler_is_the_uniform_posterior(lost_cities):
    """On a game small enough to enumerate (6 cards, a card each, a deck of 4, 4 turns), the
    worlds' hidden cards follow the exact posterior of histories weighed alike, within a
    chi-square bound: a card the other seat played or discarded unseen sits in one of its
    slots before."""
    game = isz.make_game("lost_cities", colors=2, ranks=3, wagers=0, hand=1, turns=4)
    assert_resampler_is_uniform_posterior(game, 4, 14, rich=2)


@pytest.mark.parametrize("params, words", [
    ({"colors": 6}, r"colors must be an integer in \[2, 5\], got 6"),
    ({"ranks": True}, r"ranks must be an integer in \[2, 9\], got True"),
    ({"wagers": 1.0}, r"wagers must be an integer in \[0, 3\], got 1.0"),
    ({"hand": 0}, r"hand must be an integer in \[1, 8\], got 0"),
    ({"colors": 2, "ranks": 2, "wagers": 0, "hand": 2},
     r"2 \* hand \+ 1 <= colors \* \(wagers \+ ranks\) .* got 2 \* 2 \+ 1 > 4"),
    ({"players": 3}, r"unknown parameter\(s\) players"),
])
def test_bad_parameters(lost_cities, params, words):
    with pytest.raises(isz.IszError, match=words):
        isz.make_game("lost_cities", **params)


@pytest.mark.parametrize("agent", ["so_ismcts", "mo_ismcts"])
def test_search_decides_from_the_view(lost_cities, agent):
    """Two true states that share the deciding seat's view (the hidden cards differ):
    one action, for 5 such pairs."""
    assert_search_decides_from_view(isz.make_game("lost_cities"), agent, 10, 40)


def test_the_network_planner_decides_from_the_view(lost_cities, tmp_path):
    """The default recipe's planner (guided_so_ismcts with `replay` worlds: too many
    histories to enumerate), on 5 pairs of twins."""
    pytest.importorskip("torch")
    from isz.belief.registry import resolve_belief

    game = isz.make_game("lost_cities")
    assert resolve_belief("auto", game, network=True) == "replay"
    assert_planner_decides_from_view(game, tmp_path / "lc.pt", (10, 40))
