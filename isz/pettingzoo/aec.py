"""`IszAECEnv`: an isz game as a PettingZoo AEC environment (imports PettingZoo).

Build it through `isz.pettingzoo.env` (or ``raw_env``), which turns a missing
PettingZoo into an `IszError`. Layout of observations, rewards and chance: the
package docstring of `isz.pettingzoo`.

The environment holds the true `State`. What leaves it for an agent is only
that agent's own information: `observe(name)` (its view's tensor and legal-action
mask) and `view(name)` (its `View`, the record that tensor is computed from).
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from isz.games.base import Game, State, View
from isz.games.registry import make_game
from isz.types import IszError

RENDER_MODES = ("human", "ansi")
OBS_LOW, OBS_HIGH = 0.0, 1.0  # isz tensors are one-hot / indicator features


def _as_game(game, game_kwargs: dict) -> Game:
    if isinstance(game, Game):
        if game_kwargs:
            raise IszError(f"game parameters {', '.join(sorted(game_kwargs))} given with a "
                           f"built game {game!r}; pass a game name, or the game alone")
        return game
    if isinstance(game, str):
        return make_game(game, **game_kwargs)
    raise IszError(f"game must be a registered game name or an isz.Game, got {game!r}")


class IszAECEnv(AECEnv):
    """One isz game as an AEC environment; agents ``player_0 .. player_{n-1}``.

    Attributes:
        game: the isz game.
        episode: resets so far (an agent adapter resets its agent when it changes).
        possible_agents, agents, rewards, terminations, truncations, infos,
        agent_selection: PettingZoo's AEC attributes; ``agent_selection`` is the
            seat to move (chance never is: it is played inside `reset`/`step`).
    """

    def __init__(self, game, render_mode: str | None = None, **game_kwargs):
        super().__init__()
        self.game = _as_game(game, game_kwargs)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise IszError(f"render_mode {render_mode!r} is not supported; allowed: None, "
                           + ", ".join(repr(m) for m in RENDER_MODES))
        self.render_mode = render_mode
        self.metadata = {"name": f"isz_{self.game.name}", "render_modes": list(RENDER_MODES),
                         "is_parallelizable": False}
        g = self.game
        self.possible_agents = [f"player_{i}" for i in range(g.num_players)]
        self.agents = list(self.possible_agents)
        # one space object per agent, the same at every call: PettingZoo seeds them per agent
        self.observation_spaces = {a: _observation_space(g) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(g.num_actions) for a in self.possible_agents}
        self.episode = 0
        self._rng: np.random.Generator | None = None
        self._state: State | None = None

    # -- spaces --------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        self._seat(agent)  # an unknown name: IszError
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        self._seat(agent)
        return self.action_spaces[agent]

    # -- the AEC loop --------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; chance is drawn from a generator seeded by ``seed`` (kept
        running across resets without one, as gymnasium does)."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self.episode += 1
        self._state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._advance()
        if self.render_mode == "human":
            self.render()

    def step(self, action) -> None:
        """Apply ``agent_selection``'s action (an `IllegalActionError` if it is not
        legal), then any chance that follows; at the end every agent gets its return."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._state.apply_action(action)
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Play chance to the next decision or the end; select who acts next."""
        state = self._state
        while state.is_chance_node():
            state.apply_action(state.sample_chance(self._rng))
        if state.is_terminal():
            for a, r in zip(self.possible_agents, state.returns(), strict=True):
                self.rewards[a] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.current_player()]

    # -- what an agent may see -----------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its view's tensor and its legal-action mask."""
        return self._observation(self.view(agent))

    def view(self, agent: str) -> View:
        """``agent``'s own `View` (what that seat has observed: never another seat's
        private information, never the hidden state). Its tensor is the observation's;
        for a game that passes `isz.games.testing.check_game`, distinct views at a
        seat's decision have distinct tensors, so the view tells the seat nothing its
        observation does not. `IszAgentPolicy` hands it to isz agents."""
        if self._state is None:
            raise IszError("the environment has no game yet: call reset() first")
        return self._state.view(self._seat(agent))

    def _observation(self, view: View) -> dict[str, np.ndarray]:
        tensor = np.array(view.tensor(), dtype=np.float32)  # a copy the caller may write
        if tensor.size and (tensor.min() < OBS_LOW or tensor.max() > OBS_HIGH):
            raise IszError(f"{self.game!r}: an information-state tensor value is outside "
                           f"[{OBS_LOW}, {OBS_HIGH}] (min {tensor.min()}, max {tensor.max()}); "
                           "the PettingZoo bridge declares observations in [0, 1]")
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        mask[list(view.legal_actions)] = 1
        return {"observation": tensor, "action_mask": mask}

    def _seat(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise IszError(f"unknown agent {agent!r}; agents: "
                           f"{', '.join(self.possible_agents)}") from None

    # -- for people ----------------------------------------------------
    def render(self) -> str | None:
        """The true state as text, for a spectator (no agent is handed it): returned
        with ``render_mode="ansi"``, printed with ``"human"`` (after every reset and
        step too); None without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; "
                                  f"allowed: {', '.join(RENDER_MODES)}")
            return None
        text = "(no game yet)" if self._state is None else str(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _observation_space(game: Game) -> spaces.Dict:
    """``{"observation": float32 tensor_shape in [0, 1], "action_mask": int8[num_actions]}``."""
    return spaces.Dict({
        "observation": spaces.Box(OBS_LOW, OBS_HIGH, game.tensor_shape, np.float32),
        "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
    })
