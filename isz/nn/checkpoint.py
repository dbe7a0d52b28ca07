"""Checkpoints: atomic save, safe load (``weights_only=True``), clear refusals.

A checkpoint is one ``torch.save`` of a plain dict::

    {"format": "isz-checkpoint", "version": 1,
     "game": game.spec, "game_module": module of a game defined outside isz, or None,
     "model_config": {"width", "depth"},
     "net": {"input_size", "num_actions", "num_players"},
     "model": state_dict, "optimizer": state_dict or None,
     "counters": {str: int}, "extra": JSON-able values and tensors}

A training run's ``extra["planner"]`` records its planner: ``{"agent": name, **its
settings}`` (`planner_record`; `isz.load_planner` builds that agent).

Everything is a tensor or a primitive container, so ``torch.load`` never has
to unpickle code (``weights_only=True``). Saving writes a temporary file in the
target directory and ``os.replace``s it: a reader never sees half a file.
"""

from __future__ import annotations

import os
from pathlib import Path

import torch

from isz.fs import write_atomic
from isz.games.base import Game
from isz.games.registry import game_module, game_names, import_game_module, make_game
from isz.nn.model import ModelConfig, PolicyValueNet, build_model
from isz.types import IszError

FORMAT = "isz-checkpoint"
VERSION = 1
KNOWN_VERSIONS = (1,)
_KEYS = ("game", "model_config", "net", "model", "optimizer", "counters", "extra")


def _check_plain(what: str, value, path: str = "") -> None:
    """Raise unless ``value`` survives a ``weights_only`` load (primitives, tensors)."""
    if value is None or isinstance(value, (bool, int, float, str, torch.Tensor)):
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_plain(what, v, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, (str, int)):
                raise IszError(f"{what}{path}: key {k!r} must be a str or int")
            _check_plain(what, v, f"{path}[{k!r}]")
        return
    raise IszError(f"{what}{path} is a {type(value).__name__}; a checkpoint stores only "
                   "None, bool, int, float, str, tensors, lists, tuples and dicts")


def save_checkpoint(path: str | os.PathLike, *, model: PolicyValueNet, game: Game,
                    model_cfg: ModelConfig | dict,
                    optimizer: torch.optim.Optimizer | None = None,
                    counters: dict | None = None, extra: dict | None = None) -> Path:
    """Write a checkpoint of ``model`` (and optimizer, counters, extra) to ``path`` atomically.

    ``counters`` maps names to ints (steps, games, ...); ``extra`` holds anything
    else that is JSON-able or a tensor. Returns the path written.
    """
    path = Path(path)
    cfg = model_cfg.to_dict() if isinstance(model_cfg, ModelConfig) else dict(model_cfg)
    counters = dict(counters or {})
    for k, v in counters.items():
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int):
            raise IszError(f"counter {k!r}={v!r}: counters map str names to int values")
    extra = dict(extra or {})
    _check_plain("extra", extra)
    _check_plain("game spec", game.spec)
    ckpt = {
        "format": FORMAT, "version": VERSION, "game": game.spec,
        "game_module": game_module(game), "model_config": cfg,
        "net": {"input_size": model.input_size, "num_actions": model.num_actions,
                "num_players": model.num_players},
        "model": model.state_dict(),
        "optimizer": None if optimizer is None else optimizer.state_dict(),
        "counters": counters, "extra": extra,
    }
    return write_atomic(path, lambda f: torch.save(ckpt, f), binary=True)


