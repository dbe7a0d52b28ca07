"""Self-play searched by a rollout teacher (``selfplay.teacher=so_ismcts``): the
network distils the teacher's visits and root value, and is never asked."""

from __future__ import annotations

import json

import numpy as np
import pytest

import isz
from isz import IszError
from isz.belief import make_belief
from isz.nn.checkpoint import load_checkpoint
from isz.search.driver import Budget, so_search
from isz.search.evaluator import after_move_rows
from isz.selfplay import SelfPlayConfig, play
from isz.selfplay.teacher import TEACHER_C, root_values, teacher_search
from isz.training import loop
from isz.training.config import validate
from isz.types import seed_from
from tests.recipes import alphazero_config
from tests.training.kuhn_mirror import kuhn_mirror_cfg


class _NoNetwork:
    """An evaluator that fails the test if self-play asks it anything."""

    def evaluate(self, tensors, masks):
        raise AssertionError("the teacher's self-play called the network")


def _first_view(game, seed: int):
    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while st.is_chance_node():
        st.apply_action(st.sample_chance(rng))
    return st.view(st.current_player())


@pytest.mark.parametrize("game_name", ["kuhn_poker", "tricks"])
def test_teacher_target_is_the_so_ismcts_root(game_name):
    game = isz.make_game(game_name)
    view = _first_view(game, 3)
    belief = make_belief("uniform", game)
    rng = np.random.default_rng(7)
    pi, q = teacher_search(game, lambda n: belief.sample_many(view, n, rng), view, 300, rng)
    # the same search by hand, from the same generator state
    rng = np.random.default_rng(7)
    tree = so_search(game, lambda n: belief.sample_many(view, n, rng), view.player,
                     Budget(iterations=300), c=TEACHER_C, seed=seed_from(rng))
    stats = tree.stats(0)
    visits = np.zeros(game.num_actions)
    for a, (n, _) in stats.items():
        visits[a] = n
    assert visits.sum() == 300
    np.testing.assert_allclose(pi, visits / 300, rtol=1e-6)
    legal = np.zeros(game.num_actions, bool)
    legal[list(view.legal_actions)] = True
    assert np.all(pi[~legal] == 0) and pi.sum() == pytest.approx(1.0)
    score = sum(n * m for n, m in stats.values()) / 300
    assert q == pytest.approx(2 * score - 1) and -1 <= q <= 1


def _teacher_play(seed: int, iterations: int = 200):
    game = isz.make_game("kuhn_poker")
    cfg = SelfPlayConfig(parallel_games=4, teacher="so_ismcts", teacher_iterations=iterations,
                         value_target_q=1.0)
    return play(game, _NoNetwork(), cfg, 10, np.random.default_rng(seed))


def test_teacher_self_play_never_asks_the_network_and_is_seeded():
    pos, stats = _teacher_play(0)
    again, _ = _teacher_play(0)
    other, _ = _teacher_play(1)
    assert stats.games == 10 and stats.evaluations == 0
    for f in ("tensors", "policies", "returns"):
        np.testing.assert_array_equal(getattr(pos, f), getattr(again, f))
    assert not np.array_equal(pos.returns, other.returns)
    rows = np.flatnonzero(pos.policies.sum(axis=1) > 0)
    np.testing.assert_allclose(pos.policies[rows].sum(axis=1), 1.0, rtol=1e-6)
    assert np.all(pos.policies[~pos.masks] == 0)
    # value_target_q=1: the actor's own entry is the teacher's root value, per decision
    q = pos.returns[rows, pos.players[rows]]
    assert np.all(np.abs(q) <= 1) and len(np.unique(np.round(q, 4))) > 3


def test_more_teacher_iterations_sharpen_kuhn_play():
    """Kuhn, seat 0 holding the King facing a bet: calling always wins; the teacher's
    policy target puts more weight there with more iterations."""
    game = isz.make_game("kuhn_poker")
    belief = make_belief("uniform", game)
    st = game.new_initial_state()
    for a in (2, 0):  # deal: seat 0 King, seat 1 Jack
        st.apply_action(a)
    st.apply_action(0)  # seat 0 checks
    st.apply_action(1)  # seat 1 bets
    view = st.view(0)
    call = 1
    assert game.action_to_string(call, 0) == "bet" and view.data[0] == 2  # holds the King
    def searched(iterations):
        rng = np.random.default_rng(0)
        return teacher_search(game, lambda n: belief.sample_many(view, n, rng), view,
                              iterations, rng)

    low, _ = searched(20)
    high, q = searched(2000)
    assert high[call] > low[call] and high[call] > 0.9 and q > 0.5


@pytest.mark.parametrize("knobs, words", [
    ({"teacher": "expert"}, r"selfplay.teacher.*expert.*none.*so_ismcts"),
    ({"teacher_iterations": 0}, r"selfplay.teacher_iterations"),
    ({"teacher": "so_ismcts", "rollout_iterations": 3},
     r"selfplay.rollout_iterations must be 0.*got .*selfplay.rollout_iterations=3"),
])
def test_bad_teacher_knobs_are_named(knobs, words):
    cfg = alphazero_config()
    for k, v in knobs.items():
        setattr(cfg.selfplay, k, v)
    with pytest.raises(IszError, match=words):
        validate(cfg)


