"""Name -> agent registry: `make_agent("so_ismcts", game, iterations=1000)`."""

from __future__ import annotations

from collections.abc import Callable

from isz.agents.base import Agent, RandomAgent
from isz.games.base import Game
from isz.types import IszError

_AGENTS: dict[str, Callable[..., Agent]] = {}
_KNOBS: dict[str, dict] = {}


def register_agent(name: str, factory: Callable[..., Agent], knobs: dict | None = None) -> None:
    """``factory(game, **knobs) -> Agent``; ``knobs``: accepted knob names -> defaults."""
    _AGENTS[name] = factory
    _KNOBS[name] = dict(knobs or {})


def agent_knobs(name: str) -> dict:
    """The knobs agent ``name`` accepts, with their defaults."""
    if name not in _AGENTS:
        raise IszError(f"unknown agent {name!r}; allowed: {', '.join(agent_names())}")
    return dict(_KNOBS[name])


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def make_agent(name: str, game: Game, **knobs) -> Agent:
    """Build a registered agent for ``game``; unknown names or knobs raise `IszError`."""
    if name not in _AGENTS:
        raise IszError(f"unknown agent {name!r}; allowed: {', '.join(agent_names())}")
    return _AGENTS[name](game, **knobs)


def _random(game: Game, **knobs) -> Agent:
    if knobs:
        raise IszError(f"unknown knob(s) {', '.join(sorted(knobs))} for agent 'random'; "
                       "allowed: (none)")
    return RandomAgent(game)


register_agent("random", _random)
