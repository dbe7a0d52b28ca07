"""The fifth outside game, Skull (examples/skull.py): its conformance, its rules (a first
round of placements, an empty hand must bid, bids rise up to the discs on the table,
a pass is for good, the challenger's own stack first, a flower run wins, a skull
loses), its returns, what each seat sees, its resampler against the uniform
distribution over the skull positions a view allows, and that the searches decide
from the view alone."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import isz
from isz.belief import PosteriorBelief, UniformBelief
from isz.games import new_rng
from isz.games.base import State
from tests.conftest import random_history
from tests.examples.twins import assert_planner_decides_from_view, assert_search_decides_from_view

F, S = 0, 1  # place a flower / the skull; chance: flower / skull


def _bid(k):
    return 1 + k


def _pass(game):
    return 4 * game.num_players + 2


def _pick(game, j):
    return 4 * game.num_players + 3 + j


def _play(game, actions):
    """Apply ``actions``; ``None`` resolves the pending reveal (one certain outcome)."""
    state = game.new_initial_state()
    for a in actions:
        if a is None:
            _reveal(state)
        else:
            state.apply_action(a)
    return state


def _reveal(state):
    """Resolve the pending reveal; returns what it showed."""
    (outcome, prob), = state.chance_outcomes()
    assert prob == 1.0
    state.apply_action(outcome)
    return outcome


def _stack(game, state, q):
    """Seat ``q``'s discs, bottom first."""
    from examples.skull import HEIGHT, STACK, _at
    h = int(state.data[_at(game.kparams, HEIGHT) + q])
    st = _at(game.kparams, STACK) + 4 * q
    return state.data[st:st + h].tolist()


@pytest.mark.parametrize("players, histories", [(2, 60), (3, 30), (4, 20)])
def test_conformance(skull, players, histories):
    from isz.games.testing import check_game

    check_game(isz.make_game("skull", players=players), histories=histories)


def test_placement_and_an_empty_hand_must_bid(skull):
    game = isz.make_game("skull")  # 2 players: bid k is 1 + k (2..9), pass 10, pick 11/12
    assert (game.num_actions, game.max_chance_outcomes, game.max_game_length) == (13, 2, 32)
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == [F, S]
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(_bid(1))  # no bid before every seat has placed one disc
    state.apply_action(F)
    assert state.current_player() == 1 and state.legal_actions() == [F, S]
    state.apply_action(S)
    assert state.legal_actions() == [F, S, _bid(1), _bid(2)]  # up to the discs down
    state.apply_action(F)
    assert state.legal_actions() == [F, _bid(1), _bid(2), _bid(3)]  # its skull is down
    for a in (F, F, F):  # seat 0 has placed its 3 flowers: the skull or a bid
        state.apply_action(a)
    assert state.current_player() == 0
    assert state.legal_actions() == [S] + [_bid(k) for k in range(1, 7)]
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(F)
    state.apply_action(S)
    state.apply_action(F)  # seat 1: S F F F
    assert _stack(game, state, 0) == [F, F, F, S] and _stack(game, state, 1) == [S, F, F, F]
    assert state.legal_actions() == [_bid(k) for k in range(1, 9)]  # an empty hand
    assert str(state) == "stacks 0:fffs 1:sfff"
    assert [game.action_to_string(a, 0) for a in (F, S, _bid(3), _pass(game), _pick(game, 1))] \
        == ["place a flower", "place the skull", "bid 3", "pass", "pick seat 1"]
    assert game.action_to_string(S, isz.CHANCE) == "skull"


def test_bids_rise_and_a_pass_is_for_good(skull):
    game = isz.make_game("skull", players=3)  # bid k is 1 + k, pass 14, picks 15..17
    state = _play(game, [F, F, F])
    assert state.legal_actions() == [F, S, _bid(1), _bid(2), _bid(3)]
    state = _play(game, [F, F, F, F, F, F, _bid(1)])  # 6 discs down
    assert state.current_player() == 1
    assert state.legal_actions() == [_bid(k) for k in range(2, 7)] + [_pass(game)]
    for illegal in (F, _bid(1), _bid(7)):  # no placing now, no bid but a raise
        with pytest.raises(isz.IllegalActionError):
            state.apply_action(illegal)
    state.apply_action(_pass(game))
    state.apply_action(_bid(2))  # seat 2
    assert state.current_player() == 0  # seat 1 passed: skipped from now on
    assert state.legal_actions() == [_bid(k) for k in range(3, 7)] + [_pass(game)]
    state.apply_action(_bid(4))
    assert state.current_player() == 2
    assert state.legal_actions() == [_bid(5), _bid(6), _pass(game)]
    state.apply_action(_bid(5))
    assert state.current_player() == 0


