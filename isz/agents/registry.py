"""Name -> agent registry: `make_agent("so_ismcts", game, iterations=1000)`."""

from __future__ import annotations

from collections.abc import Callable

from isz.agents.base import Agent, RandomAgent
from isz.games.base import Game
from isz.settings import Group
from isz.types import IszError

_AGENTS: dict[str, Callable[..., Agent]] = {}
_SETTINGS: dict[str, Group | dict] = {}


def register_agent(name: str, factory: Callable[..., Agent],
                   settings: Group | dict | None = None) -> None:
    """``factory(game, **knobs) -> Agent``; ``settings``: the `Group` declaring the
    knobs it takes (`isz.settings.agents`), or a plain dict of knob names -> defaults
    (the factory then checks the values itself)."""
    _AGENTS[name] = factory
    _SETTINGS[name] = settings if isinstance(settings, Group) else dict(settings or {})


def _check_name(name: str) -> None:
    if name not in _AGENTS:
        raise IszError(f"unknown agent {name!r}; allowed: {', '.join(agent_names())}")


def agent_knobs(name: str) -> dict:
    """The knobs agent ``name`` accepts, with their defaults."""
    _check_name(name)
    s = _SETTINGS[name]
    return s.defaults() if isinstance(s, Group) else dict(s)


def agent_settings(name: str) -> Group | None:
    """The declared settings of agent ``name`` (None: registered with a plain dict)."""
    _check_name(name)
    s = _SETTINGS[name]
    return s if isinstance(s, Group) else None


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def make_agent(name: str, game: Game, **knobs) -> Agent:
    """Build a registered agent for ``game``; unknown names, unknown knobs and bad
    values raise `IszError` (the agent's constructor checks its knobs against its
    declared settings first thing)."""
    _check_name(name)
    return _AGENTS[name](game, **knobs)


def _random(game: Game, **knobs) -> Agent:
    if knobs:
        raise IszError(f"unknown knob(s) {', '.join(sorted(knobs))} for agent 'random'; "
                       "allowed: (none)")
    return RandomAgent(game)


register_agent("random", _random)
