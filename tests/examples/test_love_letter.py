"""The sixth outside game, two-player Love Letter (examples/love_letter.py): its
conformance, its rules (each card's effect, the Handmaid's protection, the Countess rule,
the showdown and its tie-break, a Prince on an empty deck), what each seat sees, its
resampler against brute force over the worlds a view allows, and that the searches and
the network planner decide from the view alone."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief
from isz.games.base import State
from tests.examples.twins import assert_planner_decides_from_view, assert_search_decides_from_view

G, PR, B, H, P, K, C, X = range(8)  # Guard .. Princess
PRIEST, BARON, HANDMAID, PRINCE_OPP, PRINCE_SELF, KING, COUNTESS = range(8, 15)


def name(card):
    """The Guard naming ``card`` (Priest .. Princess)."""
    return card - 1


def _reveal(state):
    """Resolve the pending reveal; returns what it showed."""
    (outcome, prob), = state.chance_outcomes()
    assert prob == 1.0
    state.apply_action(outcome)
    return outcome


def _deal(game, aside, up, hand0, hand1):
    state = game.new_initial_state()
    for c in (aside, *up, hand0, hand1):
        state.apply_action(c)
    return state


def _at(name):
    """Where field ``name`` sits in the state array."""
    import examples.love_letter_rules as rules
    return int(getattr(rules, name))


def _field(state, name):
    return int(state.data[_at(name)])


def test_conformance(love_letter):
    from isz.games.testing import check_game

    check_game(isz.make_game("love_letter"), histories=80)


def test_it_takes_no_parameters(love_letter):
    with pytest.raises(isz.IszError, match=r"unknown parameter\(s\) players"):
        isz.make_game("love_letter", players=3)


def test_set_up_draw_and_the_guard(love_letter):
    game = isz.make_game("love_letter")
    assert (game.num_actions, game.max_chance_outcomes, game.max_game_length) == (15, 64, 46)
    state = _deal(game, X, (G, G, PR), B, K)
    assert state.current_player() == isz.CHANCE
    outcomes = dict(state.chance_outcomes())  # the 10 left: 3 Guards, a Priest, a Baron ...
    assert outcomes == pytest.approx({G: 0.3, PR: 0.1, B: 0.1, H: 0.2, P: 0.2, C: 0.1})
    state.apply_action(G)
    assert state.current_player() == 0
    assert state.legal_actions() == list(range(7)) + [BARON]
    state.apply_action(name(B))  # player 1 holds the King: a miss
    assert _reveal(state) == 0 and state.current_player() == isz.CHANCE
    state.apply_action(P)  # player 1 draws a Prince
    state.apply_action(KING)  # and trades the Prince for player 0's Baron
    assert _reveal(state) == 8 * P + B
    assert state.data[_at("HAND"):_at("HAND") + 2].tolist() == [P, B]
    state.apply_action(G)
    state.apply_action(name(B))  # player 0 names the Baron player 1 now holds
    assert _reveal(state) == 1 and state.is_terminal()
    assert state.returns() == [1.0, -1.0]


def test_baron_priest_and_the_handmaid(love_letter):
    game = isz.make_game("love_letter")
    state = _deal(game, X, (G, G, G), PR, H)
    state.apply_action(B)
    state.apply_action(PRIEST)  # player 0 keeps the Baron, sees player 1's Handmaid
    assert _reveal(state) == H
    state.apply_action(G)
    state.apply_action(HANDMAID)  # player 1 keeps its Guard, protected
    state.apply_action(P)
    assert state.legal_actions() == [BARON, PRINCE_SELF]  # no Prince on a protected seat
    state.apply_action(BARON)  # for no effect: no reveal, player 1 draws next
    assert state.current_player() == isz.CHANCE and len(state.chance_outcomes()) > 1
    state.apply_action(G)
    assert state.legal_actions() == list(range(7))
    state.apply_action(name(X))  # player 0 holds the Prince: a miss
    assert _reveal(state) == 0
    state.apply_action(B)
    state.apply_action(BARON)  # player 0's Prince against player 1's Guard
    assert _reveal(state) == 8 * P + G and state.returns() == [1.0, -1.0]


def test_the_countess_rule_and_the_princess(love_letter):
    game = isz.make_game("love_letter")
    state = _deal(game, G, (G, G, G), C, PR)
    state.apply_action(K)
    assert state.legal_actions() == [COUNTESS]  # beside the King, the Countess must go
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(KING)
    state = _deal(game, G, (G, G, G), X, PR)
    state.apply_action(H)
    assert state.legal_actions() == [HANDMAID]  # the Princess is never played
    state = _deal(game, G, (G, G, G), P, X)
    state.apply_action(G)
    state.apply_action(PRINCE_OPP)  # player 1 discards the Princess: out
    assert _reveal(state) == X and state.returns() == [1.0, -1.0]


def test_the_showdown_its_tie_break_and_a_prince_on_the_empty_deck(love_letter):
    """Both keep their Priest through ten turns; the last draw ends the round in a
    showdown: level cards, so the higher sum played wins. A Prince on the last turn
    takes the card set aside instead."""
    game = isz.make_game("love_letter")
    state = _deal(game, X, (G, G, G), PR, PR)
    turns = [(G, name(X), 0), (G, name(X), 0), (H, HANDMAID, None), (H, HANDMAID, None),
             (B, BARON, None), (B, BARON, 8 * PR + PR), (C, COUNTESS, None),
             (K, KING, 8 * PR + PR), (P, PRIEST, PR)]
    for draw, act, shown in turns:
        state.apply_action(draw)
        state.apply_action(act)
        if shown is not None:
            assert _reveal(state) == shown
    state.apply_action(P)  # the deck's last card, to player 1 (Priest, Prince)
    prince = state.clone()
    state.apply_action(PRIEST)
    assert _reveal(state) == P and state.is_terminal()
    assert state.data[_at("SUM"):_at("SUM") + 2].tolist() == [17, 16]  # both hold a Prince
    assert state.returns() == [1.0, -1.0]
    prince.apply_action(PRINCE_OPP)
    assert _reveal(prince) == P
    assert prince.chance_outcomes() == [(X, 1.0)]  # the card set aside
    prince.apply_action(X)
    assert prince.is_terminal() and prince.returns() == [1.0, -1.0]  # Princess, Priest


def test_each_seat_sees_its_own_cards_and_every_reveal(love_letter):
    game = isz.make_game("love_letter")
    state = _deal(game, X, (G, G, G), PR, H)
    state.apply_action(B)
    state.apply_action(PRIEST)
    _reveal(state)
    state.apply_action(G)
    assert state.view(0).data == (-1, G, G, G, PR, -1, B, PRIEST, H, -1)
    assert state.view(1).data == (-1, G, G, G, -1, H, -1, PRIEST, H, G)
    assert "hands 0: Baron, 1: Handmaid Guard" in game.describe(state)
    assert "1: ?" in game.describe_view(state.view(0))


def _hidden(game, data, p):
    """What a world of ``p``'s view redraws: the card set aside and the opponent's cards
    (held now, and drawn this turn)."""
    q, mover = 1 - p, _field(State(game, data), "TURN")
    held = sorted(c for c in (int(data[_at("HAND") + q]),
                              int(data[_at("DRAWN")]) if mover == q else -1) if c >= 0)
    return int(data[_at("ASIDE")]), tuple(held)


def _consistent(game, state, p):
    """Every world of ``p``'s view, brute force: each assignment of the steps hidden from
    ``p`` replayed, kept where the history is legal and the view is the same."""
    hist = state.data[:_field(state, "N")].tolist()
    view = state.view(p)
    hidden = [i for i, a in enumerate(view.data) if a == -1]
    out = set()
    for combo in itertools.product(range(8), repeat=len(hidden)):
        replay, ok = game.new_initial_state(), True
        for i, a in enumerate(hist):
            a = combo[hidden.index(i)] if i in hidden else a
            if replay.current_player() == isz.CHANCE and a not in dict(replay.chance_outcomes()):
                ok = False
                break
            try:
                replay.apply_action(a)
            except isz.IllegalActionError:
                ok = False
                break
        if ok and replay.view(p).key == view.key:
            out.add(_hidden(game, replay.data, p))
    return out


def _play(state, steps):
    """Apply ``steps``; ``None`` resolves the pending reveal."""
    for a in steps:
        _reveal(state) if a is None else state.apply_action(a)
    return state


def _cases(game):
    """(state, player) pairs: a Guard's miss and a Prince's discard, a Handmaid, a King."""
    a = _play(_deal(game, H, (G, G, PR), B, P), (G, name(K), None, B, PRINCE_OPP, None, C))
    b = _play(_deal(game, G, (G, G, G), PR, B), (H, HANDMAID, P, PRINCE_SELF, None, K))
    c = _play(_deal(game, G, (G, PR, B), H, G), (K, KING, None, P))
    return [(a, 0), (a, 1), (b, 0), (c, 0)]


def test_the_resampler_reaches_every_world_and_only_those(love_letter):
    """The worlds drawn for a view keep it, and the set of their hidden parts (the card
    set aside, the opponent's cards) equals the brute-force set of worlds the view
    allows."""
    game = isz.make_game("love_letter")
    for k, (state, p) in enumerate(_cases(game)):
        exact = _consistent(game, state, p)
        assert len(exact) > 3
        worlds = UniformBelief(game).sample_many(state.view(p), 4000, np.random.default_rng(k))
        got = set()
        for w in worlds:
            assert State(game, w).view(p).key == state.view(p).key
            got.add(_hidden(game, w, p))
        assert got == exact, (k, exact - got, got - exact)


@pytest.mark.parametrize("agent", ["so_ismcts", "mo_ismcts", "pimc"])
def test_search_decides_from_the_view(love_letter, agent):
    """Two true states that share the deciding seat's view (the opponent's cards or the
    card set aside differ): one action, for 5 such pairs."""
    assert_search_decides_from_view(isz.make_game("love_letter"), agent, 7, 20)


@pytest.mark.parametrize("value_mix", [0.0, 0.25])
def test_the_network_planner_decides_from_the_view(love_letter, tmp_path, value_mix):
    """The default recipe's planner with `auto`, here `replay` (too many histories to
    enumerate): 5 pairs of twins, with and without the network's values at the root."""
    pytest.importorskip("torch")
    from isz.belief.registry import resolve_belief

    game = isz.make_game("love_letter")
    assert resolve_belief("auto", game, network=True) == "replay"
    assert_planner_decides_from_view(game, tmp_path / "love_letter.pt", (7, 20),
                                     value_mix=value_mix)


def test_search_beats_random_play(love_letter):
    """so_ismcts at 300 iterations a move against uniform random play, 150 deals x 2
    seats (seed 1): ahead by more than 3 SE in a game with this much luck."""
    from isz.evaluation.arena import match

    game = isz.make_game("love_letter")
    agents = [isz.make_agent("so_ismcts", game, iterations=300), isz.make_agent("random", game)]
    (pair,) = match(game, agents, deals=150, seed=1, progress=False).paired()
    assert pair["diff"] > 3 * pair["se"], pair
