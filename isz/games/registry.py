"""Name -> game registry with presets: `make_game("oh_hell")`.

Games written outside the package register themselves with `register_game`
when their module is imported; `import_game_module` imports such a module by
its dotted name (what ``game.module=...`` of the scripts and `isz.load_planner`
use).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import re
import sys
from typing import Any

from isz.games.base import Game
from isz.types import IszError

_GAMES: dict[str, type[Game]] = {}
_PRESETS: dict[str, tuple[str, dict[str, Any]]] = {}
_MODULE_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


def _same_definition(a: type, b: type) -> bool:
    """One class definition seen twice (a module re-imported or reloaded)."""
    return (a.__module__, a.__qualname__) == (b.__module__, b.__qualname__)


def register_game(cls: type[Game] | None = None, *, replace: bool = False):
    """Class decorator: make ``cls`` available as `make_game(cls.name)`.

    ``@register_game`` or ``@register_game(replace=True)``. A name already taken
    (by a game or a preset) raises `IszError` unless ``replace=True``; the same
    class registered again (its module imported twice) is accepted.
    """
    def add(c: type[Game]) -> type[Game]:
        if not (isinstance(c, type) and issubclass(c, Game)):
            raise IszError(f"register_game takes a subclass of isz.Game, got {c!r}")
        name = c.__dict__.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"\w+", name):
            raise IszError(f"{c.__qualname__}.name must be a word of letters, digits and "
                           f"underscores (the name make_game takes), got {name!r}")
        old = _GAMES.get(name)
        taken = name in _PRESETS or (old is not None and not _same_definition(old, c))
        if taken and not replace:
            by = f"preset of {_PRESETS[name][0]!r}" if name in _PRESETS else \
                f"{old.__module__}.{old.__qualname__}"
            raise IszError(f"game name {name!r} is already registered ({by}); pick another "
                           "name or pass replace=True")
        _PRESETS.pop(name, None)
        _GAMES[name] = c
        return c

    return add if cls is None else add(cls)


register = register_game  # the package's own games use the short name


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
        raise IszError(f"unknown game {name!r}; allowed: {', '.join(game_names())} "
                       "(a game defined outside isz: import its module first; in the "
                       "scripts game_module=package.module, in train.py "
                       "game.module=package.module)")
    game = _GAMES[name](**params)
    # a checkpoint records the base game and its full parameters: a game built from a
    # preset's exact parameters is that preset (tables then say "oh_hell", not "tricks")
    for preset_name, (base, preset) in _PRESETS.items():
        if base == name and _GAMES[base](**preset).params == game.params:
            game.preset = preset_name
            break
    return game


def game_module(game: Game) -> str | None:
    """The module that defines ``game``'s class when it is not part of isz, else None."""
    module = type(game).__module__
    return None if module == "isz" or module.startswith("isz.") else module


def import_game_module(module: str) -> None:
    """Import ``module`` (a dotted name such as ``examples.goofspiel``) so that the
    games it defines register themselves.

    Only a module the running environment can import (installed, under a folder
    on ``sys.path``, or as with ``python -m`` under the launch directory): a dotted
    name, never a file path. `IszError` when the name is malformed or the import
    fails for a missing module.
    """
    if not isinstance(module, str) or not _MODULE_NAME.fullmatch(module):
        raise IszError(f"game module must be a dotted module name such as "
                       f"'examples.goofspiel', got {module!r}")
    if module == "__main__":
        raise IszError("the game was defined in a script run as __main__, which another "
                       "process cannot import: move it into an importable module")
    try:
        _import_top_from_launch_dir(module.partition(".")[0])
        importlib.import_module(module)
    except ImportError as e:
        raise IszError(f"cannot import game module {module!r}: {e} (it must be importable "
                       "from this environment: installed, under a folder on sys.path, or "
                       "under the launch directory)") from e


def _import_top_from_launch_dir(top: str) -> None:
    """Import top-level package ``top`` from the launch directory when ``sys.path`` has
    none of that name, as ``python -m`` would (a console command's ``sys.path`` lacks the
    launch directory); its submodules then import normally through its ``__path__``.
    ``sys.path`` itself is left as it is."""
    if top in sys.modules or importlib.util.find_spec(top) is not None:
        return
    spec = importlib.machinery.PathFinder.find_spec(top, [os.getcwd()])
    if spec is None:
        return  # import_module reports the missing module
    package = importlib.util.module_from_spec(spec)
    sys.modules[top] = package
    try:
        if spec.loader is not None:
            spec.loader.exec_module(package)
    except BaseException:
        del sys.modules[top]
        raise
