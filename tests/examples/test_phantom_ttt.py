"""The third outside game, phantom tic-tac-toe (examples/phantom_ttt.py): its
conformance, its rules (a found mark keeps the turn, three in a row, a full board),
what each seat sees, its resampler against the exact posterior of a uniform opponent,
and OpenSpiel's phantom_ttt (``reveal-numturns``) as its twin."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief
from tests.examples.twins import assert_planner_decides_from_view

PLACED, FOUND, WON, DRAWN = 0, 1, 2, 3


def _play(game, cells):
    """Try ``cells`` in turn, each attempt's result announced."""
    state = game.new_initial_state()
    for c in cells:
        state.apply_action(c)
        (result, _), = state.chance_outcomes()
        state.apply_action(result)
    return state


def _random_state(game, rng, steps):
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() == isz.CHANCE:
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_conformance(phantom_ttt):
    from isz.games.testing import check_game

    check_game(isz.make_game("phantom_ttt"), histories=60)


def test_a_found_mark_keeps_the_turn(phantom_ttt):
    game = isz.make_game("phantom_ttt")
    state = game.new_initial_state()
    state.apply_action(4)  # x tries the centre
    assert state.current_player() == isz.CHANCE
    assert state.chance_outcomes() == [(PLACED, 1.0)]
    state.apply_action(PLACED)
    assert state.current_player() == 1 and state.legal_actions() == list(range(9))
    state.apply_action(4)  # o tries it too: x holds it
    assert state.chance_outcomes() == [(FOUND, 1.0)]
    state.apply_action(FOUND)
    assert state.current_player() == 1  # o tries again, not the centre
    assert state.legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8]
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(4)
    assert str(state) == ".../.x./..."


