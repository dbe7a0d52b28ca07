"""ReconGame: rules, sensor chance, views and the trajectory resampler."""

import itertools

import numpy as np
import pytest

import isz
from isz.games.base import State
from isz.games.recon import ring_step, sensor_likelihood
from isz.games.testing import check_game
from isz.rng import new_rng
from isz.types import CHANCE, TERMINAL, IllegalActionError, IszError
from tests.conftest import random_history

HOLD, OBSERVE, LEFT, RIGHT = range(4)


@pytest.fixture(scope="module")
def game():
    return isz.make_game("recon")


def play(game, *actions):
    s = game.new_initial_state()
    for a in actions:
        s.apply_action(a)
    return s


def history(game, s):
    """The action/outcome sequence that produced state array ``s``."""
    turns = game.params["turns"]
    h = [] if s[0] < 0 else [int(s[0])]
    for i in range(int(s[4])):
        h.append(int(s[6 + i]))
        if s[6 + turns + i] >= 0:
            h.append(int(s[6 + turns + i]))
    return h


@pytest.mark.parametrize("params, bad", [
    ({"slots": 2}, "2"), ({"slots": "8"}, "'8'"), ({"turns": 0}, "0"), ({"fuel": -1}, "-1"),
    ({"start": 8}, "8"), ({"slots": 5, "start": 5}, "5"), ({"sensor": (0.5, 1.5)}, "1.5"),
    ({"sensor": "0.9"}, "'0.9'"), ({"sensor": (0.9,) * 6}, "0.9"), ({"sensor": (True,)}, "True"),
    ({"radar": 1}, "radar"),
])
def test_bad_parameters_raise(params, bad):
    with pytest.raises(IszError, match=bad):
        isz.make_game("recon", **params)


def test_shapes_and_params(game):
    assert (game.num_players, game.num_actions, game.max_chance_outcomes) == (2, 4, 9)
    assert game.state_size == 26 and game.max_game_length == 1 + 10 + 5
    assert game.tensor_shape == (2 + 8 + 5 + 11 + 40 + 90 + 88,)
    g = isz.make_game("recon", sensor=[0.5, 0.25])
    assert g.params["sensor"] == (0.5, 0.25) and hash(g) == hash(isz.make_game("recon", **g.params))
    assert g.kparams.tolist() == [8, 10, 4, 0, 2, 500_000_000, 250_000_000]


def test_placement_is_uniform_and_hidden_from_recon(game):
    s = game.new_initial_state()
    assert s.current_player() == CHANCE
    assert s.chance_outcomes() == [(x, 1 / 8) for x in range(8)]
    assert game.kernel.observe(s.data, game.kparams, 5, 0) == -1
    assert game.kernel.observe(s.data, game.kparams, 5, 1) == 5
    s.apply_action(5)
    assert s.current_player() == 0 and s.legal_actions() == [HOLD, OBSERVE, LEFT, RIGHT]
    s.apply_action(HOLD)
    assert s.current_player() == 1 and s.legal_actions() == [HOLD, LEFT, RIGHT]


@pytest.mark.parametrize("adv, expected", [
    (0, [(0, 0.05), (1, 0.95)]), (1, [(0, 0.2), (2, 0.8)]), (7, [(0, 0.2), (8, 0.8)]),
    (2, [(0, 0.7), (3, 0.3)]), (3, [(0, 1.0)]), (4, [(0, 1.0)]),
])
def test_sensor_chance_by_distance(game, adv, expected):
    s = play(game, adv, OBSERVE)
    assert s.current_player() == CHANCE
    outs = s.chance_outcomes()
    assert [a for a, _ in outs] == [a for a, _ in expected]
    assert [p for _, p in outs] == pytest.approx([p for _, p in expected])
    assert sum(p for _, p in outs) == pytest.approx(1.0)
    obs = game.kernel.observe
    assert obs(s.data, game.kparams, outs[-1][0], 0) == outs[-1][0]
    assert obs(s.data, game.kparams, outs[-1][0], 1) == -1


