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
from isz.types import CHANCE, TERMINAL, IszError


class Agent:
    """Base class: subclasses implement `act` (or `act_cheating` if ``cheats``)."""

    name: str = "?"
    cheats: bool = False

    def __init__(self, game: Game):
        self.game = game

    def act(self, view: View, rng: np.random.Generator) -> int:
        raise NotImplementedError

    def check_view(self, view) -> View:
        """``view`` as `act` / ``policy`` need it, else `IszError` saying what is wrong:
        the true `State` (agents see views), a view of another game, or the view of
        a seat that is not to move. Every agent calls it on entry."""
        if isinstance(view, State):
            raise IszError(f"agent {self.name!r} is handed a View, never the true State: "
                           "pass state.view(state.current_player())")
        if not isinstance(view, View):
            raise IszError(f"agent {self.name!r} takes a View (state.view(player)), "
                           f"got {type(view).__name__}")
        if view.game is not self.game and view.game != self.game:
            raise IszError(f"agent {self.name!r} was made for {self.game!r}; it was handed a "
                           f"view of {view.game!r}")
        if view.current_player != view.player:
            who = {CHANCE: "chance", TERMINAL: "nobody (the game is over)"}.get(
                view.current_player, f"player {view.current_player}")
            raise IszError(f"agent {self.name!r} was handed the view of player {view.player}, "
                           f"but {who} is to move; act on the view of the player to move")
        return view

    def act_cheating(self, state: State, rng: np.random.Generator) -> int:
        raise IszError(f"agent {self.name!r} does not cheat; call act(view, rng)")

    def reset(self) -> None:
        """Forget per-game state (called by the arena before every game)."""

    def describe(self) -> str:
        """One line: the agent, its game and (where it has them) its budget and the
        settings that differ from their defaults."""
        return f"{self.name}({self.game!r})"

    def __repr__(self) -> str:
        return self.describe()


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"

    def act(self, view: View, rng: np.random.Generator) -> int:
        self.check_view(view)
        return int(view.legal_actions[rng.integers(len(view.legal_actions))])

    def policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        """Uniform over ``view.legal_actions``: float64[num_actions]."""
        from isz.belief.posterior import uniform_policy

        return uniform_policy(self.check_view(view))