def test_teacher_needs_visit_targets():
    cfg = alphazero_config()
    cfg.selfplay.teacher = "so_ismcts"
    cfg.search.target = "mirror"
    with pytest.raises(IszError, match=r"needs search.target=visits.*mirror"):
        validate(cfg)
    with pytest.raises(ValueError, match="unknown teacher 'x'"):
        play(isz.make_game("kuhn_poker"), _NoNetwork(), SelfPlayConfig(teacher="x"), 1,
             np.random.default_rng(0))


def test_one_training_iteration_with_the_teacher(tmp_path):
    cfg = kuhn_mirror_cfg(tmp_path / "run", iterations=2)
    cfg.search.target = "visits"
    cfg.search.opponents = "prior"
    cfg.selfplay.teacher = "so_ismcts"
    cfg.selfplay.teacher_iterations = 64
    validate(cfg)
    assert loop._selfplay_cfg(cfg).teacher_iterations == 64
    loop.train(cfg)
    ck = load_checkpoint(tmp_path / "run" / "checkpoints" / "last.pt")
    assert ck["counters"]["iteration"] == 2 and ck["counters"]["games"] == 32
    rows = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").open()]
    assert [r["perf/evaluations_per_s"] for r in rows] == [0.0, 0.0]  # no network in play


class _ValueByRow:
    """An evaluator whose values say which row they answer: seat p's value of row x is
    ``cos(x . w) * (-1)**p`` (w: fixed random weights), priors uniform on the legal
    moves."""

    def __init__(self, players: int):
        self.players, self.calls = players, 0

    def evaluate(self, tensors, masks):
        self.calls += 1
        w = np.random.default_rng(0).normal(size=tensors.shape[1])
        v = np.cos(tensors.astype(np.float64) @ w)
        values = np.stack([v * (-1) ** p for p in range(self.players)], axis=1)
        return masks / masks.sum(axis=1, keepdims=True), values.astype(np.float32)


def test_root_values_are_the_networks_values_of_the_views_after_each_move():
    """One evaluator call for the batch; root b's move a scores ``(v + 1) / 2`` for
    its seat, v the value of that seat's view after a in root b's world; nothing to
    value with a single move."""
    game = isz.make_game("tricks")
    views, worlds = [], []
    for seed in (0, 1, 2):
        st = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while st.is_chance_node():
            st.apply_action(st.sample_chance(rng))
        views.append(st.view(st.current_player()))
        worlds.append(st.data.copy())
    ev = _ValueByRow(game.num_players)
    got = root_values(game, ev, views, lambda b: worlds[b])
    assert ev.calls == 1
    for view, world, scores in zip(views, worlds, got, strict=True):
        assert len(view.legal_actions) > 1
        rows = after_move_rows(game, world, view.player, view.legal_actions)
        _, v = ev.evaluate(rows, np.ones((len(rows), game.num_actions), bool))
        want = np.zeros(game.num_actions)
        want[list(view.legal_actions)] = 0.5 * (v[:, view.player] + 1)
        np.testing.assert_allclose(scores, want, rtol=1e-6)
        assert len(np.unique(np.round(scores[list(view.legal_actions)], 6))) > 1
    # a root with one legal move (a view whose legal moves are cut to one) has nothing
    # to value and costs no call
    one = type("V", (), {"legal_actions": views[0].legal_actions[:1],
                         "player": views[0].player})()
    calls = ev.calls
    assert root_values(game, ev, [one], lambda b: worlds[0]) == [None] and ev.calls == calls


def test_the_teachers_root_follows_the_values_it_mixes_in():
    """With the values at its root (``value_mix``), the teacher's visits move toward the
    move the values favour, by more the larger the mix; without a mix they are the
    rollouts' alone."""
    game = isz.make_game("kuhn_poker")
    view = _first_view(game, 3)
    belief = make_belief("uniform", game)
    legal = list(view.legal_actions)
    favoured = legal[0]
    root_value = np.zeros(game.num_actions)
    root_value[favoured] = 1.0  # the values: the first move wins, the others lose

    def searched(mix, value=root_value):
        rng = np.random.default_rng(5)
        return teacher_search(game, lambda n: belief.sample_many(view, n, rng), view, 400,
                              rng, root_value=value, value_mix=mix)

    plain, q0 = searched(0.0)
    unused, q_unused = searched(0.0, None)  # no mix: the values are not read
    np.testing.assert_array_equal(plain, unused)
    assert q0 == q_unused
    half, _ = searched(0.5)
    most, q1 = searched(0.9)
    assert plain[favoured] < half[favoured] < most[favoured] and most[favoured] > 0.9
    # q stays the rollouts' mean over the visits (the values steer, they are not averaged in)
    assert -1 <= q1 <= 1
