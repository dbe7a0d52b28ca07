"""The ``policy`` leaf and the playout fitted to a planner's moves (`isz.training.playout_fit`)."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.agents.base import Agent
from isz.games import tricks_kernel as K
from isz.games.kernel import Kernel
from isz.rng import new_rng
from isz.search.playout import (
    Scratch,
    make_action_score,
    make_leaf,
    make_move_features,
    num_playout_weights,
)
from isz.search.so_ismcts import SOKnobs
from isz.training.playout_fit import fit, judge, record_moves
from tests.belief.tricks_reference import after_decisions, twin_states

SMALL = dict(players=3, suits=3, ranks=4, hand_size=3, trump="card", bidding=True,
             dealer="chance", hook=True)


def _features(game, state):
    la = np.array(state.legal_actions(), dtype=np.int64)
    out = np.zeros((len(la), num_playout_weights(game)))
    make_move_features(game.kernel)(state.data, game.kparams, state.current_player(), la,
                                    len(la), out)
    return la, out


@pytest.mark.parametrize("steps", [0, 2, 7, 12])
def test_trick_features_are_the_score_read_through_unit_vectors(steps):
    """The fit's features times any weights give the leaf's score, bids and cards."""
    game = isz.make_game("oh_hell")
    rng = np.random.default_rng(steps)
    state = after_decisions(game, steps, rng)
    la, feats = _features(game, state)
    assert feats.shape == (len(la), 48)
    score = make_action_score(game.kernel)
    for _ in range(3):
        w = rng.normal(size=48)
        got = [score(state.data, game.kparams, state.current_player(), a, w) for a in la]
        np.testing.assert_allclose(got, feats @ w, rtol=1e-12, atol=1e-12)


def _hand_block(game, state):
    """The trick features' hand block (`isz.games.tricks_features`, 3 × 8 numbers a
    card) written from the rules, card by card: float64[n, 24] for the legal cards."""
    s, kp, p = state.data, game.kparams, state.current_player()
    r, nplayers = kp[K.K_R], kp[K.K_P]
    hand = [c for c in range(kp[K.K_C]) if s[K.HAND + p] >> c & 1]
    others = [c for q in range(nplayers) if q != p for c in range(kp[K.K_C])
              if s[K.HAND + q] >> c & 1]
    lead = s[K.POS] == 0
    led = None if lead else s[K.PLAYS + s[K.NPLAYED] - s[K.POS]] // r
    need, left = s[K.BID + p] - s[K.WON + p], kp[K.K_H] - s[K.TRICK]
    bidding = kp[K.K_BIDDING] != 0
    rows = []
    for c in state.legal_actions():
        same = [d for d in hand if d // r == c // r]
        boss = not any(d // r == c // r and d > c for d in others)
        length = len(same) / len(hand)
        rank = (c % r) / (r - 1)
        urgency = need / left if bidding and need > 0 else 0.0
        block = [boss, length, c == max(same), 0.0 if lead or c // r == led else rank,
                 lead * length, lead * boss, lead * (c == min(same)), rank * urgency]
        third = 0 if not bidding or need > 0 else (1 if need == 0 else 2)
        row = np.zeros(24)
        row[8 * third:8 * third + 8] = block
        rows.append(row)
    return np.array(rows)


@pytest.mark.parametrize("name", ["oh_hell", "tricks"])
def test_the_hand_block_is_the_rules(name):
    """Features 24..47 of card plays against a reference written from the rules, at
    random depths of random deals: with bids every third is met, without only the first."""
    game = isz.make_game(name)
    rng, thirds = np.random.default_rng(7), set()
    bids = game.num_players if name == "oh_hell" else 0
    for _ in range(40):
        steps = bids + int(rng.integers(0, game.kparams[K.K_H] * game.num_players))
        state = after_decisions(game, steps, rng)
        assert state.data[K.PHASE] == K.PH_PLAY
        _, feats = _features(game, state)
        want = _hand_block(game, state)
        np.testing.assert_allclose(feats[:, 24:], want, atol=1e-12)
        thirds |= {i // 8 for i in np.flatnonzero(np.abs(want).sum(0))}
    assert thirds == ({0, 1, 2} if bids else {0})


def test_weights_fitted_before_the_hand_block_still_play():
    """A fit of the first 24 features (checkpoints before the hand block) plays as the
    same weights with 24 zeros after them."""
    game = isz.make_game("oh_hell")
    w = list(np.random.default_rng(5).normal(size=24))
    short = isz.make_agent("so_ismcts", game, iterations=200, belief="voids", leaf="policy",
                           playout_weights=w)
    padded = isz.make_agent("so_ismcts", game, iterations=200, belief="voids",
                            leaf="policy", playout_weights=w + [0.0] * 24)
    np.testing.assert_array_equal(short.playout_w, padded.playout_w)
    state = after_decisions(game, 6, np.random.default_rng(1))
    view = state.view(state.current_player())
    np.testing.assert_array_equal(short.policy(view, np.random.default_rng(2)),
                                  padded.policy(view, np.random.default_rng(2)))


def test_a_game_without_features_describes_a_move_by_its_id():
    game = isz.make_game("kuhn_poker")
    state = game.new_initial_state()
    for a in (0, 2):  # the deal: seat 0 the jack, seat 1 the king
        state.apply_action(a)
    la, feats = _features(game, state)
    assert num_playout_weights(game) == game.num_actions
    np.testing.assert_array_equal(feats, np.eye(game.num_actions)[la])


def test_the_fit_recovers_a_deterministic_player():
    """A player that always makes the last legal move of Kuhn poker: the fit puts it
    first on held-out games, far better than uniform."""

    class Last(Agent):
        name = "last"

        def act(self, view, rng):
            return view.legal_actions[-1]

    game = isz.make_game("kuhn_poker")
    rows = record_moves(Last(game), game, 40, np.random.default_rng(0))
    assert len(rows) >= 40 and rows.mask.sum(1).min() >= 2
    w = fit(rows)
    j = judge(record_moves(Last(game), game, 20, np.random.default_rng(1)), w)
    assert j["top1"] == 1.0 and j["nll"] < 0.1 < j["uniform_nll"]


def test_the_policy_leaf_follows_its_weights():
    """The leaf on Kuhn poker, the jack against the king, seat 0 to move: weights that
    always bet or call end every playout in the jack's called bet (one score); zero
    weights play uniformly (every ending seen, the jack's mean score as a uniform
    playout's)."""
    game = isz.make_game("kuhn_poker")
    state = game.new_initial_state()
    for a in (0, 2):
        state.apply_action(a)
    leaf, b = make_leaf(game.kernel, "policy"), Scratch.of(game)
    none = np.zeros(game.num_actions)

    def scores(w):
        k, rng, out = SOKnobs(0.7, (0.0, 0.0, 0.0), 0.0, none, none, 0.0, w), new_rng(0), []
        for _ in range(400):
            s = state.data.copy()
            leaf(s, game.kparams, 0, rng, b, k)
            out.append(b.scores[0])
        return np.array(out)

    bet = scores(np.array([-30.0, 30.0]))  # pass/check, bet/call
    assert set(bet) == {bet[0]} and bet[0] < 0.5
    flat = scores(np.zeros(2))
    assert len(set(flat)) == 3 and bet[0] in set(flat)
    assert abs(flat.mean() - uniform_mean(game, state)) < 4 * flat.std() / 20


def uniform_mean(game, state) -> float:
    """Seat 0's mean score in [0, 1] when both seats move uniformly at random."""
    if state.is_terminal():
        return 0.5 * (state.returns()[0] + 1)
    acts = state.legal_actions()
    return float(np.mean([uniform_mean(game, state.child(a)) for a in acts]))


def test_the_policy_leaf_decides_from_the_view():
    """Twin deals with one view: so_ismcts and guided_so_ismcts with fitted-looking
    weights give the same policy (the leaf reads only the worlds of the belief)."""
    game = isz.make_game("oh_hell")
    w = list(np.random.default_rng(3).normal(size=48))
    for name in ("so_ismcts", "guided_so_ismcts"):
        agent = isz.make_agent(name, game, iterations=300, belief="voids", leaf="policy",
                               playout_weights=w)
        for seed, steps in [(0, 1), (2, 14)]:
            state, twin, p = twin_states(game, steps, seed)
            a = [agent.policy(s.view(p), np.random.default_rng(seed)) for s in (state, twin)]
            np.testing.assert_array_equal(a[0], a[1])


def test_bad_weights_are_named():
    game = isz.make_game("oh_hell")
    with pytest.raises(isz.IszError, match="playout_weights must be 48 finite numbers for "
                                           "game 'oh_hell'.*got 49"):
        isz.make_agent("so_ismcts", game, leaf="policy", playout_weights=[1.0] * 49)
    with pytest.raises(isz.IszError, match="must be 48 finite numbers.*got 23"):
        isz.make_agent("so_ismcts", game, leaf="policy", playout_weights=[1.0] * 23)
    with pytest.raises(isz.IszError, match="playout_weights needs leaf=policy"):
        isz.make_agent("so_ismcts", game, playout_weights=[0.0] * 24)
    with pytest.raises(isz.IszError, match="playout_weights must be a list of finite numbers"):
        isz.make_agent("so_ismcts", game, leaf="policy", playout_weights="fast")
    k = game.kernel
    with pytest.raises(isz.IszError, match="action_score and num_action_features go together"):
        Kernel(k.current_player, k.legal_actions, k.chance_outcomes, k.apply_action,
               k.returns, k.observe, k.info_tensor, k.redeterminize, None, None, 24)