def test_bidding_ends_when_the_others_pass_or_the_bid_is_full(skull):
    game = isz.make_game("skull", players=3)
    state = _play(game, [F, F, F, _bid(1), _pass(game), _bid(2)])
    assert state.current_player() == 0  # seat 1 passed: skipped
    assert state.legal_actions() == [_bid(3), _pass(game)]
    state.apply_action(_pass(game))  # every other seat has passed: seat 2 challenges
    assert state.current_player() == isz.CHANCE
    assert str(state) == "stacks 0:f (passed at 2) 1:f (passed at 1) 2:f | bid 2 by 2"
    state = _play(game, [F, S, F, _bid(1), _bid(3)])  # 3 discs down: the bid is full
    assert state.current_player() == isz.CHANCE and "bid 3 by 1" in str(state)


def test_the_challengers_own_skull_loses(skull):
    game = isz.make_game("skull")
    state = _play(game, [S, F, _bid(1), _pass(game)])
    assert _reveal(state) == S
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    # three seats: the losing challenger pays 1, the others get 1/2 each
    game = isz.make_game("skull", players=3)
    state = _play(game, [F, S, F, F, _bid(2), _pass(game), _pass(game)])
    assert _reveal(state) == S and state.returns() == [0.5, -1.0, 0.5]


def test_a_flower_run_wins_and_a_skull_loses(skull):
    game = isz.make_game("skull", players=3)
    # seat 0: F F; seat 1: F S (the skull on top); seat 2: F F
    start = [F, F, F, F, S, F]
    state = _play(game, start + [_bid(4), _pass(game), _pass(game)])
    assert _reveal(state) == F  # seat 0's own stack: two flowers
    assert state.current_player() == 0
    assert state.legal_actions() == [_pick(game, 1), _pick(game, 2)]  # not its own
    state.apply_action(_pick(game, 2))
    assert _reveal(state) == F
    state.apply_action(_pick(game, 2))
    assert _reveal(state) == F  # 4 flowers: the bid
    assert state.is_terminal() and state.returns() == [1.0, -0.5, -0.5]
    assert str(state) == ("stacks 0:FF 1:fs (passed at 4) 2:FF (passed at 4) | bid 4 by 0 "
                          "| flowers revealed 4 | the challenger wins")
    # bid 5: seat 2 runs out of discs, seat 1's top disc is its skull
    state = _play(game, start + [_bid(5), _pass(game), _pass(game), None]
                  + [_pick(game, 2), None] * 2)
    assert state.legal_actions() == [_pick(game, 1)]
    state.apply_action(_pick(game, 1))
    assert _reveal(state) == S
    assert state.is_terminal() and state.returns() == [-1.0, 0.5, 0.5]
    # a challenger whose own stack reaches the bid wins at once
    state = _play(game, [F] * 6 + [_bid(2), _pass(game), _pass(game)])
    assert _reveal(state) == F and state.returns() == [1.0, -0.5, -0.5]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_returns_are_zero_sum(skull, players):
    game = isz.make_game("skull", players=players)
    rng = np.random.default_rng(players)
    from examples.skull import BIDDER, RESULT
    for _ in range(200):
        state = random_history(game, rng, game.max_game_length)
        assert state.is_terminal()
        r, L = state.returns(), game.max_game_length
        c, won = int(state.data[L + BIDDER]), state.data[L + RESULT] == 0
        assert sum(r) == pytest.approx(0.0)
        want = [(1.0 if won else -1.0) if q == c else (-1 if won else 1) / (players - 1)
                for q in range(players)]
        assert r == pytest.approx(want)


