"""Rules, scoring, views and samplers of `isz.games.tricks` (and the oh_hell preset)."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.games.testing import check_game
from isz.games.tricks import points
from isz.games.tricks_kernel import random_playouts
from isz.rng import new_rng
from isz.types import CHANCE, TERMINAL, IllegalActionError, IszError
from tests.conftest import random_history

# Default deck (3 suits x 4 ranks): S0..S3 = 0..3, H0..H3 = 4..7, D0..D3 = 8..11.
VARIANTS = [
    ("tricks", {}),
    ("oh_hell", {}),
    ("tricks", dict(players=3, suits=4, ranks=5, hand_size=5, trump="card", bidding=True)),
    ("tricks", dict(players=4, suits=2, ranks=3, hand_size=1, trump="fixed", dealer="chance")),
]


def dealt(game, hands, trump=None, dealer=None):
    """State after dealing ``hands[seat]`` (round robin from left of the dealer)."""
    state = game.new_initial_state()
    if dealer is not None:
        state.apply_action(dealer)
    n = game.num_players
    first = (int(state.data[2]) + 1) % n
    for i in range(n * game.hand_size):
        p = (first + i) % n
        state.apply_action(hands[p][i // n])
    if trump is not None:
        state.apply_action(trump)
    return state


def play(state, *actions):
    for a in actions:
        state.apply_action(a)
    return state


def test_default_game_seat0_leads_and_must_follow_suit():
    game = isz.make_game("tricks")
    state = dealt(game, {0: [0, 4, 5, 8], 1: [1, 2, 9, 10]})
    assert state.current_player() == 0
    assert state.legal_actions() == [0, 4, 5, 8]
    play(state, 8)                       # P0 leads D0
    assert state.legal_actions() == [9, 10]
    play(state, 9)                       # P1 follows D1, wins, leads
    assert state.current_player() == 1
    play(state, 1)                       # S1 led
    assert state.legal_actions() == [0]
    play(state, 0)
    assert state.current_player() == 1
    play(state, 10)                      # D2 led; P0 void in diamonds: free
    assert state.legal_actions() == [4, 5]


def test_trick_winner_without_trump_is_high_card_of_led_suit():
    game = isz.make_game("tricks")
    state = dealt(game, {0: [0, 4, 5, 8], 1: [3, 9, 10, 11]})
    play(state, 4, 3)                    # H0 led, P1 discards S3 (higher id, other suit)
    assert state.data[27:29].tolist() == [1, 0]
    assert state.current_player() == 0


@pytest.mark.parametrize("trump", ["fixed", "card"])
def test_any_trump_beats_the_led_suit(trump):
    game = isz.make_game("tricks", trump=trump)
    spade_trump = 2 if trump == "card" else None   # card mode: S2 turned up
    state = dealt(game, {0: [4, 5, 6, 7], 1: [0, 8, 9, 10]}, trump=spade_trump)
    play(state, 7, 0)                    # H3 led, P1 void in hearts ruffs with S0
    assert state.data[28] == 1 and state.current_player() == 1
    if trump == "card":
        assert 2 not in state.legal_actions()    # the trump card is out of play


def test_trump_card_is_public_and_from_the_stock():
    game = isz.make_game("tricks", trump="card")
    state = dealt(game, {0: [0, 1, 2, 3], 1: [4, 5, 6, 7]})
    assert state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == [8, 9, 10, 11]
    state.apply_action(9)
    for p in range(2):
        assert state.view(p).data[3] == 9


def bid_game(**kw):
    return isz.make_game("tricks", players=3, suits=3, ranks=4, hand_size=2, bidding=True,
                         **kw)


def test_bidding_order_and_hook_rule():
    game = bid_game(hook=True)           # dealer 2: bids 0, 1, 2; C = 12
    state = dealt(game, {0: [0, 1], 1: [4, 5], 2: [8, 9]})
    assert state.current_player() == 0
    play(state, 12 + 1, 12 + 0)
    assert state.current_player() == 2
    assert state.legal_actions() == [12 + 0, 12 + 2]   # bid 1 would make 1+0+1 = 2
    with pytest.raises(IllegalActionError):
        state.apply_action(12 + 1)
    free = dealt(bid_game(), {0: [0, 1], 1: [4, 5], 2: [8, 9]})
    assert play(free, 13, 12).legal_actions() == [12, 13, 14]


def test_oh_hell_scoring_and_rank_returns():
    game = bid_game()
    state = dealt(game, {0: [0, 1], 1: [4, 5], 2: [8, 9]})
    play(state, 12 + 2, 12 + 0, 12 + 1)  # bids: P0 2, P1 0, P2 1
    play(state, 1, 4, 8, 0, 5, 9)        # P0 wins both tricks
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert points(state) == [12, 10, 0]
    assert state.returns() == [1.0, 0.0, -1.0]


def test_returns_rank_ties_and_two_player_result():
    game = bid_game()
    state = dealt(game, {0: [0, 1], 1: [4, 5], 2: [8, 9]})
    play(state, 12 + 0, 12 + 0, 12 + 2, 1, 4, 8, 0, 5, 9)
    assert points(state) == [2, 10, 0]
    assert state.returns() == [0.0, 1.0, -1.0]
    tie = dealt(bid_game(), {0: [0, 1], 1: [4, 5], 2: [8, 9]})
    play(tie, 12 + 2, 12 + 0, 12 + 0, 1, 4, 8, 0, 5, 9)
    assert points(tie) == [12, 10, 10]
    assert tie.returns() == [1.0, -0.5, -0.5]
    two = dealt(isz.make_game("tricks"), {0: [0, 3, 4, 7], 1: [1, 2, 5, 6]})
    play(two, 3, 1, 7, 5, 0, 2, 6, 4)    # 2 tricks each
    assert points(two) == [2, 2] and two.returns() == [0.0, 0.0]


@pytest.mark.parametrize("kw, needle", [
    (dict(players=5), "players"),
    (dict(players=1), "players"),
    (dict(suits=5), "suits"),
    (dict(ranks=14), "ranks"),
    (dict(hand_size=0), "hand_size"),
    (dict(hand_size=2.5), "hand_size"),
    (dict(trump="hearts"), "'hearts'"),
    (dict(dealer="left"), "'left'"),
    (dict(bidding=1), "bidding"),
    (dict(hook=True), "hook"),
    (dict(hand_size=7), "hands do not fit the deck"),
    (dict(hand_size=6, trump="card"), "hands do not fit the deck"),
    (dict(colour=3), "colour"),
])
def test_bad_parameters_raise_naming_the_value(kw, needle):
    with pytest.raises(IszError, match=needle):
        isz.make_game("tricks", **kw)


def test_sizes_of_the_oh_hell_preset():
    game = isz.make_game("oh_hell")
    assert (game.num_players, game.num_cards, game.hand_size) == (3, 52, 10)
    assert game.num_actions == 63 and game.max_chance_outcomes == 52
    assert game.max_game_length == 1 + 30 + 1 + 3 + 30
    assert game.new_initial_state().current_player() == CHANCE
    assert game.action_to_string(51, 0) == "CA" and game.action_to_string(60, 0) == "bid 8"
    assert isz.make_game("tricks").action_to_string(6, 1) == "H2"


@pytest.mark.parametrize("name, kw", VARIANTS)
def test_playouts_terminate_in_max_game_length(name, kw):
    game = isz.make_game(name, **kw)
    for seed in range(20):
        state = random_history(game, np.random.default_rng(seed), game.max_game_length)
        assert state.is_terminal()
        assert int(state.data[7]) == game.num_players * game.hand_size
    width = max(game.num_actions, game.max_chance_outcomes)
    n = random_playouts(game.initial_data(), game.kparams, 50, new_rng(1), width)
    assert n == 50 * game.max_game_length   # every game has exactly that length


def test_deals_are_seen_only_by_the_receiver():
    game = isz.make_game("tricks")
    state = game.new_initial_state()
    obs = game.kernel.observe
    assert obs(state.data, game.kparams, 5, 0) == 5
    assert obs(state.data, game.kparams, 5, 1) == -1
    state = dealt(game, {0: [0, 1, 4, 5], 1: [2, 3, 6, 7]})
    assert obs(state.data, game.kparams, 1, 1) == 1   # plays are public


@pytest.mark.parametrize("name, kw", VARIANTS)
def test_views_survive_state_from_view_and_redeterminize(name, kw):
    game = isz.make_game(name, **kw)
    rng = np.random.default_rng(3)
    for i in range(30):
        state = random_history(game, rng, int(rng.integers(game.max_game_length + 1)))
        for p in range(game.num_players):
            view = state.view(p)
            built = game.state_from_view(view)
            assert built.view(p).key == view.key
            outs = []
            for src in (state, built):
                out = np.empty(game.state_size, dtype=np.int64)
                game.kernel.redeterminize(src.data, game.kparams, p, new_rng(i), out)
                outs.append(out)
            assert np.array_equal(outs[0], outs[1])   # reads only the view
            world = isz.games.State(game, outs[0])
            assert world.view(p).key == view.key
            initial, hands = outs[0][19:23], outs[0][15:19]
            assert all(int(h) & ~int(i0) == 0 for h, i0 in zip(hands, initial, strict=True))


def test_redeterminize_deals_unseen_cards_uniformly():
    game = isz.make_game("tricks")
    state = dealt(game, {0: [0, 1, 4, 5], 1: [2, 3, 6, 7]})
    play(state, 0, 2)                    # P1 won with S2; 3 cards left each
    counts = np.zeros(game.num_cards)
    out = np.empty(game.state_size, dtype=np.int64)
    rng = new_rng(7)
    for _ in range(4000):
        game.kernel.redeterminize(state.data, game.kparams, 0, rng, out)
        counts += [(int(out[16]) >> c) & 1 for c in range(game.num_cards)]
    unseen = [3, 6, 7, 8, 9, 10, 11]     # 3 of these 7 go to P1's hand
    assert counts[[0, 1, 4, 5]].sum() == 0 and counts[2] == 0
    assert np.allclose(counts[unseen] / 4000, 3 / 7, atol=0.04)


def test_tensors_are_relative_to_the_observer():
    """Seats relative to the observer, plus the observer's own absolute seat."""
    game = isz.make_game("tricks")
    state = play(dealt(game, {0: [0, 1, 4, 5], 1: [2, 3, 6, 7]}), 0)
    t0, t1 = state.view(0).tensor(), state.view(1).tensor()
    c, s, n, h = 12, 3, 2, 4
    seat = 3 * c + s + n + n * (h + 2) + n * h + n
    assert t0[seat:seat + n].tolist() == [1, 0] and t1[seat:seat + n].tolist() == [0, 1]
    plays = seat + n
    assert t0[plays + 0] == 1 and t0[plays + c + 0] == 1      # own play: relative seat 0
    assert t1[plays + 0] == 1 and t1[plays + c + 1] == 1      # other's play: seat 1
    assert t1[:c].tolist() == [1 if x in (2, 3, 6, 7) else 0 for x in range(c)]


@pytest.mark.parametrize("name, kw", VARIANTS[1:])
def test_conformance_of_trump_and_bidding_variants(name, kw):
    check_game(isz.make_game(name, **kw), histories=10, seed=11)
