"""`IszAgentPolicy`: an isz agent acting in a PettingZoo loop (imports no PettingZoo).

    policy = IszAgentPolicy(isz.load_planner("last.pt"), env, seed=0)
    for name in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else policy(obs, name)
        env.step(action)

isz agents decide from a `View` (a seat's information state), not from a
tensor: a planner's belief samples hidden worlds from the view's record. The
adapter gets that view from ``env.unwrapped.view(name)`` and nothing else of
the environment. Why that is no leak:

- the view is the acting seat's own information: its private observations, the
  public ones and its legal actions, never another seat's cards or the state;
- the observation the seat was handed *is* that view's tensor and legal mask (the
  adapter checks they are equal, so it only ever acts for the seat whose
  observation it holds, at the moment it holds it);
- for a game that passes `isz.games.testing.check_game`, different views at a
  seat's decision have different tensors, so the view is a function of the
  observation: it adds structure a belief can read, not information.

`tests/pettingzoo/test_policy.py` checks the property itself: environments in
two true states that share the acting seat's view get the same action from
adapters with the same seed.
"""

from __future__ import annotations

import numpy as np

from isz.agents.base import Agent
from isz.games.base import View
from isz.types import IszError


class IszAgentPolicy:
    """``policy(observation, agent_name) -> action``: an isz agent in a PettingZoo loop.

    Args:
        agent: an isz `Agent` of ``env``'s game (a non-cheating one: the adapter
            has only the seat's view to give).
        env: an environment of `isz.pettingzoo.env` (wrapped or not).
        seed: seeds the generator every decision draws from; adapters with the same
            seed make the same decisions on the same views.
    """

    def __init__(self, agent: Agent, env, *, seed: int = 0):
        unwrapped = getattr(env, "unwrapped", env)
        if not callable(getattr(unwrapped, "view", None)) or not hasattr(unwrapped, "game"):
            raise IszError(f"IszAgentPolicy needs an environment of isz.pettingzoo.env, "
                           f"got {type(unwrapped).__name__}")
        if not isinstance(agent, Agent):
            raise IszError(f"IszAgentPolicy takes an isz Agent (isz.make_agent, "
                           f"isz.load_planner), got {type(agent).__name__}")
        if agent.cheats:
            raise IszError(f"agent {agent.name!r} plays from the true state; a PettingZoo "
                           "policy acts from its seat's view only")
        if agent.game != unwrapped.game:
            raise IszError(f"agent {agent.name!r} was made for {agent.game!r}; the "
                           f"environment plays {unwrapped.game!r}")
        self.agent = agent
        self.env = unwrapped
        self.rng = np.random.default_rng(seed)
        self._episode: int | None = None

    def __call__(self, observation: dict, agent: str) -> int:
        """The action of ``agent`` (the agent to move) given its ``observation``."""
        env = self.env
        if agent != env.agent_selection:
            raise IszError(f"{agent!r} is not to move; {env.agent_selection!r} is")
        view = env.view(agent)
        _check_observation(observation, view, agent)
        if env.episode != self._episode:  # a new game: the agent forgets the last one
            self.agent.reset()
            self._episode = env.episode
        return int(self.agent.act(view, self.rng))

    def __repr__(self) -> str:
        return f"IszAgentPolicy({self.agent!r})"


def _check_observation(observation, view: View, agent: str) -> None:
    """`IszError` unless ``observation`` is ``agent``'s current observation (tensor
    and legal mask of ``view``)."""
    if not isinstance(observation, dict) or set(observation) != {"observation", "action_mask"}:
        raise IszError(f"the observation of {agent!r} must be the dict env.last() returns "
                       "(keys 'observation' and 'action_mask')")
    legal = np.flatnonzero(np.asarray(observation["action_mask"])).tolist()
    if legal != sorted(view.legal_actions) or not np.array_equal(
            np.asarray(observation["observation"]), view.tensor()):
        raise IszError(f"the observation given is not the current one of {agent!r}: pass the "
                       "observation env.last() returned for it")
