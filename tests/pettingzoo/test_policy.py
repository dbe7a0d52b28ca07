"""isz agents in a PettingZoo loop through `IszAgentPolicy`: the no-leak property (twin
true states that share the acting seat's view get the same action), and its refusals."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import isz  # noqa: E402
from isz.agents import RandomAgent  # noqa: E402
from isz.belief import UniformBelief  # noqa: E402
from isz.games.base import State  # noqa: E402
from isz.pettingzoo import IszAgentPolicy, env  # noqa: E402

AGENTS = [("random", {}), ("so_ismcts", {"iterations": 40}), ("pimc", {"iterations": 40}),
          ("puct_ismcts", {"iterations": 16})]


def _twin_envs(name: str, seed: int, **game_kwargs):
    """Two environments at the same decision whose true states differ but share the
    acting seat's view: one played from ``seed`` with random moves, the other given a
    world of that seat's belief (installed by hand: only a test may set the true state)."""
    rng = np.random.default_rng(seed)
    e = env(name, **game_kwargs)
    e.reset(seed=seed)
    for _ in range(int(rng.integers(0, 8))):
        mask = e.observe(e.agent_selection)["action_mask"]
        if e.terminations[e.agent_selection]:
            break
        e.step(int(rng.choice(np.flatnonzero(mask))))
    if e.terminations[e.agent_selection]:
        return None
    agent, game = e.agent_selection, e.unwrapped.game
    view = e.unwrapped.view(agent)
    true = e.unwrapped._state.data
    twin = next((w for w in UniformBelief(game).sample_many(view, 32, rng)
                 if not np.array_equal(w, true)), None)
    if twin is None:  # nothing hidden from this seat here
        return None
    t = env(name, **game_kwargs)
    t.reset(seed=seed)
    t.unwrapped._state = State(game, twin.copy())
    t.unwrapped.agent_selection = agent
    assert t.unwrapped.view(agent) == view
    return e, t, agent


def _twins(name: str, pairs: int, **game_kwargs):
    found = [x for s in range(40) if (x := _twin_envs(name, s, **game_kwargs))][:pairs]
    assert len(found) == pairs
    return found


def _same_action(twins, make_agent) -> None:
    for e, t, agent in twins:
        acts = [IszAgentPolicy(make_agent(x.unwrapped.game), x, seed=11)(x.last()[0], agent)
                for x in (e, t)]
        assert acts[0] == acts[1]


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker", "oh_hell", "recon"])
def test_twin_states_that_share_a_view_get_the_same_action(name):
    twins = _twins(name, 4)
    for agent, knobs in AGENTS:
        _same_action(twins, lambda g, a=agent, k=knobs: isz.make_agent(a, g, **k))


@pytest.mark.parametrize("name", ["oh_hell", "recon"])
def test_the_twins_differ_where_a_cheat_looks(name):
    """The check above has teeth: a player given the true state (cheat_uct, which
    IszAgentPolicy refuses) plays differently on some of the same twins."""
    twins = _twins(name, 4)
    cheat = isz.make_agent("cheat_uct", twins[0][0].unwrapped.game, iterations=300)
    acts = [{cheat.act_cheating(x.unwrapped._state, np.random.default_rng(1)) for x in (e, t)}
            for e, t, _ in twins]
    assert any(len(a) == 2 for a in acts)


def test_a_loaded_planner_and_an_outside_game(goofspiel, tmp_path):
    from isz.nn.checkpoint import save_checkpoint
    from isz.nn.model import ModelConfig, build_model

    for game in (isz.make_game("leduc_poker"), isz.make_game("goofspiel", cards=4)):
        path = save_checkpoint(tmp_path / f"{game.name}.pt", model=build_model(
            game, ModelConfig(16, 1)), game=game, model_cfg=ModelConfig(16, 1))
        twins = _twins(game.name, 4, **game.params)
        _same_action(twins, lambda g, p=path: isz.load_planner(str(p), game=g, iterations=16,
                                                               device="cpu"))


class _Counting(RandomAgent):
    resets = 0

    def reset(self) -> None:
        self.resets += 1


def test_the_agent_is_reset_once_a_game():
    e = env("leduc_poker")
    agent = _Counting(e.unwrapped.game)
    policy = IszAgentPolicy(agent, e, seed=0)
    moves = 0
    for game in range(3):
        e.reset(seed=game)
        for name in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            e.step(None if terminated else policy(obs, name))
            moves += not terminated
    assert agent.resets == 3 and moves > 6


def test_refusals():
    e = env("kuhn_poker")
    e.reset(seed=0)
    game = e.unwrapped.game
    with pytest.raises(isz.IszError, match="'cheat_uct' plays from the true state"):
        IszAgentPolicy(isz.make_agent("cheat_uct", game), e)
    with pytest.raises(isz.IszError, match="was made for leduc_poker"):
        IszAgentPolicy(isz.make_agent("random", isz.make_game("leduc_poker")), e)
    with pytest.raises(isz.IszError, match="takes an isz Agent"):
        IszAgentPolicy(lambda view, rng: 0, e)
    with pytest.raises(isz.IszError, match="needs an environment of isz.pettingzoo.env"):
        IszAgentPolicy(isz.make_agent("random", game), object())
    policy = IszAgentPolicy(isz.make_agent("random", game), e)
    mover = e.agent_selection
    other = next(a for a in e.possible_agents if a != mover)
    with pytest.raises(isz.IszError, match=f"'{other}' is not to move; '{mover}' is"):
        policy(e.observe(other), other)
    with pytest.raises(isz.IszError, match=f"not the current one of '{mover}'"):
        policy(e.observe(other), mover)  # another seat's observation
    with pytest.raises(isz.IszError, match="must be the dict env.last"):
        policy(e.observe(mover)["observation"], mover)
    assert policy(e.observe(mover), mover) in (0, 1)
