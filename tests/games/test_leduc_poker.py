"""Leduc hold'em: OpenSpiel's rules, views and the uniform resampler."""

import numpy as np
import pytest

import isz
from isz.games.base import State
from isz.games.testing import check_game
from isz.rng import new_rng
from isz.types import CHANCE, TERMINAL, IllegalActionError, IszError
from tests.conftest import random_history

FOLD, CALL, RAISE = 0, 1, 2
JS, JH, QS, QH, KS, KH = range(6)


@pytest.fixture(scope="module")
def game():
    return isz.make_game("leduc_poker")


def play(game, *actions):
    s = game.new_initial_state()
    for a in actions:
        s.apply_action(a)
    return s


def chips(state):
    return [round(r * 13, 9) for r in state.returns()]


def test_shapes(game):
    assert (game.num_players, game.num_actions, game.max_chance_outcomes) == (2, 3, 6)
    assert game.tensor_shape == (38,) and game.utility_scale == 13.0
    with pytest.raises(IszError, match="bogus"):
        isz.make_game("leduc_poker", bogus=1)


def test_deals_and_public_card_are_chance(game):
    s = game.new_initial_state()
    assert s.current_player() == CHANCE and len(s.chance_outcomes()) == 6
    s = play(game, KS, QH)
    assert s.current_player() == 0 and s.legal_actions() == [CALL, RAISE]  # no fold unpressed
    s = play(game, KS, QH, CALL, CALL)
    assert s.current_player() == CHANCE
    outs = s.chance_outcomes()
    assert [a for a, _ in outs] == [JS, JH, QS, KH]
    assert sum(p for _, p in outs) == pytest.approx(1.0)
    s.apply_action(JS)
    assert s.current_player() == 0  # player 0 opens the second round too


def test_showdown_pair_rank_and_split(game):
    assert chips(play(game, JS, QS, CALL, CALL, KS, CALL, CALL)) == [-1, 1]  # higher rank
    assert chips(play(game, JS, QS, CALL, CALL, JH, CALL, CALL)) == [1, -1]  # pair wins
    assert chips(play(game, KS, QS, CALL, CALL, QH, CALL, CALL)) == [-1, 1]  # pair beats K
    assert chips(play(game, JS, JH, CALL, CALL, KS, CALL, CALL)) == [0, 0]   # split


def test_raise_sizes_cap_and_max_pot(game):
    s = play(game, KS, QS, RAISE, RAISE)
    assert s.legal_actions() == [FOLD, CALL]  # two raises already
    s.apply_action(CALL)
    s.apply_action(QH)
    for a in (CALL, RAISE, RAISE):
        s.apply_action(a)
    assert s.legal_actions() == [FOLD, CALL]
    s.apply_action(CALL)
    assert s.is_terminal() and chips(s) == [-13, 13]  # 1 + 2 + 2 + 4 + 4
    assert s.returns() == [-1.0, 1.0]
    with pytest.raises(IllegalActionError):
        play(game, KS, QS, RAISE, RAISE, RAISE)


def test_folds(game):
    assert chips(play(game, KS, QS, RAISE, FOLD)) == [1, -1]
    assert chips(play(game, JS, QS, CALL, RAISE, FOLD)) == [-1, 1]
    s = play(game, JS, QS, RAISE, CALL, KS, RAISE, RAISE, FOLD)
    assert s.current_player() == TERMINAL and chips(s) == [-7, 7]  # 1 + 2 + 4
    with pytest.raises(IllegalActionError):
        play(game, JS, QS, CALL, FOLD)


def test_round_ends_on_call_after_first_action(game):
    assert play(game, JS, QS, CALL).current_player() == 1
    assert play(game, JS, QS, RAISE, RAISE, CALL).current_player() == CHANCE
    assert play(game, JS, QS, CALL, RAISE, RAISE, CALL).current_player() == CHANCE