def load_checkpoint(path: str | os.PathLike, game: Game | None = None,
                    map_location: str | torch.device = "cpu") -> dict:
    """Read and check a checkpoint written by `save_checkpoint`; returns its dict.

    Raises `IszError` (naming ``path``) if the file is missing, truncated or
    corrupted, not an isz checkpoint, of an unknown format version, or — when
    ``game`` is given — made for another game.
    """
    path = Path(path)
    if not path.is_file():
        raise IszError(f"checkpoint {str(path)!r} not found")
    try:
        ckpt = torch.load(path, map_location=map_location, weights_only=True)
    except Exception as e:  # torch raises RuntimeError, UnpicklingError, EOFError, ...
        raise IszError(f"cannot read checkpoint {str(path)!r}: the file is truncated, "
                       f"corrupted or not a torch file ({_reason(e)})") from e
    if not isinstance(ckpt, dict) or ckpt.get("format") != FORMAT:
        raise IszError(f"{str(path)!r} is not an isz checkpoint (no {FORMAT!r} marker)")
    missing = [k for k in _KEYS if k not in ckpt]
    version = ckpt.get("version")
    if version not in KNOWN_VERSIONS:
        raise IszError(f"checkpoint {str(path)!r} has format version {version!r}; this isz "
                       f"reads version(s) {', '.join(map(str, KNOWN_VERSIONS))}")
    if missing:
        raise IszError(f"checkpoint {str(path)!r} lacks {', '.join(missing)}: not a complete "
                       "isz checkpoint")
    if game is not None and ckpt["game"] != game.spec:
        raise IszError(f"checkpoint {str(path)!r} was made for game {ckpt['game']!r}, "
                       f"not for {game.spec!r}")
    return ckpt


def checkpoint_game(ckpt: dict) -> Game:
    """The game a checkpoint (as `load_checkpoint` returns it) was made for.

    A game defined outside isz is registered by importing the module the
    checkpoint recorded (``game_module``), when its name is not registered yet.
    That module must be importable in this environment (installed, or under a
    folder on ``sys.path``); a checkpoint names a module, never a file to run.
    """
    spec, module = ckpt["game"], ckpt.get("game_module")
    if spec["name"] not in game_names() and module:
        import_game_module(module)
    return make_game(spec["name"], **spec["params"])


def planner_record(ckpt: dict) -> dict:
    """The planner a checkpoint (as `load_checkpoint` returns it) records: ``{"agent":
    name, **settings}``; {} if none (older records may lack ``agent``)."""
    record = (ckpt.get("extra") or {}).get("planner") or {}
    if not isinstance(record, dict):
        raise IszError(f"the checkpoint's planner record is a {type(record).__name__}, "
                       "not a map of settings")
    return dict(record)


def update_extra(path: str | os.PathLike, **extra) -> Path:
    """Rewrite checkpoint ``path`` (atomically) with ``extra`` merged into its extra
    (e.g. a new ``planner`` record); everything else is kept as it is."""
    ckpt = load_checkpoint(path)
    merged = {**(ckpt.get("extra") or {}), **extra}
    _check_plain("extra", merged)
    ckpt["extra"] = merged
    return write_atomic(Path(path), lambda f: torch.save(ckpt, f), binary=True)


def _reason(e: BaseException) -> str:
    """``Type: first sentence`` of a loader's error: torch's run on for lines of advice."""
    text = " ".join(str(e).split())
    sentence = text.split(". ")[0].rstrip(".")
    return f"{type(e).__name__}: {sentence}" if sentence else type(e).__name__


def load_model(path: str | os.PathLike, game: Game | None = None,
               map_location: str | torch.device = "cpu") -> tuple[PolicyValueNet, dict]:
    """Build the network a checkpoint describes and load its weights.

    Returns ``(model, info)`` where ``info`` is the checkpoint dict without the
    model weights (game spec, model config, optimizer state, counters, extra).
    The model is in eval mode on ``map_location``.
    """
    ckpt = load_checkpoint(path, game, map_location)
    cfg = ModelConfig.from_dict(ckpt["model_config"])
    net = ckpt.get("net") or {}
    if game is not None and net.get("input_size") not in (None, game.tensor_size):
        raise IszError(f"checkpoint {str(path)!r} takes tensors of size {net['input_size']}, "
                       f"but {game!r} now makes tensors of size {game.tensor_size}: it was "
                       "trained on an older tensor layout of this game; train it again")
    if game is not None:
        model = build_model(game, cfg)
    else:
        model = PolicyValueNet(net["input_size"], net["num_actions"], net["num_players"], cfg)
    try:
        model.load_state_dict(ckpt["model"])
    except RuntimeError as e:
        raise IszError(f"checkpoint {str(path)!r} does not fit the network it describes: "
                       f"{str(e).splitlines()[0]}") from e
    model.to(map_location).eval()
    info = {k: v for k, v in ckpt.items() if k != "model"}
    return model, info
