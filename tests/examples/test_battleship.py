"""The seventh outside game, Battleship (examples/battleship.py): its conformance, its
rules (ships fit the board and do not overlap, a cell is shot once, the shooter who
hits the whole fleet wins), what each seat sees (its own ships, every shot and result,
only how many ships the opponent placed), its resampler against the uniform
distribution over the fleets a view allows, and that the searches decide from the
view alone."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief
from isz.games.base import State
from tests.examples.twins import assert_planner_decides_from_view, assert_search_decides_from_view

S = 16  # cells on the default 4 × 4 board; placements are S + o * S + c


def _place(c, down=False):
    return S + (S if down else 0) + c


def _play(game, actions):
    """Apply ``actions``, each shot followed by its (certain) result."""
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
        if state.is_chance_node():
            (outcome, prob), = state.chance_outcomes()
            assert prob == 1.0
            state.apply_action(outcome)
    return state


# player 0: the 3-ship across A1-C1, the 2-ship down D2-D3;
# player 1: the 3-ship down A2-A4, the 2-ship across C4-D4
FLEETS = [_place(0), _place(7, down=True), _place(4, down=True), _place(14)]


@pytest.mark.parametrize("params, histories", [({}, 30), ({"size": 3, "ships": 1}, 30),
                                               ({"size": 5, "ships": 3}, 8)])
def test_conformance(battleship, params, histories):
    from isz.games.testing import check_game

    # fewer histories on 5 × 5: its resampler rejects whole fleets (17 s at 30)
    check_game(isz.make_game("battleship", **params), histories=histories)


def test_placements_fit_the_board_and_do_not_overlap(battleship):
    game = isz.make_game("battleship")
    assert (game.num_actions, game.max_chance_outcomes, game.max_game_length) == (48, 2, 68)
    state = game.new_initial_state()
    legal = state.legal_actions()
    assert len(legal) == 16 and all(a >= S for a in legal)  # a 3-ship: 8 across, 8 down
    assert _place(1) in legal and _place(2) not in legal  # B1-D1 fits, C1-E1 does not
    assert _place(4, down=True) in legal and _place(8, down=True) not in legal
    state.apply_action(_place(0))
    assert state.current_player() == 0 and len(state.legal_actions()) == 24 - 6
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(_place(1, down=True))  # B1-B2 crosses the 3-ship at B1
    state.apply_action(_place(7, down=True))
    assert state.current_player() == 1  # player 1 places next, then the shooting
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(3)  # no shot before every ship is placed


def test_shots_alternate_and_the_whole_fleet_sunk_wins(battleship):
    game = isz.make_game("battleship")
    state = _play(game, FLEETS)
    assert state.current_player() == 0 and state.legal_actions() == list(range(S))
    state.apply_action(4)
    assert state.is_chance_node() and state.chance_outcomes() == [(1, 1.0)]  # A2: hit
    state.apply_action(1)
    assert state.current_player() == 1 and 4 in state.legal_actions()  # its own board
    state = _play(game, FLEETS + [4, 0])
    assert 4 not in state.legal_actions()  # a cell is shot once
    # player 0 hits A3, A4, C4 and D4 after A2; player 1 misses at A2, B2, C2 and B3
    state = _play(game, FLEETS + [4, 4, 8, 5, 12, 6, 14, 9])
    assert not state.is_terminal() and state.current_player() == 0
    state = _play(game, FLEETS + [4, 4, 8, 5, 12, 6, 14, 9, 15])
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    # player 1 sinks player 0's fleet first
    shots = [13, 0, 12, 1, 11, 2, 10, 7, 9, 11]
    state = _play(game, FLEETS + shots)
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]


def test_each_seat_sees_its_ships_every_shot_and_only_a_count_of_the_others(battleship):
    game = isz.make_game("battleship")
    a = _play(game, FLEETS + [4, 0])
    b = _play(game, FLEETS[:2] + [_place(0, down=True), _place(14)] + [4, 0])
    assert a.view(0) == b.view(0)  # player 0 cannot tell where player 1's 3-ship lies
    assert a.view(1) != b.view(1)
    assert a.view(0).tensor().tolist() == b.view(0).tensor().tolist()
    assert a.view(0).data == (0, 16 + 7, 2, 4, 0, *[-1] * 30, 1, 1, *[-1] * 30)
    c = _play(game, FLEETS + [5, 0])  # a miss at B2 instead: seen by both
    assert c.view(0) != a.view(0) and c.view(1) != a.view(1)
    half = _play(game, FLEETS[:3])
    assert half.view(0).data[2] == 1 and half.view(1).data[:2] == (4 + 16, -1)
    t = a.view(0).tensor()  # own ships, then the opponent's board, then its own
    assert t.shape == (133,) and t[0:3].tolist() == [1, 1, 1] and t[16 + 7] == 1
    assert t[2 * S + 4] == 1 and t[4 * S + 4] == pytest.approx(1 / 32)  # hit at A2, shot 1
    assert t[5 * S + 0] == 1 and t[7 * S + 0] == pytest.approx(2 / 32)  # hit at A1, shot 2
    assert t[8 * S + 2] == 1 and t[8 * S + 3] == 1  # both its ships placed; player 0
    text = game.describe_view(a.view(0))
    assert "your board:\n  X # # ." in text and "the opponent's board:\n  . . . .\n  X" in text


def _fleets(game):
    """Every fleet a seat can hold (each ship on the board, none overlapping)."""
    out = []
    for combo in itertools.product(*[range(S, 3 * S)] * game.params["ships"]):
        s = game.new_initial_state()
        try:
            for a in combo:
                s.apply_action(a)
        except isz.IllegalActionError:
            continue
        out.append(combo)
    return out


def _consistent(game, state, p):
    """The fleets of the other seat that, with the same shots, give ``p`` its view."""
    k = game.params["ships"]
    s = state.data
    own = [S + int(x) for x in s[p * k:(p + 1) * k]]
    shots = [int(c) for c in s[2 * k:2 * k + 2 * S] if c >= 0]
    out = set()
    for fleet in _fleets(game):
        t = game.new_initial_state()
        for a in (own + list(fleet)) if p == 0 else (list(fleet) + own):
            t.apply_action(a)
        try:
            for c in shots:
                t.apply_action(c)
                if t.is_chance_node():
                    t.apply_action(t.chance_outcomes()[0][0])
        except isz.IllegalActionError:
            continue
        if t.view(p).key == state.view(p).key:
            out.add(fleet)
    return out


def test_the_resampler_is_uniform_over_the_fleets_a_view_allows(battleship):
    """Worlds drawn for a view keep the player's own ships and every shot, and their
    frequencies match the uniform distribution over the consistent fleets (brute force
    by replay) within a chi-square bound."""
    game = isz.make_game("battleship")
    cases = [(_play(game, FLEETS + [4, 0, 5, 1]), 0),    # a hit and a miss
             (_play(game, FLEETS + [4, 0, 8, 5, 14]), 1)]  # its own board hit thrice
    for k, (state, p) in enumerate(cases):
        exact = _consistent(game, state, p)
        assert len(exact) > 2
        n = 4000
        counts: dict[tuple, int] = {}
        for w in UniformBelief(game).sample_many(state.view(p), n, np.random.default_rng(k)):
            world = State(game, w)
            assert world.view(p).key == state.view(p).key
            q = 1 - p
            fleet = tuple(S + int(x) for x in w[q * 2:q * 2 + 2])
            assert fleet in exact
            counts[fleet] = counts.get(fleet, 0) + 1
        chi = sum((counts.get(h, 0) - n / len(exact)) ** 2 / (n / len(exact)) for h in exact)
        dof = len(exact) - 1
        assert chi < dof + 5 * np.sqrt(2 * dof), (k, chi, dof)
    # mid-placement: player 1's first ship is anywhere of its 16 places, alike
    state = _play(game, FLEETS[:3])
    worlds = UniformBelief(game).sample_many(state.view(0), 1600, np.random.default_rng(5))
    firsts = [int(w[2]) for w in worlds]
    assert all(w[3] == -1 for w in worlds) and len(set(firsts)) == 16
    assert max(firsts.count(f) for f in set(firsts)) < 100 + 5 * np.sqrt(100)


@pytest.mark.parametrize("params, words", [
    ({"size": 6}, r"battleship size must be an integer in \[3, 5\], got 6"),
    ({"size": True}, r"battleship size must be an integer in \[3, 5\], got True"),
    ({"ships": 0}, r"battleship ships must be an integer in \[1, 3\], got 0"),
    ({"ships": 2.0}, r"battleship ships must be an integer in \[1, 3\], got 2.0"),
    ({"boats": 2}, r"unknown parameter\(s\) boats"),
])
def test_bad_parameters(battleship, params, words):
    with pytest.raises(isz.IszError, match=words):
        isz.make_game("battleship", **params)


@pytest.mark.parametrize("agent", ["so_ismcts", "pimc"])
def test_search_decides_from_the_view(battleship, agent):
    """Two true states that share the deciding seat's view (the other fleet differs):
    one action, for 5 such pairs."""
    assert_search_decides_from_view(isz.make_game("battleship"), agent, 3, 20)


def test_the_network_planner_decides_from_the_view(battleship, tmp_path):
    """The default recipe's planner (guided_so_ismcts, `auto` = `replay` here: too many
    histories to enumerate); 5 pairs of twins."""
    pytest.importorskip("torch")
    from isz.belief.registry import resolve_belief

    game = isz.make_game("battleship")
    assert resolve_belief("auto", game, network=True) == "replay"
    assert_planner_decides_from_view(game, tmp_path / "battleship.pt", (3, 20))
