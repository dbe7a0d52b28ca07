"""Name -> game registry with presets: `make_game("oh_hell")`."""

from __future__ import annotations

from typing import Any

from isz.games.base import Game
from isz.types import IszError

_GAMES: dict[str, type[Game]] = {}
_PRESETS: dict[str, tuple[str, dict[str, Any]]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make ``cls`` available as `make_game(cls.name)`."""
    _GAMES[cls.name] = cls
    return cls


def register_preset(name: str, game: str, **params) -> None:
    """A named parameter set of a registered game (e.g. ``oh_hell`` of ``tricks``)."""
    _PRESETS[name] = (game, params)


def game_names() -> list[str]:
    """Every name `make_game` accepts: games and presets."""
    return sorted([*_GAMES, *_PRESETS])


def make_game(name: str, **params) -> Game:
    """Build a registered game or preset; ``params`` override the defaults."""
    if name in _PRESETS:
        base, preset = _PRESETS[name]
        game = _GAMES[base](**{**preset, **params})
        game.preset = name
        return game
    if name not in _GAMES:
        raise IszError(f"unknown game {name!r}; allowed: {', '.join(game_names())}")
    return _GAMES[name](**params)