def test_each_seat_sees_its_own_discs_bids_and_reveals(skull):
    game = isz.make_game("skull")
    # seat 1's discs differ (S F / F F), its revealed top is a flower in both
    a, b = _play(game, [F, S, F, F, _bid(3)]), _play(game, [F, F, F, F, _bid(3)])
    assert a.view(0).key == b.view(0).key and a.view(1).key != b.view(1).key
    assert a.view(0).data == (F, -1, F, -1, _bid(3))
    assert a.view(1).data == (-1, S, -1, F, _bid(3))
    for step in (_pass(game), None, _pick(game, 1), None):
        for s in (a, b):
            _reveal(s) if step is None else s.apply_action(step)
        assert a.view(0).key == b.view(0).key
        assert np.array_equal(a.view(0).tensor(), b.view(0).tensor())
    assert a.is_terminal() and a.returns() == b.returns() == [1.0, -1.0]
    t = _play(game, [F, S, F, F, _bid(3)]).view(1).tensor()
    w, g = 19 + 8, 2 * (19 + 8)  # a block per seat, the player's own first
    assert t.shape == (66,) and t[g + 10:g + 12].tolist() == [0, 1]  # player 1
    assert t[0:6].tolist() == [1, 0, 1, 1, 1, 0]  # own: a skull, then a flower
    assert t[w:w + 6].tolist() == [1, 0, 0, 1, 0, 0]  # seat 0: two discs, unseen
    assert t[w + 17 + 2] == 1 and t[17:17 + 8].sum() == 0  # seat 0 bid 3
    assert t[w + 17 + 8] == 0 and t[17 + 8] == 1  # seat 1 to move
    assert t[g + 1] == 1 and t[g + 6] == pytest.approx(3 / 8)  # bidding; the bid
    assert t[g + 7] == pytest.approx(4 / 8) and t[g + 9] == 0  # 4 discs; its skull is down
    assert game.describe_view(a.view(1)).endswith("your hand: 2 disc(s)")
    assert "stacks 0:?? 1:sf" in game.describe_view(_play(game, [F, S, F, F]).view(1))


def _hidden(game, data, p):
    """Every other seat's placed discs: the part a world of ``p``'s view redraws."""
    return tuple(tuple(_stack(game, State(game, data), q)) for q in range(game.num_players)
                 if q != p)


def _consistent(game, state, p):
    """Every assignment of the other seats' skulls (a placed disc or the hand) whose
    history is legal and gives ``p`` the same view: brute force, by replaying."""
    from examples.skull import HEIGHT, _at
    heights = [int(state.data[_at(game.kparams, HEIGHT) + q]) for q in range(game.num_players)]
    others = [q for q in range(game.num_players) if q != p]
    hist = state.data[:int(state.data[game.max_game_length])].tolist()
    out = set()
    for combo in itertools.product(*[range(heights[q] + 1) for q in others]):
        skull_at = dict(zip(others, combo, strict=True))
        s, placed = game.new_initial_state(), [0] * game.num_players
        try:
            for i, a in enumerate(hist):
                q = i % game.num_players
                if i < sum(heights) and q != p:
                    a, placed[q] = int(placed[q] == skull_at[q]), placed[q] + 1
                s.apply_action(a)
        except isz.IllegalActionError:
            continue
        if s.view(p).key == state.view(p).key:
            out.add(_hidden(game, s.data, p))
    return out


def _cases(game):
    """(state, player) pairs with reveals, passes and full stacks among them."""
    pa = _pass(game)
    if game.num_players == 2:
        return [(_play(game, [F, S, F, F, F]), 0),
                (_play(game, [F, F, S, F, F, F, F, S, _bid(7), pa, None]), 1),
                (_play(game, [F, S, F, F, F, F, _bid(5), pa, None, _pick(game, 1), None]), 0)]
    return [(_play(game, [F, S, F, F, F, F, _bid(5), pa, pa, None, _pick(game, 2), None,
                          _pick(game, 1), None]), 0),
            (_play(game, [F, F, S, F, F, F, _bid(2), _bid(3), pa, pa, None]), 2),
            (_play(game, [F, F, F, F, S, F, F, _bid(2), pa, pa, None]), 0)]  # own skull


@pytest.mark.parametrize("players", [2, 3])
def test_the_resampler_is_uniform_over_the_skulls_positions(skull, players):
    """The worlds drawn for a view keep the player's own and the revealed discs, each
    seat's history legal (exactly one skull among its 4 discs), and their frequencies
    match the uniform distribution over the consistent skull positions (brute force)
    within a chi-square bound."""
    game = isz.make_game("skull", players=players)
    for k, (state, p) in enumerate(_cases(game)):
        exact = _consistent(game, state, p)
        assert len(exact) > 2
        n = 3000
        worlds = UniformBelief(game).sample_many(state.view(p), n, np.random.default_rng(k))
        counts: dict[tuple, int] = {}
        for w in worlds:
            assert _stack(game, State(game, w), p) == _stack(game, state, p)
            assert State(game, w).view(p).key == state.view(p).key
            key = _hidden(game, w, p)
            assert key in exact  # legal, and the same view
            counts[key] = counts.get(key, 0) + 1
        chi = sum((counts.get(h, 0) - n / len(exact)) ** 2 / (n / len(exact)) for h in exact)
        dof = len(exact) - 1
        assert chi < dof + 5 * np.sqrt(2 * dof), (k, chi, dof)


