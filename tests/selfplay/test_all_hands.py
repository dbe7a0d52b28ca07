"""``selfplay.all_hands``: every information set of the acting seat at a visited public
state is searched and recorded, with its search's value as its value target."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import isz
from isz.games.histories import enumerate_histories
from isz.search.evaluator import UniformEvaluator
from isz.search.puct_driver import PUCTConfig
from isz.selfplay import SelfPlayConfig, play
from isz.selfplay.hands import hand_value, public_states
from isz.selfplay.records import GameRecord
from isz.types import IszError


def _cfg(all_hands: bool, **changes) -> SelfPlayConfig:
    cfg = SelfPlayConfig(parallel_games=4, simulations=12, target="mirror", belief="posterior",
                         temperature_moves=20, all_hands=all_hands,
                         puct=PUCTConfig(opponents="evaluate", root_selection="uniform",
                                         dirichlet_eps=0.0, value_view="actor"))
    return dataclasses.replace(cfg, **changes)


@pytest.mark.parametrize("name, sizes", [("kuhn_poker", {3}), ("leduc_poker", {5, 6})])
def test_public_states_group_every_decision_by_its_public_part(name, sizes):
    game = isz.make_game(name)
    ps = public_states(game)
    table = enumerate_histories(game, 200_000)
    seen = set()
    for row in np.flatnonzero(table.player >= 0):
        state = isz.State(game, table.states[row].copy())
        view = state.view(int(table.player[row]))
        hands = ps.hands(view)
        assert view in hands and len(hands) in sizes
        # poker: a hand differs from another only in the private card (data[0])
        assert len({h.data[0] for h in hands}) == len(hands)
        assert {(h.player, h.data[1:], h.legal_actions) for h in hands} == \
            {(view.player, view.data[1:], view.legal_actions)}
        assert view not in ps.other_hands(view)
        seen.add(view.key)
    assert sum(len(ps.hands(ps._members[g][0])) for g in ps._members) == len(seen)


def _blocks(game, pos):
    """The policy rows cut into consecutive blocks, one per public state visited."""
    ps = public_states(game)
    by_tensor = {h.tensor().tobytes(): h for m in ps._members.values() for h in m}
    views = [by_tensor[t.tobytes()] for t in pos.tensors[pos.policies.sum(axis=1) > 0]]
    blocks, i = [], 0
    while i < len(views):
        n = len(ps.hands(views[i]))
        blocks.append(views[i:i + n])
        i += n
    return blocks, ps


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_every_hand_of_a_visited_public_state_gets_a_position(name):
    game = isz.make_game(name)
    pos, stats = play(game, UniformEvaluator(2), _cfg(True), 6, np.random.default_rng(0))
    blocks, ps = _blocks(game, pos)
    for block in blocks:  # every hand once: the acting seat's every information set
        assert {v.key for v in block} == {h.key for h in ps.hands(block[0])}
    assert stats.positions == sum(len(b) for b in blocks)
    assert stats.other_hands == stats.positions - len(blocks)
    rows = pos.policies.sum(axis=1) > 0
    np.testing.assert_allclose(pos.policies[rows].sum(axis=1), 1.0, rtol=1e-5)


def test_without_all_hands_only_the_hand_held_is_recorded():
    game = isz.make_game("leduc_poker")
    pos, stats = play(game, UniformEvaluator(2), _cfg(False), 6, np.random.default_rng(0))
    assert stats.other_hands == 0 and stats.positions == len(pos)
    ps = public_states(game)
    by_tensor = {h.tensor().tobytes(): h for m in ps._members.values() for h in m}
    views = [by_tensor[t.tobytes()] for t in pos.tensors]
    # a game moves on after each decision: no two consecutive rows share a public state
    assert not any(b in ps.hands(a) for a, b in zip(views, views[1:], strict=False))


def test_other_hands_take_their_search_value_and_the_hand_held_its_return():
    game = isz.make_game("kuhn_poker")
    pos, stats = play(game, UniformEvaluator(2), _cfg(True, value_target_q=0.0), 8,
                      np.random.default_rng(3))
    rows = np.flatnonzero(pos.policies.sum(axis=1) > 0)
    own = pos.returns[rows, pos.players[rows]]
    # zero sum: the other seat's entry is minus the own one on every row
    np.testing.assert_allclose(pos.returns[rows].sum(axis=1), 0.0, atol=1e-6)
    # Kuhn's final returns are +-1 or +-2 chips over 2: searched values are in between
    z_like = np.isin(np.round(np.abs(own) * 2, 6), [1.0, 2.0])
    # each public state's rows: the other hands, then the hand held (the game's z)
    held = np.cumsum([len(b) for b in _blocks(game, pos)[0]]) - 1
    assert np.all(z_like[held]) and len(held) + stats.other_hands == len(rows)
    others = np.setdiff1d(np.arange(len(rows)), held)
    assert z_like[others].mean() < 0.2 and np.all(np.abs(own) <= 1.0)


def test_hand_value_weighs_the_root_q_by_the_recorded_policy():
    stats = {0: (4, 0.75), 1: (4, 0.25), 2: (0, 0.0)}  # scores: q = +0.5, -0.5
    assert hand_value(stats, np.array([0.8, 0.2, 0.0])) == pytest.approx(0.3)
    # a move never visited does not count, whatever its probability
    assert hand_value(stats, np.array([0.4, 0.4, 0.2])) == pytest.approx(0.0)


def test_fixed_values_override_the_final_return_and_any_mix():
    rec = GameRecord()
    mask, pi = np.ones(2, bool), np.array([0.5, 0.5], np.float32)
    rec.add(np.zeros(3), mask, pi, 0, root_value=0.2)
    rec.add(np.zeros(3), mask, pi, 1, value=0.4)  # another hand of seat 1
    rec.add(np.zeros(3), mask, np.zeros(2, np.float32), 1)  # a value-only row
    rec.returns = np.array([1.0, -1.0], np.float32)
    for lam, rows in ((0.0, "decisions"), (0.5, "all")):
        r = rec.positions(lam, rows).returns
        np.testing.assert_allclose(r[1], [-0.4, 0.4])
        np.testing.assert_allclose(r[0], [(1 - lam) * 1 + lam * 0.2, -1.0])
        assert r[2, 0] == 1.0  # the value-only row of seat 1 keeps z at its entry...
    np.testing.assert_allclose(rec.positions(0.5, "all").returns[2], [1.0, -1.0])
    np.testing.assert_array_equal(rec.fixed_rows(), [False, True, False])


def test_all_hands_needs_the_posterior_belief():
    game = isz.make_game("kuhn_poker")
    with pytest.raises(IszError, match="all_hands needs the posterior belief"):
        play(game, UniformEvaluator(2), _cfg(True, belief="uniform"), 1,
             np.random.default_rng(0))


def test_training_config_refuses_all_hands_without_the_posterior_or_with_a_teacher():
    from isz.training.config import TrainConfig, validate

    cfg = TrainConfig()
    cfg.selfplay.all_hands, cfg.selfplay.teacher = True, "none"
    cfg.belief.name = "uniform"
    with pytest.raises(IszError, match="selfplay.all_hands=true needs belief.name=posterior"):
        validate(cfg)
    cfg.belief.name = "posterior"
    validate(cfg)
    cfg.selfplay.teacher = "planner"  # the default recipe's teacher searches one hand
    with pytest.raises(IszError, match="selfplay.all_hands=true needs selfplay.teacher=none"):
        validate(cfg)
