"""``sir``: voids deals resampled by a policy's reach of the other seats' bids.

References are brute force (`tests.belief.tricks_reference`): every split of the
unseen cards replayed through the checked rules, weighted by the policy's
probability of the other seats' bids only (card plays weigh 1: ``plays=0``), or of
their card plays too.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.belief import SIRBelief, VoidsBelief, make_belief
from isz.belief.tricks_constraints import parse_view
from isz.games import tricks_kernel as K
from isz.nn import ModelConfig, build_model
from isz.search.evaluator import EvaluatorPolicy, UniformEvaluator, make_search_belief
from isz.types import IszError
from tests.belief.tricks_reference import (
    all_consistent,
    find_views,
    replay_world,
    tv,
    twin_states,
)

THREE = dict(players=3, suits=3, ranks=4, hand_size=3, trump="card", bidding=True)


class BidPolicy:
    """Full-support policy read from the tensor alone (so the batched and the per-view
    paths agree): bid ``b`` with weight ``3 ** -|b - h|``, ``h`` the cards of the top
    two ranks in the initial hand; plays uniform. Counts its batched calls."""

    def __init__(self, game):
        self.game, self.calls, self.rows = game, 0, 0

    def many(self, tensors, masks):
        g = self.game
        self.calls += 1
        self.rows += len(tensors)
        ti = int(g.kparams[K.K_T_INIT])
        high_cards = np.arange(g.num_cards) % g.ranks >= g.ranks - 2
        high = tensors[:, ti:ti + g.num_cards][:, high_cards].sum(axis=1)
        bid = np.arange(g.num_actions) - g.num_cards
        w = np.where(bid >= 0, 3.0 ** -np.abs(bid[None, :] - high[:, None]), 1.0) * masks
        return w / w.sum(axis=1, keepdims=True)

    def __call__(self, view):
        mask = np.zeros((1, self.game.num_actions), dtype=np.bool_)
        mask[0, list(view.legal_actions)] = True
        return self.many(view.tensor().reshape(1, -1).astype(np.float32), mask)[0]


class PlayPolicy(BidPolicy):
    """`BidPolicy`'s bids; a legal card of rank r with weight ``2 ** r`` (high cards
    first), so who holds which cards shows in the plays."""

    def many(self, tensors, masks):
        g = self.game
        out = super().many(tensors, masks)
        card = np.arange(g.num_actions) < g.num_cards
        w = np.where(card, 2.0 ** (np.arange(g.num_actions) % g.ranks), 0.0) * masks
        plays = (masks & card).any(axis=1)
        out[plays] = (w / np.maximum(w.sum(axis=1, keepdims=True), 1e-300))[plays]
        return out


def bids_only(policy):
    """The reference's policy: ``policy`` at bids, weight 1 for every card play."""
    def weigh(view):
        if min(view.legal_actions) >= view.game.num_cards:
            return policy(view)
        return np.ones(view.game.num_actions)
    return weigh


@pytest.fixture(scope="module")
def three():
    game = isz.make_game("tricks", **THREE)
    state, view, ref = find_views(game, 0, 10, 120, policy=bids_only(BidPolicy(game)))
    return game, view, ref


def test_law_matches_bid_weighted_posterior(three):
    game, view, ref = three
    assert len(view.data) > 5 + game.num_players  # bids made and cards played
    b = SIRBelief(game, policy=BidPolicy(game), candidates=20_000, plays=0)
    worlds = b.sample_many(view, 100_000, np.random.default_rng(1))
    assert all_consistent(game, view, worlds)
    assert tv(worlds, game, view, ref) <= 0.03
    plain = VoidsBelief(game).sample_many(view, 100_000, np.random.default_rng(1))
    assert tv(plain, game, view, ref) > 0.1  # the bids matter on this view
    assert 0.2 * 20_000 < b.last_ess < 20_000


def test_with_plays_the_law_matches_the_play_weighted_posterior():
    """plays=k weighs the other seats' k last card plays too: with every play weighed,
    the law is the posterior weighted by the policy at every decision."""
    game = isz.make_game("tricks", **THREE)
    pol = PlayPolicy(game)
    state, view, ref = find_views(game, 0, 10, 120, policy=pol)
    others = [p for p, _ in parse_view(view)[5] if p != view.player]
    assert len(others) >= 2  # card plays to weigh
    b = SIRBelief(game, policy=pol, candidates=20_000, plays=len(others))
    worlds = b.sample_many(view, 100_000, np.random.default_rng(1))
    assert all_consistent(game, view, worlds)
    assert tv(worlds, game, view, ref) <= 0.03
    bids = SIRBelief(game, policy=pol, candidates=20_000, plays=0).sample_many(
        view, 100_000, np.random.default_rng(1))
    assert tv(bids, game, view, ref) > 0.05  # the plays matter on this view


