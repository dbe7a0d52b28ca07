"""The agent contract: a decision is a function of a view and a generator.

``agent.act(view, rng) -> action`` receives only `View` (what the seat has
observed) and a `numpy.random.Generator`; the same view and the same generator
state give the same action. The one exception is a cheating baseline
(``cheats = True``), which the arena calls through ``act_cheating(state, rng)``
with the true `State`, to measure what hidden information is worth.
"""

from __future__ import annotations

import numpy as np

from isz.games.base import Game, State, View


class Agent:
    """Base class: subclasses implement `act` (or `act_cheating` if ``cheats``)."""

    name: str = "?"
    cheats: bool = False

    def __init__(self, game: Game):
        self.game = game

    def act(self, view: View, rng: np.random.Generator) -> int:
        raise NotImplementedError

    def act_cheating(self, state: State, rng: np.random.Generator) -> int:
        raise TypeError(f"agent {self.name!r} does not cheat; call act(view, rng)")

    def reset(self) -> None:
        """Forget per-game state (called by the arena before every game)."""

    def __repr__(self) -> str:
        return f"{self.name}({self.game!r})"


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"

    def act(self, view: View, rng: np.random.Generator) -> int:
        return int(view.legal_actions[rng.integers(len(view.legal_actions))])

    def policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        """Uniform over ``view.legal_actions``: float64[num_actions]."""
        from isz.belief.posterior import uniform_policy

        return uniform_policy(view)