def test_three_in_a_row_and_a_full_board(phantom_ttt):
    game = isz.make_game("phantom_ttt")
    # x: 0, 1, 2 (a row); o: 3, 4
    state = _play(game, [0, 3, 1, 4])
    state.apply_action(2)
    assert state.chance_outcomes() == [(WON, 1.0)]
    state.apply_action(WON)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    # o wins after finding one of x's marks: x 0, 1, 8; o tries 0 (found), then 3, 4, 5
    state = _play(game, [0, 0, 3, 1, 4, 8, 5])
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    # x o x / x o o / o x x: full, nobody has three
    state = _play(game, [0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.data[2 * 17 + 8] == DRAWN


def test_each_seat_sees_its_own_attempts_and_every_result(phantom_ttt):
    game = isz.make_game("phantom_ttt")
    a, b = _play(game, [4, 0, 8]), _play(game, [4, 2, 8])  # o's mark differs
    assert a.view(0).key == b.view(0).key  # x saw "o tried a cell, placed"
    assert np.array_equal(a.view(0).tensor(), b.view(0).tensor())
    assert a.view(1).key != b.view(1).key
    assert a.view(0).data == (4, PLACED, -1, PLACED, 8, PLACED)
    assert a.view(1).data == (-1, PLACED, 0, PLACED, -1, PLACED)
    # o finds x's centre: x learns that o failed once, not where
    c = _play(game, [4, 4, 0])
    assert c.view(0).data == (4, PLACED, -1, FOUND, -1, PLACED)
    assert game.describe_view(c.view(1)) == \
        "you are o; your board o../.x./...; the opponent has tried 1 time(s)"
    t = c.view(1).tensor()  # o's board block: its mark at 0, x found at 4, 7 untried
    board = 11 * 17
    assert t[board + 0] == 1 and t[board + 9 + 4] == 1 and t[board + 18:board + 27].sum() == 7
    assert t[11 * 1 + 10] == 1  # o's first attempt found a mark


@pytest.mark.parametrize("seed", range(6))
def test_redeterminize_is_the_posterior_of_a_uniform_opponent(phantom_ttt, seed):
    """Every world drawn for a view is consistent with it, and their frequencies match
    the exact posterior (histories enumerated, weighed by an opponent trying its
    untried cells at random) within a chi-square bound."""
    game = isz.make_game("phantom_ttt")
    rng = np.random.default_rng(seed)
    state = _random_state(game, rng, int(rng.integers(8, 20)))
    p = int(rng.integers(0, 2))
    exact = _posterior(game, state, p)
    n = 3000
    worlds = UniformBelief(game).sample_many(state.view(p), n, np.random.default_rng(seed))
    counts: dict[tuple, int] = {}
    for w in worlds:
        key = tuple(w.tolist())
        assert key in exact  # a world the view allows
        counts[key] = counts.get(key, 0) + 1
    chi = sum((counts.get(k, 0) - n * q) ** 2 / (n * q) for k, q in exact.items())
    dof = max(len(exact) - 1, 1)
    assert chi < dof + 5 * np.sqrt(2 * dof), (chi, dof)


def _posterior(game, state, p):
    """World -> probability for ``p``'s view of ``state`` under a uniform opponent."""
    target, turn = state.view(p).data, state.current_player()
    out: dict[tuple, float] = {}

    def walk(s, w):
        seen = s.view(p).data
        if seen == target and s.current_player() == turn:
            out[tuple(s.data.tolist())] = out.get(tuple(s.data.tolist()), 0.0) + w
            return
        if len(seen) >= len(target) or seen != target[:len(seen)] or s.is_terminal():
            return
        if s.current_player() == isz.CHANCE:
            walk(s.child(s.chance_outcomes()[0][0]), w)
            return
        legal = s.legal_actions()
        for a in legal:
            walk(s.child(a), w if s.current_player() == p else w / len(legal))

    walk(game.new_initial_state(), 1.0)
    z = sum(out.values())
    return {k: v / z for k, v in out.items()}


def test_openspiel_twin(phantom_ttt):
    """OpenSpiel's phantom_ttt with ``obstype=reveal-numturns``, on 500 random games:
    turns, legal actions, returns, and the information-state partition at every
    decision (an isz view meets one OpenSpiel string and back). isz announces each
    attempt's result as a chance step, which OpenSpiel folds into the turn order."""
    pyspiel = pytest.importorskip("pyspiel")
    game = isz.make_game("phantom_ttt")
    os_game = pyspiel.load_game("phantom_ttt", {"obstype": "reveal-numturns"})
    rng = np.random.default_rng(0)
    pairs: dict[tuple, str] = {}
    for _ in range(500):
        state, os_state = game.new_initial_state(), os_game.new_initial_state()
        while not state.is_terminal():
            cur = state.current_player()
            if cur == isz.CHANCE:
                state.apply_action(state.chance_outcomes()[0][0])
                continue
            assert os_state.current_player() == cur
            assert state.legal_actions() == os_state.legal_actions()
            info = os_state.information_state_string(cur)
            assert pairs.setdefault(state.view(cur).key, info) == info
            a = int(rng.choice(state.legal_actions()))
            state.apply_action(a)
            os_state.apply_action(a)
        assert os_state.is_terminal() and state.returns() == os_state.returns()
    assert len(set(pairs.values())) == len(pairs) > 1000


def test_auto_is_the_replay_belief(phantom_ttt):
    """Too many histories to enumerate, so a network planner's `belief=auto` is `replay`
    (worlds drawn by the kernel, weighed by the network along their histories)."""
    from isz.belief.registry import resolve_belief

    assert resolve_belief("auto", isz.make_game("phantom_ttt"), network=True) == "replay"


def test_the_network_planner_decides_from_the_view(phantom_ttt, tmp_path):
    """The default recipe's planner (guided_so_ismcts, `replay` worlds): two true states
    that share the deciding seat's view (the opponent's cells differ) give one action,
    for 5 such pairs."""
    pytest.importorskip("torch")
    game = isz.make_game("phantom_ttt")
    assert_planner_decides_from_view(game, tmp_path / "pt.pt", lambda rng: (
        _random_state(game, rng, int(rng.integers(4, 14))) for _ in range(40)))
