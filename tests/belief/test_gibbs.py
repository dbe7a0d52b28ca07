"""``gibbs``: the TTCG Gibbs sampler against brute-force reach-weighted posteriors.

The reference (`tests.belief.tricks_reference`) enumerates every deal,
replays the view's history through the checked rules and weights it by the
product of the policy's probabilities of the other seats' bids and plays.
"""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import GibbsBelief, VoidsBelief, make_belief
from isz.belief.gibbs import circuits
from isz.belief.tricks_constraints import constraints, is_consistent
from isz.bench.belief import high_card_policy
from isz.types import IszError
from tests.belief.tricks_reference import (
    all_consistent,
    find_views,
    posterior,
    random_game_views,
    tv,
)

TWO = dict(players=2, suits=3, ranks=3, hand_size=3)
THREE = dict(players=3, suits=3, ranks=4, hand_size=3, trump="card", bidding=True)


def uniform_policy(view):
    p = np.zeros(view.game.num_actions)
    p[list(view.legal_actions)] = 1.0 / len(view.legal_actions)
    return p


# (game, binding voids, support bounds): found by seeded random play, deterministic
CASES = [(TWO, 1, (4, 40)), (THREE, 0, (15, 60)), (THREE, 1, (15, 60)), (THREE, 2, (12, 60))]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]['players']}p-{c[1]}void")
def case(request):
    params, voids, (lo, hi) = request.param
    game = isz.make_game("tricks", **params)
    _, view, ref = find_views(game, voids, lo, hi, policy=high_card_policy)
    return game, view, ref


def test_matches_reach_weighted_posterior(case):
    """Non-uniform policy (prefers high cards, informative bids), default burn-in."""
    game, view, ref = case
    b = GibbsBelief(game, policy=high_card_policy, chains=40)
    worlds = b.sample_many(view, 40_000, np.random.default_rng(1))
    uniform = VoidsBelief(game).sample_many(view, 40_000, np.random.default_rng(1))
    assert tv(uniform, game, view, ref) > 0.1  # the policy matters on this view
    assert all_consistent(game, view, worlds)
    assert tv(worlds, game, view, ref) <= 0.03


def test_compiled_uniform_reach(case):
    """The default policy's reach (1 / #legal per play) is compiled: same posterior
    as the brute force with an explicit uniform policy."""
    game, view, _ = case
    ref = posterior(game, view, uniform_policy)
    worlds = GibbsBelief(game).sample_many(view, 100_000, np.random.default_rng(2))
    assert all_consistent(game, view, worlds)
    assert tv(worlds, game, view, ref) <= 0.03


def test_construct_start(case):
    game, view, ref = case
    b = GibbsBelief(game, policy=high_card_policy, start="construct", burn_in=50, chains=20)
    worlds = b.sample_many(view, 20_000, np.random.default_rng(3))
    assert tv(worlds, game, view, ref) <= 0.03


def test_circuits_are_the_ring_moves():
    """2 hand rows + stock, 4 suits, one void: cycles of distinct rows and suits."""
    game = isz.make_game("oh_hell")
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    while True:  # play until some seat shows a void
        acts = state.legal_actions() or [a for a, _ in state.chance_outcomes()]
        state.apply_action(acts[rng.integers(len(acts))])
        c = constraints(state.view(0))
        if c.num_voids():
            break
    crow, csuit, clen = circuits(c)
    assert set(clen.tolist()) == {2, 3}
    for k in range(len(clen)):
        rows, suits = crow[k, :clen[k]], csuit[k, :clen[k]]
        assert len(set(rows)) == len(rows) and len(set(suits)) == len(suits)
        assert rows[0] == rows.min()
        for t in range(clen[k]):  # giver and receiver may hold the suit
            assert not c.void[rows[t], suits[t]]
            assert not c.void[rows[(t + 1) % clen[k]], suits[t]]


def test_oh_hell_chain_stays_consistent():
    game = isz.make_game("oh_hell")
    rng = np.random.default_rng(4)
    b = make_belief("gibbs", game, burn_in=5)
    for view in random_game_views(game, rng):
        for w in b.sample_many(view, 4, rng):
            assert is_consistent(view, w)
    assert b.acceptance["ring"] > 0.2 and b.acceptance["swap"] > 0.9


def test_bad_knobs():
    game = isz.make_game("tricks")
    with pytest.raises(IszError, match="kuhn_poker.*supported: oh_hell, tricks"):
        make_belief("gibbs", isz.make_game("kuhn_poker"))
    for knobs, what in [({"policy": 3}, "policy"), ({"burn_in": -1}, "burn_in"),
                        ({"thin": 0}, "thin"), ({"chains": 0}, "chains"),
                        ({"start": "x"}, "start")]:
        with pytest.raises(IszError, match=what):
            make_belief("gibbs", game, **knobs)