def test_private_cards_seen_only_by_holder(game):
    obs = game.kernel.observe
    s = game.new_initial_state()
    assert obs(s.data, game.kparams, KS, 0) == KS and obs(s.data, game.kparams, KS, 1) == -1
    s.apply_action(KS)
    assert obs(s.data, game.kparams, QS, 0) == -1 and obs(s.data, game.kparams, QS, 1) == QS
    s = play(game, KS, QS, CALL, CALL)
    assert obs(s.data, game.kparams, JS, 0) == JS == obs(s.data, game.kparams, JS, 1)
    assert s.view(0).data == (KS, 2, -1, 2, CALL, CALL)
    assert s.view(1).data == (QS, 2, -1, 2, CALL, CALL)


def test_view_and_tensor_layout(game):
    s = play(game, KS, QS, RAISE, CALL, JH, CALL, RAISE)
    assert s.view(1).data == (QS, 3, JH, 2, RAISE, CALL, CALL, RAISE)
    t = s.view(1).tensor()
    hot = np.flatnonzero(t).tolist()
    assert hot == [QS, 6 + JH, 12 + RAISE, 12 + 3 + CALL, 24 + CALL, 24 + 3 + RAISE, 37]


def test_state_from_view_and_redeterminize_keep_the_view(game, rng):
    out = np.empty(game.state_size, dtype=np.int64)
    for i in range(300):
        s = random_history(game, rng, int(rng.integers(0, 12)))
        for p in range(2):
            v = s.view(p)
            built = game.state_from_view(v)
            assert built.view(p).key == v.key
            game.kernel.redeterminize(s.data, game.kparams, p, new_rng(i), out)
            assert State(game, out.copy()).view(p).key == v.key


def test_state_from_view_gives_the_lowest_unseen_card(game):
    s = play(game, JS, KS, CALL, CALL, JH)
    assert game.state_from_view(s.view(1)).data[:3].tolist() == [JS, KS, JH]
    assert game.state_from_view(s.view(0)).data[:3].tolist() == [JS, QS, JH]


def test_redeterminize_is_uniform_over_unseen_cards(game):
    s = play(game, JS, KS, CALL, CALL, JH)
    out = np.empty(game.state_size, dtype=np.int64)
    rng = new_rng(3)
    counts = np.zeros(6)
    for _ in range(4000):
        game.kernel.redeterminize(s.data, game.kparams, 1, rng, out)
        counts[out[0]] += 1
    assert counts[KS] == counts[JH] == 0
    assert np.allclose(counts[[JS, QS, QH, KH]] / 4000, 0.25, atol=0.03)


def test_uniform_random_exploitability_matches_openspiel(game):
    """Best response to the uniform policy over isz's view keys: OpenSpiel gives 2.373611."""
    infosets, nodes = {}, {}

    def walk(s, h, reach):  # reach[p] = chance and opponent probability of h
        nodes[h] = s
        cur = s.current_player()
        if cur == TERMINAL:
            return
        if cur == CHANCE:
            for a, q in s.chance_outcomes():
                walk(s.child(a), h + (a,), reach * q)
            return
        infosets.setdefault(s.view(cur).key, []).append((h, reach[cur]))
        legal = s.legal_actions()
        for a in legal:
            r = reach.copy()
            r[1 - cur] /= len(legal)
            walk(s.child(a), h + (a,), r)

    walk(game.new_initial_state(), (), np.ones(2))
    assert len(infosets) == 936

    def best_response(p):
        best, memo = {}, {}

        def v(h):
            if h not in memo:
                s = nodes[h]
                cur = s.current_player()
                if cur == TERMINAL:
                    memo[h] = s.returns()[p] * 13
                elif cur == CHANCE:
                    memo[h] = sum(q * v(h + (a,)) for a, q in s.chance_outcomes())
                elif cur != p:
                    memo[h] = np.mean([v(h + (a,)) for a in s.legal_actions()])
                else:
                    key = s.view(p).key
                    if key not in best:
                        vals = {a: sum(w * v(x + (a,)) for x, w in infosets[key])
                                for a in s.legal_actions()}
                        best[key] = max(vals, key=vals.get)
                    memo[h] = v(h + (best[key],))
            return memo[h]

        return v(())

    assert (best_response(0) + best_response(1)) / 2 == pytest.approx(2.373611111, abs=1e-6)


def test_conformance(game):
    check_game(game, histories=60, seed=3)
