"""PUCT's value view, on-policy evaluation below the root, and the mirror policy target."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.search.puct_driver import PUCTBatch, PUCTConfig
from isz.search.tree import CHILD, LABEL, NONE, SIB, VISITS

PASS, BET = 0, 1


class KuhnSeatEvaluator:
    """Priors fixed by ``prior``; value +0.8 for player 0 on player 0's views, -0.8 on
    player 1's (Kuhn's tensor ends with the owner's one-hot), so a backed-up value
    tells whose view it was read from."""

    def __init__(self, prior=(0.5, 0.5)):
        self.prior = np.asarray(prior, dtype=np.float32)
        self.rows = 0

    def evaluate(self, tensors, masks):
        self.rows += len(tensors)
        v0 = np.where(tensors[:, 9] == 1.0, 0.8, -0.8).astype(np.float32)
        priors = masks * self.prior
        return priors / priors.sum(axis=1, keepdims=True), np.stack([v0, -v0], axis=1)


def _p0_batch(sims: int, seed=0, **cfg) -> tuple[PUCTBatch, np.ndarray]:
    game = isz.make_game("kuhn_poker")
    s = game.new_initial_state()
    s.apply_action(1)  # player 0: queen
    s.apply_action(2)  # player 1: king
    worlds = np.tile(s.data, (1, sims, 1))
    return PUCTBatch(game, PUCTConfig(**cfg), worlds, [0], seed=seed), s.data


def _child(tree, node: int, label: int) -> int:
    ch = int(tree.nodes[node, CHILD])
    while ch != NONE and int(tree.nodes[ch, LABEL]) != label:
        ch = int(tree.nodes[ch, SIB])
    return ch


@pytest.mark.parametrize("view,score", [("searcher", 0.9), ("actor", 0.1)])
def test_opponent_leaf_is_valued_from_the_chosen_view(view, score):
    # 3 simulations: expand the root, then each move once down to player 1's leaf
    batch, _ = _p0_batch(3, value_view=view)
    ev = KuhnSeatEvaluator()
    batch.run(ev, 3)
    stats = batch.root_stats(0)
    assert {a: n for a, (n, _) in stats.items()} == {PASS: 1, BET: 1}
    for _, q in stats.values():
        assert q == pytest.approx(score)
    # the searcher's own view costs one extra row per opponent leaf
    assert ev.rows == (5 if view == "searcher" else 3)


@pytest.mark.parametrize("mode,explores", [("evaluate", False), ("prior", True)])
def test_evaluate_draws_the_searchers_own_later_moves_from_the_prior(mode, explores):
    # the network always bets/calls; after "pass, bet" player 0 must call under evaluate
    batch, _ = _p0_batch(2000, opponents=mode)
    batch.run(KuhnSeatEvaluator(prior=(0.01, 0.99)), 2000)
    t = batch.tree
    node = _child(t, _child(t, batch.root(0), PASS), BET)  # player 0 facing a bet
    assert node != NONE
    visits = [0 if ch == NONE else int(t.nodes[ch, VISITS])
              for ch in (_child(t, node, PASS), _child(t, node, BET))]
    assert sum(visits) >= 50
    # PUCT learns that folding (-1) beats calling a king (-2); the policy folds 1%
    fold_share = visits[0] / sum(visits)
    assert (fold_share > 0.5) if explores else (fold_share < 0.1)
    # the root itself is searched by PUCT either way
    assert all(n > 0 for n, _ in batch.root_stats(0).values())


def _softmax(z):
    w = np.exp(z - z.max())
    return w / w.sum()


@pytest.mark.parametrize("eta,alpha", [(2.0, 0.0), (2.0, 0.1), (13.0, 0.01)])
def test_mirror_policy_is_one_mirror_step_along_q(eta, alpha):
    batch, _ = _p0_batch(64, seed=3, opponents="evaluate")
    batch.run(KuhnSeatEvaluator(prior=(0.3, 0.7)), 64)
    stats = batch.root_stats(0)
    q = np.array([2 * stats[a][1] - 1 for a in (PASS, BET)])
    expected = _softmax((np.log([0.3, 0.7]) + eta * q) / (1 + alpha * eta))
    pi = batch.mirror_policy(0, eta, alpha)
    np.testing.assert_allclose(pi, expected, rtol=1e-5)
    assert pi.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(batch.target_policy(0, "mirror", eta, alpha), pi)
    np.testing.assert_allclose(batch.target_policy(0, "visits", eta, alpha),
                               [stats[PASS][0] / 63, stats[BET][0] / 63], rtol=1e-6)


def test_mirror_policy_without_visits_keeps_the_prior():
    batch, _ = _p0_batch(1)
    batch.run(KuhnSeatEvaluator(prior=(0.3, 0.7)), 1)  # the root expanded, nothing visited
    np.testing.assert_allclose(batch.mirror_policy(0, 5.0), [0.3, 0.7], rtol=1e-6)


def test_better_move_gains_probability_and_magnet_pulls_to_uniform():
    batch, _ = _p0_batch(200, opponents="evaluate")
    batch.run(KuhnSeatEvaluator(prior=(0.5, 0.5)), 200)
    stats = batch.root_stats(0)
    better = max(stats, key=lambda a: stats[a][1])
    plain = batch.mirror_policy(0, 2.0)
    assert plain[better] > 0.5
    # a huge magnet weight flattens the step back toward uniform
    assert abs(batch.mirror_policy(0, 2.0, 100.0)[better] - 0.5) < abs(plain[better] - 0.5)


def test_magnet_enters_the_mirror_step_as_log_rho():
    batch, _ = _p0_batch(64, seed=3, opponents="evaluate")
    batch.run(KuhnSeatEvaluator(prior=(0.3, 0.7)), 64)
    stats = batch.root_stats(0)
    q = np.array([2 * stats[a][1] - 1 for a in (PASS, BET)])
    eta, alpha, rho = 2.0, 0.5, np.array([0.9, 0.1])
    expected = _softmax((np.log([0.3, 0.7]) + eta * q + alpha * eta * np.log(rho))
                        / (1 + alpha * eta))
    np.testing.assert_allclose(batch.mirror_policy(0, eta, alpha, rho), expected, rtol=1e-6)
    np.testing.assert_allclose(batch.target_policy(0, "mirror", eta, alpha, rho), expected,
                               rtol=1e-6)
    # a uniform magnet is the default one; unnormalised magnets are normalised
    np.testing.assert_allclose(batch.mirror_policy(0, eta, alpha, np.array([0.5, 0.5])),
                               batch.mirror_policy(0, eta, alpha), rtol=1e-9)
    np.testing.assert_allclose(batch.mirror_policy(0, eta, alpha, 3 * rho), expected,
                               rtol=1e-6)
    # a heavy magnet pins the target to the magnet itself, whatever q and the prior say
    np.testing.assert_allclose(batch.mirror_policy(0, eta, 1e6, rho), rho, atol=1e-4)
    with pytest.raises(ValueError, match="magnet must be probabilities"):
        batch.mirror_policy(0, eta, alpha, np.array([-1.0, 2.0]))


def _facing_a_bet(seed: int, sims: int, root_selection: str):
    """Player 1 holds the queen and faces a bet from a jack or a king, half each: calling
    wins or loses 2 chips (q = +-1, mean 0), folding loses 1 (q = -0.5). The network
    folds 99%: PUCT tries the call once or twice and keeps an unlucky first sample."""
    game = isz.make_game("kuhn_poker")
    worlds = []
    for opp in (0, 2):
        s = game.new_initial_state()
        s.apply_action(opp)
        s.apply_action(1)
        s.apply_action(BET)
        worlds.append(s.data)
    order = np.random.default_rng(seed).permutation(np.repeat([0, 1], sims // 2))
    batch = PUCTBatch(game, PUCTConfig(opponents="evaluate", root_selection=root_selection),
                      np.stack([worlds[i] for i in order])[None], [1], seed=seed)
    batch.run(KuhnSeatEvaluator(prior=(0.99, 0.01)), sims)
    return batch.root_stats(0)


def test_uniform_root_visits_moves_in_turn_and_its_means_are_unbiased():
    stats = _facing_a_bet(0, 64, "uniform")
    assert sorted(n for n, _ in stats.values()) == [31, 32]  # 63 after the root's own
    calls = {mode: [2 * _facing_a_bet(s, 64, mode)[BET][1] - 1 for s in range(200)]
             for mode in ("puct", "uniform")}
    # on-policy q of the call is 0: PUCT's mean is far below it, turn-taking's is not
    # (200 searches of ~32 samples each: standard error about 0.013)
    assert np.mean(calls["puct"]) < -0.2
    assert abs(np.mean(calls["uniform"])) < 0.05
    assert all(_facing_a_bet(s, 64, "uniform")[PASS][1] == 0.25 for s in range(3))