def bidder_tensors(game, view, world):
    """The other seats' tensors and legal masks at their decisions in ``world``, by the
    checked rules: bids, then card plays."""
    bids, plays = [], []

    def record(v):
        mask = np.zeros(game.num_actions, dtype=np.bool_)
        mask[list(v.legal_actions)] = True
        row = (np.asarray(v.tensor(), dtype=np.float32).reshape(-1), mask)
        (bids if min(v.legal_actions) >= game.num_cards else plays).append(row)
        return np.ones(game.num_actions)

    hands = [int(h) for h in world[K.INIT:K.INIT + game.num_players]]
    assert replay_world(game, view, hands, record) is not None
    return bids + plays


@pytest.mark.parametrize("name,params", [("tricks", THREE), ("oh_hell", {})])
def test_decision_rows_are_the_deciders_views(name, params):
    """Template plus written-in hand = the deciding seat's own tensor and legal moves,
    world by world, at a decision of each phase (a later bid, and card play), for its
    bids and every card play of the other seats."""
    game = isz.make_game(name, **params)
    rng = np.random.default_rng(5)
    state, seen = game.new_initial_state(), set()
    while not state.is_terminal():
        p = state.current_player()
        if p < 0:
            acts = [a for a, _ in state.chance_outcomes()]
        else:
            view = state.view(p)
            b = SIRBelief(game, policy=BidPolicy(game), plays=100)
            decisions = b.decision_templates(view)
            if decisions:
                seen.add(int(state.data[K.PHASE]))
                worlds = b.voids.sample_many(view, 6, rng)
                rows, masks = b.decision_rows(worlds, decisions)
                for i, w in enumerate(worlds):
                    want = bidder_tensors(game, view, w)
                    assert len(want) == len(decisions)
                    for d, (t, m) in enumerate(want):
                        np.testing.assert_array_equal(rows[d * len(worlds) + i], t)
                        np.testing.assert_array_equal(masks[d * len(worlds) + i], m)
            acts = state.legal_actions()
        state.apply_action(acts[rng.integers(len(acts))])
    assert seen == {K.PH_BID, K.PH_PLAY}


def test_repeated_candidates_are_weighed_once_with_the_same_law(three):
    """The pool keeps each distinct candidate once, with its draws' summed weight: the
    law of weighing every draw, at fewer policy rows."""
    game, view, _ = three
    pol = BidPolicy(game)
    b = SIRBelief(game, policy=pol, candidates=512, plays=0)
    b.sample_many(view, 1, np.random.default_rng(5))
    _, worlds, p = b._pool
    drawn = b.voids.sample_many(view, 512, np.random.default_rng(5))  # the same draws
    w = np.exp(b.log_weights(drawn, b.decision_templates(view)))
    assert len(worlds) < 512  # repeats on this view
    for world, q in zip(worlds, p, strict=True):
        assert q == pytest.approx(w[(drawn == world).all(axis=1)].sum() / w.sum())


def test_before_any_other_bid_it_is_voids():
    game = isz.make_game("oh_hell")
    state = game.new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.chance_outcomes()[0][0])
    view = state.view(state.current_player())  # the first bidder
    pol = BidPolicy(game)
    got = SIRBelief(game, policy=pol).sample_many(view, 50, np.random.default_rng(2))
    want = VoidsBelief(game).sample_many(view, 50, np.random.default_rng(2))
    np.testing.assert_array_equal(got, want)
    assert pol.calls == 0


def test_one_policy_call_a_view_and_seeded(three):
    game, view, _ = three
    pol = BidPolicy(game)
    b = SIRBelief(game, policy=pol, candidates=64, plays=0)
    rng = np.random.default_rng(7)
    first = np.concatenate([b.sample_many(view, 100, rng) for _ in range(5)])
    distinct = len(b._pool[1])  # one row per distinct candidate and decision
    assert distinct <= 64 and pol.calls == 1 and pol.rows == distinct * 2  # two bids before
    again = SIRBelief(game, policy=BidPolicy(game), candidates=64, plays=0)
    rng = np.random.default_rng(7)
    second = np.concatenate([again.sample_many(view, 100, rng) for _ in range(5)])
    np.testing.assert_array_equal(first, second)
    assert len(np.unique(first[:, K.INIT:K.INIT + 3], axis=0)) <= 64