def test_certain_sensor_lists_one_outcome():
    g = isz.make_game("recon", sensor=(1.0,))
    assert play(g, 0, OBSERVE).chance_outcomes() == [(1, 1.0)]
    assert play(g, 1, OBSERVE).chance_outcomes() == [(0, 1.0)]


def test_fuel_limits_moves(game):
    s = play(game, 4, LEFT, HOLD, LEFT, HOLD, RIGHT, HOLD, RIGHT)
    assert s.data[2] == 0 and s.data[3] == 0
    s.apply_action(HOLD)
    assert s.legal_actions() == [HOLD, OBSERVE]
    with pytest.raises(IllegalActionError):
        s.apply_action(LEFT)


def test_adversary_moves_are_hidden_from_recon(game):
    s = play(game, 4, HOLD)
    assert game.kernel.observe(s.data, game.kparams, LEFT, 0) == -1
    assert game.kernel.observe(s.data, game.kparams, LEFT, 1) == LEFT
    s.apply_action(LEFT)
    assert s.data[1] == 3
    assert s.view(0).data == (1, 2, 0, HOLD)
    assert s.view(1).data == (4, 2, 0, HOLD, LEFT)


@pytest.mark.parametrize("adv, recon_wins", [(0, True), (1, True), (7, True), (2, False),
                                             (6, False), (4, False)])
def test_returns_by_final_distance(game, adv, recon_wins):
    s = play(game, adv, *[HOLD] * 10)
    assert s.current_player() == TERMINAL
    assert s.returns() == ([1.0, -1.0] if recon_wins else [-1.0, 1.0])


def test_odd_turns_end_after_the_last_sensor_reading():
    g = isz.make_game("recon", turns=3, fuel=0)
    s = play(g, 2, HOLD, HOLD, OBSERVE)
    assert s.current_player() == CHANCE
    s.apply_action(0)
    assert s.current_player() == TERMINAL and s.returns() == [-1.0, 1.0]


def test_views_and_sensor_outcomes(game):
    s = play(game, 1, OBSERVE, 2, RIGHT, RIGHT, HOLD, OBSERVE)
    assert s.view(0).data == (1, 5, 1, OBSERVE, RIGHT, OBSERVE, 2)
    assert s.view(1).data == (1, 5, 1, OBSERVE, RIGHT, RIGHT, HOLD, OBSERVE)
    s.apply_action(0)
    assert s.view(0).data == (1, 5, 0, OBSERVE, RIGHT, OBSERVE, 2, 0)
    assert s.view(1).data == (1, 5, 0, OBSERVE, RIGHT, RIGHT, HOLD, OBSERVE)


@pytest.mark.parametrize("params", [{}, {"slots": 3, "turns": 7, "fuel": 1, "sensor": (1.0, 0)},
                                    {"slots": 9, "turns": 12, "start": 4,
                                     "sensor": (1, 1, 0.5, 0.25, 0.1)}])
def test_state_from_view_and_redeterminize_keep_the_view(params, rng):
    game = isz.make_game("recon", **params)
    out = np.empty(game.state_size, dtype=np.int64)
    for i in range(150):
        s = random_history(game, rng, int(rng.integers(0, game.max_game_length + 1)))
        for p in range(2):
            v = s.view(p)
            built = game.state_from_view(v)
            assert built.view(p).key == v.key
            assert play(game, *history(game, built.data)).view(p).key == v.key  # legal, p > 0
            game.kernel.redeterminize(s.data, game.kparams, p, new_rng(i), out)
            assert State(game, out.copy()).view(p).key == v.key
            play(game, *history(game, out))  # every redrawn history has positive probability


def test_detection_pins_the_adversary(game):
    # adversary starts at 1; recon observes from 0 and detects it there at turn 0
    s = play(game, 1, OBSERVE, 2, LEFT, HOLD, RIGHT, OBSERVE, 0)
    out = np.empty(game.state_size, dtype=np.int64)
    rng = new_rng(1)
    for _ in range(200):
        game.kernel.redeterminize(s.data, game.kparams, 0, rng, out)
        assert out[0] == 1 and out[1] in (7, 0, 1, 2, 3)
        assert sensor_likelihood(game.kparams, 0, out[1], 0) > 0  # "nothing" at turn 4 possible


