"""Name -> belief registry: `make_belief("uniform", game)`."""

from __future__ import annotations

from collections.abc import Callable

from isz.belief.base import Belief
from isz.belief.uniform import UniformBelief
from isz.games.base import Game
from isz.types import IszError

_BELIEFS: dict[str, Callable[..., Belief]] = {"uniform": UniformBelief}


def register_belief(name: str, factory: Callable[..., Belief]) -> None:
    """``factory(game, **knobs) -> Belief``; it validates its own knobs."""
    _BELIEFS[name] = factory


def belief_names() -> list[str]:
    return sorted(_BELIEFS)


def make_belief(name: str, game: Game, **knobs) -> Belief:
    """Build a registered belief for ``game``; unknown names raise `IszError`."""
    if name not in _BELIEFS:
        raise IszError(f"unknown belief {name!r}; allowed: {', '.join(belief_names())}")
    if name == "uniform" and knobs:
        raise IszError(f"unknown knob(s) {', '.join(sorted(knobs))} for belief 'uniform'; "
                       "allowed: (none)")
    return _BELIEFS[name](game, **knobs)
