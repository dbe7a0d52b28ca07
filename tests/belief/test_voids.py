"""``voids``: exact uniform sampling over deals consistent with a tricks view.

References are brute force (`tests.belief.tricks_reference`): every split of
the unseen cards replayed through the checked rules.
"""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief, VoidsBelief, make_belief
from isz.belief.tricks_constraints import constraints, is_consistent
from isz.games.base import State
from isz.types import IszError
from tests.belief.tricks_reference import (
    all_consistent,
    consistent,
    find_views,
    random_game_views,
    tv,
)

TWO = dict(players=2, suits=3, ranks=3, hand_size=3)
THREE = dict(players=3, suits=3, ranks=4, hand_size=3, trump="card", bidding=True)
# (game, binding voids, support bounds): found by seeded random play, deterministic
CASES = [(TWO, 0, (10, 120)), (TWO, 1, (4, 120)), (THREE, 0, (10, 120)),
         (THREE, 1, (10, 120)), (THREE, 2, (10, 120))]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"{c[0]['players']}p-{c[1]}void")
def case(request):
    params, voids, (lo, hi) = request.param
    game = isz.make_game("tricks", **params)
    state, view, ref = find_views(game, voids, lo, hi)
    assert constraints(view).num_voids() == voids
    return game, state, view, ref


@pytest.mark.parametrize("shuffle", [True, False])
def test_matches_exact_uniform_posterior(case, shuffle):
    game, _, view, ref = case
    b = VoidsBelief(game, shuffle=shuffle)
    worlds = b.sample_many(view, 200_000, np.random.default_rng(1))
    assert all_consistent(game, view, worlds)
    assert set(ref.values()) and max(ref.values()) - min(ref.values()) < 1e-12  # uniform
    assert tv(worlds, game, view, ref) <= 0.02


def test_dp_path_matches_too(case):
    """Past max_tables the DP sampler takes over (where a void binds): same law."""
    game, _, view, ref = case
    b = VoidsBelief(game, max_tables=0, shuffle=False)
    worlds = b.sample_many(view, 100_000, np.random.default_rng(2))
    assert not b.tables(view).enumerated and not b.tables(view).free
    assert all_consistent(game, view, worlds)
    assert tv(worlds, game, view, ref) <= 0.02
    assert np.isclose(np.exp(b.log_count(view)), len(ref))


def test_counts_and_construct(case):
    """Also: a view with no binding void takes the shuffle path, one with a void the
    tables (the law of both is checked against the exact posterior above)."""
    game, _, view, ref = case
    b = VoidsBelief(game)
    assert b.tables(view).free == (constraints(view).num_voids() == 0)
    assert np.isclose(np.exp(b.log_count(view)), len(ref))
    world = b.construct(view).data
    assert consistent(game, view, world) and is_consistent(view, world)


def test_uniform_sampler_violates_voids():
    """Why ``voids`` exists: the game's reshuffle deals a seat the suit it showed out of."""
    game = isz.make_game("tricks", **THREE)
    _, view, ref = find_views(game, 2, 10, 120)
    worlds = UniformBelief(game).sample_many(view, 4000, np.random.default_rng(3))
    ok = np.array([consistent(game, view, w) for w in worlds])
    assert not ok.all()
    rate = VoidsBelief(game).rejection_acceptance(view)
    assert rate < 0.5 and abs(ok.mean() - rate) < 0.03


def test_same_seed_same_worlds_and_reset(case):
    game, _, view, _ = case
    b = VoidsBelief(game)
    w1 = b.sample_many(view, 50, np.random.default_rng(7))
    b.reset()
    assert np.array_equal(w1, b.sample_many(view, 50, np.random.default_rng(7)))


def test_oh_hell_samples_are_consistent():
    game = isz.make_game("oh_hell")
    b = make_belief("voids", game)
    rng = np.random.default_rng(4)
    for seed in range(3):
        for view in random_game_views(game, np.random.default_rng(seed)):
            for w in b.sample_many(view, 3, rng):
                assert is_consistent(view, w)


def test_unsupported_game_and_bad_knobs():
    with pytest.raises(IszError, match="kuhn_poker.*supported: oh_hell, tricks"):
        make_belief("voids", isz.make_game("kuhn_poker"))
    with pytest.raises(IszError, match="max_tables"):
        make_belief("voids", isz.make_game("tricks"), max_tables=-1)
    with pytest.raises(IszError, match="shuffle must be true or false, got 'yes'"):
        make_belief("voids", isz.make_game("tricks"), shuffle="yes")


def test_decision_cost_rows_cover_a_whole_game():
    """The bench's per-decision cost: both paths, every decision of the game."""
    from isz.bench.belief import decision_cost
    for belief, shuffle in [("voids", True), ("voids", False), ("sir", True)]:
        mean, top = decision_cost(belief, shuffle, games=1)
        assert mean["metric"] == "first_world_ms_mean" and top["metric"] == "first_world_ms_max"
        assert mean["decisions"] == top["decisions"] >= 30  # 3 bids and 30 cards
        assert 0 < mean["value"] <= top["value"] and mean["shuffle"] == shuffle
        assert mean["belief"] == belief


@pytest.mark.parametrize("belief", ["voids", "gibbs"])
@pytest.mark.parametrize("agent", ["so_ismcts", "mo_ismcts", "pimc", "puct_ismcts"])
def test_agents_no_leak(agent, belief):
    """Two true states with one view and one seed give one action (voids and gibbs)."""
    for name, params in (("tricks", THREE), ("oh_hell", {})):
        game = isz.make_game(name, **params)
        rng = np.random.default_rng(5)
        state = game.new_initial_state()
        for _ in range(60 if name == "oh_hell" else 20):  # into the play phase
            acts = state.legal_actions() or [a for a, _ in state.chance_outcomes()]
            state.apply_action(acts[rng.integers(len(acts))])
        while state.current_player() < 0:
            state.apply_action(state.chance_outcomes()[0][0])
        p = state.current_player()
        view = state.view(p)
        twins = [w for w in VoidsBelief(game).sample_many(view, 16, rng)
                 if not np.array_equal(w, state.data)]
        twin = State(game, twins[0].copy())
        assert twin.view(p).key == view.key
        acts = [isz.make_agent(agent, game, iterations=40, belief=belief).act(
            s.view(p), np.random.default_rng(11)) for s in (state, twin)]
        assert acts[0] == acts[1]
