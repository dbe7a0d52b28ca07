"""isz: neural-guided Information Set MCTS for hidden-information games."""

# first, before any kernel compiles: lets numba's disk cache hit across runs
from isz import (
    _numba_cache,  # noqa: F401  (installs itself)
    openspiel,  # noqa: F401  (registers the openspiel_* agents; imports no pyspiel)
)
from isz.agents import Agent, agent_knobs, agent_names, load_planner, make_agent
from isz.games import Game, State, View, game_names, make_game, register_game
from isz.types import CHANCE, TERMINAL, IllegalActionError, IszError

__all__ = [
    "CHANCE", "TERMINAL", "Agent", "Game", "IllegalActionError", "IszError", "State", "View",
    "agent_knobs", "agent_names", "game_names", "load_planner", "make_agent", "make_game",
    "register_game",
]
