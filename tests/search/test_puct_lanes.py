"""One decision's simulations in flight together (lanes, virtual loss) and time budgets."""

from __future__ import annotations

import time

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief
from isz.search.evaluator import UniformEvaluator
from isz.search.puct_driver import PUCTBatch, PUCTConfig
from isz.search.tree import CHILD, NONE, SIB
from tests.conftest import random_decision


class CountingEvaluator(UniformEvaluator):
    """Uniform priors, zero values; records the size of every call."""

    def __init__(self, num_players: int):
        super().__init__(num_players)
        self.calls: list[int] = []

    def evaluate(self, tensors, masks):
        self.calls.append(len(tensors))
        return super().evaluate(tensors, masks)


def _batch(game, views, sims, lanes, seed=1, **cfg):
    rng = np.random.default_rng(0)
    worlds = np.stack([UniformBelief(game).sample_many(v, sims, rng) for v in views])
    return PUCTBatch(game, PUCTConfig(**cfg), worlds, [v.player for v in views], seed=seed,
                     lanes=lanes)


def _views(game, n, steps=8):
    rng = np.random.default_rng(3)
    return [s.view(s.current_player()) for s in (random_decision(game, rng, steps)
                                                 for _ in range(n))]


@pytest.mark.parametrize("tree", ["mo", "so"])
@pytest.mark.parametrize("lanes", [1, 4, 16])
def test_lanes_run_every_simulation_once_and_leave_no_virtual_loss(tree, lanes):
    game = isz.make_game("tricks")
    views = _views(game, 3)
    batch = _batch(game, views, 40, lanes, tree=tree)
    ev = CountingEvaluator(game.num_players)
    batch.run(ev, 40)
    assert batch.simulations == 40
    for b in range(3):
        assert sum(n for n, _ in batch.root_stats(b).values()) == 39  # first one expands
    assert not batch.tree.pending[:int(batch.tree.count[0])].any()
    # waves: the root alone, then `lanes` simulations at a time (searcher rows, plus
    # one searcher-view row per opponent leaf)
    waves = 1 + -(-39 // lanes)
    assert len(batch.leaf_batches) == waves
    assert max(batch.leaf_batches) <= 3 * lanes


def _prior_sums(tree) -> list[float]:
    out = []
    for node in range(int(tree.count[0])):
        ch, total, kids = int(tree.nodes[node, CHILD]), 0.0, 0
        while ch != NONE:
            total += tree.prior[ch]
            kids += 1
            ch = int(tree.nodes[ch, SIB])
        if kids:
            out.append(total)
    return out


def test_leaves_reached_twice_in_a_wave_get_their_priors_once():
    """Lanes that stop at the same unexpanded node all back up, one expands it."""
    game = isz.make_game("kuhn_poker")
    s = game.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    worlds = np.tile(s.data, (1, 64, 1))  # one world: lanes collide often
    batch = PUCTBatch(game, PUCTConfig(tree="mo"), worlds, [0], seed=0, lanes=16)
    batch.run(UniformEvaluator(2), 64)
    sums = np.array(_prior_sums(batch.tree))
    decision = sums > 0  # other nodes branch on observations (no priors)
    assert decision.sum() >= 3 and np.allclose(sums[decision], 1.0)
    assert sum(n for n, _ in batch.root_stats(0).values()) == 63


def test_virtual_loss_spreads_a_wave_over_the_root_moves():
    game = isz.make_game("tricks")
    view = _views(game, 1, steps=3)[0]
    n_moves = len(view.legal_actions)
    assert n_moves > 2
    batch = _batch(game, [view], 1 + n_moves, lanes=n_moves)
    batch.run(UniformEvaluator(game.num_players), 1 + n_moves)
    assert {n for n, _ in batch.root_stats(0).values()} == {1}  # one lane per move
    assert len(batch.root_stats(0)) == n_moves


def test_one_lane_is_the_lockstep_search():
    """lanes=1 runs one simulation per step, exactly as B lockstep searches do."""
    game = isz.make_game("leduc_poker")
    views = _views(game, 4, steps=4)
    a = _batch(game, views, 24, lanes=1)
    b = _batch(game, views, 24, lanes=1)
    a.run(UniformEvaluator(2), 24)
    for k in range(24):
        b.step(k, UniformEvaluator(2), 1)
    n = int(a.tree.count[0])
    assert n == int(b.tree.count[0])
    assert np.array_equal(a.tree.nodes[:n], b.tree.nodes[:n])
    assert np.array_equal(a.tree.value[:n], b.tree.value[:n])


def test_planner_time_budget_and_iterations():
    game = isz.make_game("tricks")
    view = _views(game, 1)[0]
    rng = np.random.default_rng(0)
    capped = isz.make_agent("puct_ismcts", game, iterations=50, time_budget=60.0, lanes=8)
    capped.act(view, rng)
    assert capped.last_simulations == 50  # iterations end first
    timed = isz.make_agent("puct_ismcts", game, iterations=None, time_budget=0.2, lanes=8)
    timed.act(view, rng)  # compile
    t = time.perf_counter()
    timed.act(view, rng)
    elapsed = time.perf_counter() - t
    assert timed.last_simulations > 8
    once = isz.make_agent("puct_ismcts", game, iterations=None, time_budget=1e-9, lanes=8)
    once.act(view, rng)
    assert once.last_simulations == 9  # the root's simulation and one full wave at least
    assert 0.2 <= elapsed < 5.0  # stops after the wave that crosses the budget
    assert (timed.last_simulations - 1) % 8 == 0  # whole waves after the root's


def test_time_budget_draws_more_worlds_than_the_first_chunk():
    game = isz.make_game("kuhn_poker")
    s = game.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    agent = isz.make_agent("puct_ismcts", game, iterations=None, time_budget=0.3, lanes=16)
    agent.act(s.view(0), np.random.default_rng(0))  # compile
    agent.act(s.view(0), np.random.default_rng(0))
    assert agent.last_simulations > 256  # kuhn is fast: past the first chunk of worlds


class _CountingBelief(UniformBelief):
    """Uniform worlds, counting how many the search drew."""

    drawn = 0

    def sample_many(self, view, n, rng):
        self.drawn += n
        return super().sample_many(view, n, rng)


@pytest.mark.parametrize("budget", [{"iterations": 40}, {"iterations": None,
                                                         "time_budget": 0.2}])
def test_worlds_caps_the_worlds_a_decision_draws(budget):
    game = isz.make_game("kuhn_poker")
    s = game.new_initial_state()
    s.apply_action(0)
    s.apply_action(1)
    belief = _CountingBelief(game)
    agent = isz.make_agent("puct_ismcts", game, worlds=2, belief=belief, lanes=4, **budget)
    agent.act(s.view(0), np.random.default_rng(0))
    assert belief.drawn == 2
    assert agent.last_simulations > 2 * 8  # the simulations cycle through the two worlds
    free = _CountingBelief(game)
    isz.make_agent("puct_ismcts", game, belief=free, lanes=4, iterations=40).act(
        s.view(0), np.random.default_rng(0))
    assert free.drawn == 40  # without the cap: a world a simulation


@pytest.mark.parametrize("knobs,match", [
    ({"lanes": 0}, "lanes"), ({"lanes": "many"}, "lanes"), ({"worlds": 0}, "worlds"),
    ({"time_budget": -1.0}, "time_budget"), ({"iterations": None}, "iterations"),
])
def test_bad_budget_knobs(knobs, match):
    with pytest.raises(isz.IszError, match=match):
        isz.make_agent("puct_ismcts", isz.make_game("kuhn_poker"), **knobs)


def test_auto_lanes():
    game = isz.make_game("kuhn_poker")
    lanes = {its: isz.make_agent("puct_ismcts", game, iterations=its).lanes
             for its in (4, 8, 32, 128, 1000)}
    assert lanes == {4: 1, 8: 1, 32: 4, 128: 16, 1000: 16}
    assert isz.make_agent("puct_ismcts", game, iterations=None, time_budget=0.1).lanes == 16
