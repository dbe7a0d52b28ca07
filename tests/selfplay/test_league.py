"""The self-play league's rollout member (`isz.selfplay.league`): drawn per game from the
seed, played and never learned from, searching without the network, and blind to the
hidden cards like every other seat."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.belief import VoidsBelief
from isz.nn import ModelConfig, build_model
from isz.search.evaluator import make_search_belief
from isz.selfplay import SelfPlayConfig, play
from isz.selfplay.league import NO_SEAT, league_seat
from isz.selfplay.selfplay import SelfPlayStats, _Slot, _teach_all
from tests.belief.tricks_reference import after_decisions


def test_no_league_draws_nothing_and_a_share_is_a_share():
    rng = np.random.default_rng(0)
    before = rng.bit_generator.state
    assert all(league_seat(0.0, 3, rng) == NO_SEAT for _ in range(50))
    assert rng.bit_generator.state == before  # a run without a league is the run before it
    seats = np.array([league_seat(1.0, 3, rng) for _ in range(3000)])
    counts = np.bincount(seats, minlength=3)
    assert np.all(np.abs(counts - 1000) < 5 * np.sqrt(3000 * (1 / 3) * (2 / 3)))
    half = np.array([league_seat(0.4, 2, rng) for _ in range(4000)])
    share = np.mean(half != NO_SEAT)
    assert abs(share - 0.4) < 5 * np.sqrt(0.4 * 0.6 / 4000)


def _kuhn(league: float, seed: int, games: int = 1):
    game = isz.make_game("kuhn_poker")
    torch.manual_seed(0)
    ev = NetworkEvaluator(build_model(game, ModelConfig(width=8, depth=1)), "cpu")
    cfg = SelfPlayConfig(parallel_games=4, teacher="planner", teacher_iterations=64,
                         league=league)
    return play(game, ev, cfg, games, np.random.default_rng(seed))


@pytest.mark.parametrize("seed", range(6))
def test_the_member_plays_and_is_not_learned_from(seed):
    """Both Kuhn seats move in every game: in self-play both seats' decisions are
    recorded; with a member in every game, one seat's alone."""
    pos, stats = _kuhn(0.0, seed)
    assert set(pos.players[pos.policies.sum(axis=1) > 0]) == {0, 1}
    pos, stats = _kuhn(1.0, seed)
    learned = set(pos.players[pos.policies.sum(axis=1) > 0])
    assert stats.games == 1 and len(learned) == 1


def test_a_league_run_is_seeded_and_mixes_games():
    a, sa = _kuhn(0.5, 7, games=24)
    b, _ = _kuhn(0.5, 7, games=24)
    for f in ("tensors", "policies", "returns", "players"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    alone, s0 = _kuhn(0.0, 7, games=24)
    assert sa.games == s0.games == 24
    assert sa.positions < s0.positions  # the member's decisions are not positions


def test_twin_states_give_the_member_the_same_move():
    """The member's worlds come from its own view (the game's belief without a policy),
    so two true states that share its view give the same move, and nothing is recorded
    for it."""
    game = isz.make_game("tricks")
    torch.manual_seed(0)
    ev = NetworkEvaluator(build_model(game, ModelConfig(width=16, depth=1)), "cpu")
    cfg = SelfPlayConfig(parallel_games=2, teacher="planner", teacher_iterations=200,
                         belief="auto", league=1.0)
    checked = 0
    for seed, steps in [(0, 2), (1, 3), (2, 4), (3, 3)]:
        state = after_decisions(game, steps, np.random.default_rng(seed))
        p = state.current_player()
        twin = VoidsBelief(game).sample(state.view(p), np.random.default_rng(seed))
        if np.array_equal(twin.data, state.data):
            continue
        after = []
        for s in (state, twin):
            slot = _Slot(game, [make_search_belief("auto", game, ev) for _ in range(2)],
                         make_search_belief("auto", game, None), member=p)
            slot.state = s.clone()
            _teach_all(game, cfg, [slot], np.random.default_rng(seed), ev, SelfPlayStats())
            assert p not in slot.record.players
            after.append(slot.state.view(p).key)
        assert after[0] == after[1]
        checked += 1
    assert checked >= 3


def test_a_league_needs_a_teacher():
    from isz.training.config import TrainConfig, validate

    cfg = TrainConfig()
    cfg.selfplay.league, cfg.selfplay.teacher = 0.5, "none"
    with pytest.raises(isz.IszError, match="selfplay.league > 0 needs a selfplay.teacher"):
        validate(cfg)
    with pytest.raises(isz.IszError, match="league needs"):
        play(isz.make_game("kuhn_poker"), None, SelfPlayConfig(league=0.5), 1,
             np.random.default_rng(0))


def test_a_game_over_before_the_learner_moves_adds_no_rows(love_letter):
    """In Love Letter the first move can end the round (a Guard's right guess): with the
    member in that seat the learner never moved, and the game adds no positions. A chunk
    of such games, or of none, still plays through."""
    from isz.selfplay.selfplay import _finish

    game = isz.make_game("love_letter")
    rng = np.random.default_rng(0)
    slot = _Slot(game, [make_search_belief("auto", game, None) for _ in range(2)])
    while not slot.state.is_terminal():  # random play, nothing recorded
        s = slot.state
        s.apply_action(s.sample_chance(rng) if s.is_chance_node()
                       else int(rng.choice(s.legal_actions())))
    records, finals, stats = [], [], SelfPlayStats()
    _finish(SelfPlayConfig(), slot, records, finals, stats)
    assert stats.games == 1 and records == [] and finals == []
    torch.manual_seed(0)
    ev = NetworkEvaluator(build_model(game, ModelConfig(width=8, depth=1)), "cpu")
    cfg = SelfPlayConfig(parallel_games=8, teacher="planner", teacher_iterations=32,
                         league=1.0)
    pos, stats = play(game, ev, cfg, 40, np.random.default_rng(1))
    assert stats.games == 40 and len(pos) == len(stats.final_returns) > 0
    assert set(pos.players) <= {0, 1}