def test_the_resampler_keeps_revealed_discs_and_reads_only_the_view(skull):
    """On random histories of three seats: each world keeps the player's discs and every
    revealed one, and replays as a legal history (so at most one skull a seat, and a
    full stack holds it); two states of one view with one seed give one world."""
    from examples.skull import REV, _at
    game = isz.make_game("skull", players=3)
    rng, revealed = np.random.default_rng(0), 0
    for _ in range(40):
        state = random_history(game, rng, int(rng.integers(4, 30)))
        p = int(rng.integers(3))
        worlds = UniformBelief(game).sample_many(state.view(p), 20, rng)
        for w in worlds:
            for q in range(3):
                keep, got = _stack(game, state, q), _stack(game, State(game, w), q)
                r = len(keep) if q == p else int(state.data[_at(game.kparams, REV) + q])
                assert len(got) == len(keep) and got[len(got) - r:] == keep[len(keep) - r:]
                revealed += r if q != p else 0
            replay = game.new_initial_state()
            for a in w[:int(w[game.max_game_length])]:
                replay.apply_action(int(a))
        twin = State(game, worlds[0].copy())
        out = [np.empty(game.state_size, np.int64) for _ in range(2)]
        for s, o in zip((state, twin), out, strict=True):
            game.kernel.redeterminize(s.data, game.kparams, p, new_rng(7), o)
        assert np.array_equal(*out)  # one view, one seed: one world
    assert revealed > 50  # other seats' revealed discs were checked


def test_the_uniform_posterior_agrees_on_two_players(skull):
    """Two players: 21,647 histories, so the exact posterior with histories weighed
    alike (every action weight 1, the reveals certain) is the same distribution."""
    game = isz.make_game("skull")
    post = PosteriorBelief(game, policy=lambda view: np.ones(game.num_actions))
    for state, p in _cases(game):
        exact: dict[tuple, float] = {}
        for row, q in zip(*post.worlds(state.view(p)), strict=True):
            key = _hidden(game, post.table.states[row], p)
            exact[key] = exact.get(key, 0.0) + q
        assert set(exact) == _consistent(game, state, p)
        assert max(exact.values()) - min(exact.values()) < 1e-12


@pytest.mark.parametrize("params, words", [
    ({"players": 5}, r"skull players must be an integer in \[2, 4\], got 5"),
    ({"players": 1}, r"skull players must be an integer in \[2, 4\], got 1"),
    ({"players": True}, r"skull players must be an integer in \[2, 4\], got True"),
    ({"players": 3.0}, r"skull players must be an integer in \[2, 4\], got 3.0"),
    ({"discs": 5}, r"unknown parameter\(s\) discs"),
])
def test_bad_parameters(skull, params, words):
    with pytest.raises(isz.IszError, match=words):
        isz.make_game("skull", **params)


@pytest.mark.parametrize("agent", ["so_ismcts", "mo_ismcts", "pimc"])
def test_search_decides_from_the_view(skull, agent):
    """Two true states that share the deciding seat's view (other seats' discs differ):
    one action, for 5 such pairs."""
    assert_search_decides_from_view(isz.make_game("skull", players=3), agent, 2, 12)


@pytest.mark.parametrize("value_mix", [0.0, 0.25])
def test_the_network_planner_decides_from_the_view(skull, tmp_path, value_mix):
    """The default recipe's planner (guided_so_ismcts): `auto` is the exact posterior on
    two players, `replay` on three (too many histories); 5 pairs of twins; with the
    network's values at the root too (what the three-player runs record)."""
    pytest.importorskip("torch")
    from isz.belief.registry import resolve_belief

    assert resolve_belief("auto", isz.make_game("skull"), network=True) == "posterior"
    game = isz.make_game("skull", players=3)
    assert resolve_belief("auto", game, network=True) == "replay"
    assert_planner_decides_from_view(game, tmp_path / "skull.pt", (2, 12), value_mix=value_mix)
