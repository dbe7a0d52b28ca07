"""An isz game and its OpenSpiel twin: the same play as a history in each.

A `Twin` maps decision actions both ways and rebuilds a history of one game
as a history of the other (chance outcomes included), so a state can cross
over at any decision point. `openspiel_twin(game)` finds the twin of an isz
game; `tests/openspiel/test_twin.py` replays histories in both and checks that
legal actions, chance probabilities, returns and information-state
partitions agree.

OpenSpiel is optional (``pip install 'isz[openspiel]'``): `pyspiel()` imports
it on first use and turns its absence into an `IszError`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import numpy as np

from isz.games.base import Game, State
from isz.types import IszError

INSTALL_HINT = "pip install 'isz[openspiel]' (or: pip install open_spiel)"


def pyspiel():
    """The ``pyspiel`` module, imported lazily; `IszError` when OpenSpiel is absent."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError as e:
        raise IszError(f"OpenSpiel is not installed ({e}); {INSTALL_HINT}") from None


class Twin:
    """Base class: ``game`` (isz) and ``openspiel_game`` (``pyspiel.Game``) play alike.

    Subclasses implement the action maps and the two history rebuilds; seats
    are the same in both games. Returns of the twin are reported on isz's
    scale by `returns`.
    """

    def __init__(self, game: Game, openspiel_game):
        self.game = game
        self.openspiel_game = openspiel_game

    # -- to implement --------------------------------------------------
    def action_to_openspiel(self, action: int) -> int:
        """A player action of isz as OpenSpiel's action id."""
        raise NotImplementedError

    def action_from_openspiel(self, action: int) -> int:
        """An OpenSpiel player action id as isz's action."""
        raise NotImplementedError

    def chance_from_openspiel(self, os_state, outcome: int) -> int:
        """OpenSpiel's chance ``outcome`` at ``os_state`` as isz's outcome id."""
        return int(outcome)

    def history(self, state: State) -> list[int]:
        """OpenSpiel's action history (chance outcomes included) of ``state``'s twin."""
        raise NotImplementedError

    def isz_history(self, os_state) -> list[int]:
        """isz's action history (chance outcomes included) of an OpenSpiel state."""
        raise NotImplementedError

    def returns(self, os_state) -> list[float]:
        """OpenSpiel's terminal returns on isz's scale (``State.returns``)."""
        return (np.asarray(os_state.returns()) / self.game.utility_scale).tolist()

    # -- derived -------------------------------------------------------
    def openspiel_state(self, state: State):
        """The OpenSpiel state with the same history as ``state``."""
        os_state = self.openspiel_game.new_initial_state()
        for a in self.history(state):
            os_state.apply_action(a)
        return os_state

    def isz_state(self, os_state) -> State:
        """The isz state with the same history as the OpenSpiel state ``os_state``."""
        state = self.game.new_initial_state()
        for a in self.isz_history(os_state):
            state.apply_action(a)
        return state

    def __getstate__(self):  # arena workers may pickle agents; reload the game there
        return {"game": self.game, "os": str(self.openspiel_game)}

    def __setstate__(self, d):
        self.__init__(d["game"], pyspiel().load_game(d["os"]))

    def __repr__(self) -> str:
        return f"Twin({self.game!r} ~ {self.openspiel_game})"


_TWINS: list[tuple[Callable[[Game], bool], Callable[[Game], Twin]]] = []


def register_twin(matches: Callable[[Game], bool], make: Callable[[Game], Twin]) -> None:
    """``make(game)`` builds the twin of every isz game for which ``matches(game)``."""
    _TWINS.append((matches, make))


def openspiel_twin(game: Game) -> Twin:
    """The OpenSpiel twin of ``game``: kuhn_poker, leduc_poker, or a tricks game with
    OpenSpiel's oh_hell rules (trump card, bidding, hook, random dealer, 3+ players;
    the ``oh_hell`` preset is ``oh_hell(num_tricks_fixed=10)``).

    Raises `IszError` for other games, or when OpenSpiel is not installed.
    """
    from isz.openspiel import oh_hell_twin, poker_twins  # noqa: F401  (registration)

    for matches, make in _TWINS:
        if matches(game):
            return make(game)
    raise IszError(f"game {game!r} has no OpenSpiel twin; allowed: kuhn_poker, leduc_poker, "
                   "oh_hell (tricks with trump='card', bidding, hook, dealer='chance', "
                   "players >= 3)")
