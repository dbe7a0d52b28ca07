"""``common_worlds``: every root move searched in the same worlds (common random numbers).

The worlds are laid out so that the uniform root's turn-taking gives each move the
same worlds; the gap between two moves' q then loses the world-to-world spread."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import isz
from isz.search.evaluator import UniformEvaluator
from isz.search.puct_driver import PUCTConfig
from isz.selfplay import SelfPlayConfig, play, root_worlds, search_roots

CHECK, BET = 0, 1  # Kuhn: pass, bet


def _cfg(common: bool, sims: int = 10) -> SelfPlayConfig:
    return SelfPlayConfig(simulations=sims, target="mirror", common_worlds=common,
                          puct=PUCTConfig(opponents="evaluate", root_selection="uniform",
                                          dirichlet_eps=0.0))


def _after_check():
    """Kuhn, player 1 holding the queen after player 0 checked (moves: check, bet)."""
    game = isz.make_game("kuhn_poker")
    s = game.new_initial_state()
    for a in (0, 1, CHECK):  # deal J to player 0 and Q to player 1, then the check
        s.apply_action(a)
    return game, s.view(1)


def test_worlds_are_laid_out_one_per_turn_of_the_root_moves():
    game, view = _after_check()
    drawn = np.arange(100)[:, None]  # world i is the row [i]

    def sample(n):
        return drawn[:n]
    common = root_worlds(_cfg(True), view, sample)
    # simulation 0 expands the root; then moves in turn, 2 moves share each world
    assert common[:, 0].tolist() == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5]
    assert root_worlds(_cfg(False), view, sample)[:, 0].tolist() == list(range(10))


def _gaps(common: bool, searches: int = 300, sims: int = 33) -> np.ndarray:
    """q(bet) - q(check) of ``searches`` searches, worlds: player 0 holds J or K."""
    game, view = _after_check()
    cfg = _cfg(common, sims)
    rng = np.random.default_rng(0)
    worlds = []
    for opp in (0, 2):
        s = game.new_initial_state()
        for a in (opp, 1, CHECK):
            s.apply_action(a)
        worlds.append(s.data)
    worlds = np.stack(worlds)
    laid = np.stack([root_worlds(cfg, view, lambda n: worlds[rng.integers(2, size=n)])
                     for _ in range(searches)])
    batch = search_roots(game, UniformEvaluator(2), cfg, [view] * searches, laid, rng)
    stats = [batch.root_stats(b) for b in range(searches)]
    assert all(st[BET][0] == st[CHECK][0] == (sims - 1) // 2 for st in stats)
    return np.array([2 * (st[BET][1] - st[CHECK][1]) for st in stats])


def test_common_worlds_cut_the_noise_of_the_q_gap_and_keep_its_mean():
    free, paired = _gaps(False), _gaps(True)
    # the opponent's card moves both moves' returns the same way: paired worlds remove it
    assert paired.std() < 0.7 * free.std()
    se = np.hypot(free.std(), paired.std()) / np.sqrt(len(free))
    assert abs(paired.mean() - free.mean()) < 4 * se


def test_play_refuses_common_worlds_without_the_uniform_root():
    game = isz.make_game("kuhn_poker")
    cfg = _cfg(True)
    cfg = dataclasses.replace(cfg, puct=dataclasses.replace(cfg.puct, root_selection="puct"))
    with pytest.raises(ValueError, match="common_worlds needs root_selection 'uniform'"):
        play(game, UniformEvaluator(2), cfg, 1, np.random.default_rng(0))


def test_self_play_with_common_worlds_keeps_full_targets():
    game = isz.make_game("kuhn_poker")
    pos, _ = play(game, UniformEvaluator(2), dataclasses.replace(_cfg(True), parallel_games=4),
                  8, np.random.default_rng(0))
    rows = pos.policies.sum(axis=1) > 0
    np.testing.assert_allclose(pos.policies[rows].sum(axis=1), 1.0, rtol=1e-5)
    assert np.all(pos.policies[rows][pos.masks[rows]] > 0)


def test_training_config_refuses_common_worlds_without_the_uniform_root():
    from isz.training.config import validate
    from tests.recipes import alphazero_config

    cfg = alphazero_config()
    cfg.search.common_worlds = True
    with pytest.raises(isz.IszError, match="search.common_worlds=true needs "
                                           "search.root_selection=uniform"):
        validate(cfg)
    cfg.search.root_selection, cfg.search.target = "uniform", "mirror"
    validate(cfg)