def test_planner_belief_gets_the_network_policy():
    game = isz.make_game("tricks", **THREE)
    ev = UniformEvaluator(game.num_players)
    b = make_search_belief("sir", game, ev)
    assert isinstance(b, SIRBelief) and isinstance(b.policy, EvaluatorPolicy)
    assert make_search_belief("sir", game, ev, "uniform").policy is None


def test_bad_knobs():
    game = isz.make_game("tricks", **THREE)
    with pytest.raises(IszError, match="does not support game 'kuhn_poker'"):
        make_belief("sir", isz.make_game("kuhn_poker"))
    with pytest.raises(IszError, match="policy must have many"):
        make_belief("sir", game, policy=lambda v: None)
    with pytest.raises(IszError, match="candidates"):
        make_belief("sir", game, candidates=0)
    with pytest.raises(IszError, match="unknown knob"):
        make_belief("sir", game, chains=3)


@pytest.mark.parametrize("name, plan", [
    ("oh_hell", [(0, 2), (1, 3), (2, 12)]),  # second bidder, third, card play
    ("tricks", [(0, 2), (1, 3), (2, 4)]),  # no bids: the opponent's plays weigh (plays=4)
])
def test_planner_with_sir_does_not_see_the_hidden_cards(name, plan):
    """Twin states (one view, other hidden hands) at decisions after some bids or
    plays: the same worlds, and the network planner (guided_so_ismcts) the same move."""
    game = isz.make_game(name)
    torch.manual_seed(0)
    ev = NetworkEvaluator(build_model(game, ModelConfig(width=16, depth=1)), "cpu")
    for seed, steps in plan:
        state, twin, p = twin_states(game, steps, seed)
        assert make_search_belief("sir", game, ev).decision_templates(state.view(p))
        worlds = [make_search_belief("sir", game, ev).sample_many(
            s.view(p), 300, np.random.default_rng(seed)) for s in (state, twin)]
        np.testing.assert_array_equal(worlds[0], worlds[1])
        acts = [isz.make_agent("guided_so_ismcts", game, evaluator=ev, belief="sir",
                               iterations=200).act(
            s.view(p), np.random.default_rng(seed)) for s in (state, twin)]
        assert acts[0] == acts[1]


class DenseOnly:
    """An `EvaluatorPolicy` without ``many_parts``: sir must write the rows out."""

    def __init__(self, policy):
        self.many = policy.many


def test_parts_path_gives_the_dense_weights():
    """With a network, sir's weights come from ``many_parts`` (stem once per template,
    no value head): the same priors as the rows written out, to float32 rounding, at
    bid and card-play templates; and the same through a policy without it."""
    game = isz.make_game("oh_hell")
    torch.manual_seed(0)
    net = build_model(game, ModelConfig(width=32, depth=1))
    evaluator = NetworkEvaluator(net, device="cpu")
    policy = EvaluatorPolicy(evaluator)
    rng = np.random.default_rng(3)
    state, checked = game.new_initial_state(), 0
    while not state.is_terminal():
        p = state.current_player()
        if p >= 0:
            view = state.view(p)
            b = SIRBelief(game, policy=policy, plays=2)
            decisions = b.decision_templates(view)
            if decisions:
                worlds = b.voids.sample_many(view, 16, rng)
                base, cols, vals, masks = b.decision_parts(worlds, decisions)
                groups = np.repeat(np.arange(len(decisions)), len(worlds))
                rows, masks2 = b.decision_rows(worlds, decisions)
                np.testing.assert_array_equal(masks, masks2)
                parts = evaluator.evaluate_parts(base, groups, cols, vals, masks)
                dense, _ = evaluator.evaluate(rows, masks)
                np.testing.assert_allclose(parts, dense, atol=1e-5)
                dense_b = SIRBelief(game, policy=DenseOnly(policy), plays=2)
                np.testing.assert_allclose(b.log_weights(worlds, decisions),
                                           dense_b.log_weights(worlds, decisions), atol=1e-4)
                checked += 1
            state.apply_action(state.legal_actions()[rng.integers(len(state.legal_actions()))])
        else:
            state.apply_action(state.sample_chance(rng))
    assert checked > 10
