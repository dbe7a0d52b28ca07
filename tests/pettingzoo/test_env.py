"""Every registered isz game as a PettingZoo AEC environment: PettingZoo's own api_test
and seed_test, and what the environment promises beyond them (observations are the
acting seat's view, rewards the game's returns at the end, chance from the reset seed)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import isz  # noqa: E402
from isz.pettingzoo import env  # noqa: E402

CYCLES = 50  # api_test plays one game to its end (or CYCLES turns per agent): every isz game
# ends well within 50 turns a seat (Oh Hell: 33 decisions in all)
# the bridge's observation is PettingZoo's dict form (as its card games' are); api_test
# warns about that for every environment whose name is not on its own list
DICT_OBS = ("Observation is not a NumPy array", "Observation space for each agent probably")


def _conforms(make) -> None:
    """api_test and seed_test on the environments ``make()`` builds; no warning other
    than the dict-observation ones (a single-seat game's first tensor may be all zeros)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(), num_cycles=CYCLES)
        seed_test(make, num_cycles=CYCLES)
    allowed = (*DICT_OBS, "Observation numpy array is all zeros")
    others = {str(w.message) for w in caught if not str(w.message).startswith(allowed)}
    assert not others


@pytest.mark.parametrize("name", isz.game_names())
def test_pettingzoo_api_and_seed_tests(name):
    _conforms(lambda: env(name))


def test_a_game_written_outside_isz(goofspiel):
    _conforms(lambda: env("goofspiel", cards=3))
    _conforms(lambda: env(isz.make_game("goofspiel", cards=4)))


def _random_game(e, seed: int):
    """Play one game with masked random actions; per agent, every (reward, terminated)
    that last() reported, and the observations checked against the true state."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    raw = e.unwrapped
    seen = {a: [] for a in e.possible_agents}
    for name in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        seen[name].append((reward, terminated))
        assert not truncated
        if terminated:
            e.step(None)
            continue
        state = raw._state  # the test may look at the true state; agents never do
        seat = e.possible_agents.index(name)
        assert state.current_player() == seat
        for other in e.possible_agents:  # each seat's observation is its own view
            o = e.observe(other)
            view = state.view(e.possible_agents.index(other))
            np.testing.assert_array_equal(o["observation"], view.tensor())
            assert np.flatnonzero(o["action_mask"]).tolist() == (
                sorted(state.legal_actions()) if other == name else [])
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen, raw._state


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "oh_hell", "recon",
                                  "coin_guess"])
def test_observations_rewards_and_the_end(name):
    e = env(name)
    for seed in range(3):
        seen, final = _random_game(e, seed)
        assert final.is_terminal()
        returns = final.returns()
        for seat, agent in enumerate(e.possible_agents):
            *before, last = seen[agent]
            assert all(r == 0 and not t for r, t in before)  # nothing before the end
            assert last == (pytest.approx(returns[seat]), True)
        assert e.agents == []


def _first_observations(e, seed: int) -> list[bytes]:
    """Every observation of a game played with masked random actions from ``seed``."""
    e.reset(seed=seed)
    for i, name in enumerate(e.possible_agents):
        e.action_space(name).seed(i)
    out = []
    for name in e.agent_iter():
        obs, _, terminated, _, _ = e.last()
        out.append(obs["observation"].tobytes())
        e.step(None if terminated else e.action_space(name).sample(obs["action_mask"]))
    return out


def test_chance_comes_from_the_reset_seed():
    e = env("leduc_poker")
    runs = [_first_observations(e, s) for s in (7, 7, 8)]
    assert runs[0] == runs[1] and runs[0] != runs[2]
    kuhn = env("kuhn_poker")
    deals = {_first_observations(kuhn, s)[0] for s in range(12)}
    assert len(deals) == 3  # player 0's first view: J, Q or K, each reached from some seed
    # without a seed, a reset continues the generator: a second game is a new deal
    e = kuhn
    e.reset(seed=3)
    firsts = []
    for _ in range(12):
        e.reset()
        firsts.append(e.observe("player_0")["observation"].tobytes())
    assert len(set(firsts)) == 3


def test_render_and_bad_input(capsys):
    e = env("kuhn_poker", render_mode="ansi")
    e.reset(seed=1)
    assert e.render() == str(e.unwrapped._state)
    render_test(lambda render_mode: env("kuhn_poker", render_mode=render_mode))
    human = env("kuhn_poker", render_mode="human")
    capsys.readouterr()
    human.reset(seed=1)
    assert capsys.readouterr().out == str(human.unwrapped._state) + "\n"
    human.step(0)
    assert capsys.readouterr().out == str(human.unwrapped._state) + "\n"
    quiet = env("kuhn_poker")
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None  # no render mode: no text
    with pytest.raises(isz.IszError, match="render_mode 'rgb_array' is not supported"):
        env("kuhn_poker", render_mode="rgb_array")
    with pytest.raises(isz.IszError, match="game parameters cards given with a built game"):
        env(isz.make_game("kuhn_poker"), cards=3)
    with pytest.raises(isz.IszError, match="unknown game 'chess'"):
        env("chess")
    with pytest.raises(isz.IszError, match="unknown agent 'player_2'; agents: player_0, "):
        e.observe("player_2")
    leduc = env("leduc_poker")
    leduc.reset(seed=0)
    mask = leduc.observe(leduc.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])  # fold: nothing to call yet
    with pytest.raises(isz.IllegalActionError, match=f"illegal action {illegal} for player"):
        leduc.step(illegal)