def test_recon_resampler_is_the_exact_posterior():
    """Forward filter + backward sampling equals brute-force Bayes over trajectories."""
    g = isz.make_game("recon", slots=5, turns=7, sensor=(0.9, 0.5))
    s = play(g, 3, OBSERVE, 0, LEFT, RIGHT, HOLD, OBSERVE, 3, RIGHT, OBSERVE, 0)
    t, turns, kp = int(s.data[4]), 7, g.kparams
    acts, sens = s.data[6:6 + t], s.data[6 + turns:6 + turns + t]
    post = {}
    for start in range(5):
        for moves in itertools.product((HOLD, LEFT, RIGHT), repeat=t // 2):
            x, r, w = start, 0, 1.0
            for i in range(t):
                if i % 2 == 0:
                    w *= sensor_likelihood(kp, sens[i], x, r) if sens[i] >= 0 else 1.0
                    r = ring_step(r, acts[i], 5)
                else:
                    x = ring_step(x, moves[i // 2], 5)
            if w > 0:
                post[(start, moves)] = w
    z = sum(post.values())
    n, counts = 40000, {}
    out = np.empty(g.state_size, dtype=np.int64)
    rng = new_rng(11)
    for _ in range(n):
        g.kernel.redeterminize(s.data, kp, 0, rng, out)
        k = (int(out[0]), tuple(int(a) for a in out[7:6 + t:2]))
        counts[k] = counts.get(k, 0) + 1
    assert set(counts) <= set(post)
    for k, w in post.items():
        p = w / z
        assert abs(counts.get(k, 0) / n - p) < 5 * np.sqrt(p * (1 - p) / n) + 1e-4


def test_adversary_resamples_sensor_outcomes(game):
    s = play(game, 0, OBSERVE, 1, HOLD, OBSERVE, 0)
    out = np.empty(game.state_size, dtype=np.int64)
    rng = new_rng(5)
    hits = np.zeros(2)
    for _ in range(4000):
        game.kernel.redeterminize(s.data, game.kparams, 1, rng, out)
        assert out[16] in (0, 1) and out[18] in (0, 1)
        hits += [out[16] == 1, out[18] == 1]
    assert hits / 4000 == pytest.approx([0.95, 0.95], abs=0.02)


def test_canonical_states(game):
    # recon: lowest final slot, holds first, consistent with every reading
    s = play(game, 6, HOLD, LEFT, OBSERVE, 0, HOLD)
    built = game.state_from_view(s.view(0)).data
    assert (built[0], built[1], built[7], built[9]) == (0, 0, HOLD, HOLD)
    s = play(game, 2, RIGHT, HOLD, OBSERVE, 3, RIGHT)  # detected at 2 from slot 1
    built = game.state_from_view(s.view(0)).data
    assert (built[0], built[1], built[7], built[9]) == (2, 1, HOLD, LEFT)
    # adversary: hidden readings become "nothing" unless a detection is certain
    s = play(game, 0, OBSERVE, 1, HOLD, OBSERVE, 1)
    assert game.state_from_view(s.view(1)).data[[16, 18]].tolist() == [0, 0]
    g = isz.make_game("recon", sensor=(1.0,))
    s = play(g, 0, OBSERVE, 1, HOLD, OBSERVE, 1)
    assert g.state_from_view(s.view(1)).data[[16, 18]].tolist() == [1, 1]


@pytest.mark.parametrize("params", [{}, {"slots": 3, "turns": 7, "fuel": 1, "sensor": (1.0, 0)},
                                    {"slots": 5, "turns": 5, "sensor": ()}])
def test_conformance(params):
    check_game(isz.make_game("recon", **params), histories=40, seed=2)
