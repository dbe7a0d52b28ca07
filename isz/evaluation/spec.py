"""A match described by names, so any process (a pool worker, a Ray worker on
another machine) can build it: `MatchSpec` and its `SeatSpec` per agent.

`build` makes the game and one agent per seat from a spec: registered agents
by name and knobs (`isz.make_agent`), ``planner`` seats from their training
checkpoint (`isz.load_planner`). `MatchSpec.key` hashes every setting that
decides a deal's outcome (checkpoints by their content, not their path), so a
journal of finished deals (`isz.evaluation.journal`) is reused only by the
same match. ``deals`` is left out of the key on purpose: deal ``d`` is played
the same way whatever the match's length (`isz.evaluation.play`), so a longer
match with the same settings reuses the deals already played.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from isz.agents.base import Agent
from isz.games.base import Game
from isz.settings.agents import OPPONENT_MODEL
from isz.types import IszError, check_int

PLANNER = "planner"
MODEL_KNOB = OPPONENT_MODEL.name  # a knob naming a file: hashed and shipped as a checkpoint
KEY_VERSION = 1  # bump when what a deal's outcome depends on changes shape


@dataclass(frozen=True)
class SeatSpec:
    """One agent of a match (results are reported by its position in ``seats``).

    agent: a registered agent name, or ``planner`` (a checkpoint's network-guided
        planner: ``checkpoint`` must be set).
    knobs: the agent's knobs (JSON-able values).
    checkpoint: a ``planner``'s training checkpoint (a path on the machine
        that starts the match; workers elsewhere receive its bytes).
    label: the name reported in results (default: ``agent``).
    """

    agent: str
    knobs: dict[str, Any] = field(default_factory=dict)
    checkpoint: str | None = None
    label: str | None = None

    @property
    def name(self) -> str:
        return self.label or self.agent

    @property
    def model(self) -> str | None:
        """The ``opponent_model`` file this seat's knobs name, if any."""
        return self.knobs.get(MODEL_KNOB)

    def settings(self, digests: dict[str, str]) -> dict:
        """This seat's part of `MatchSpec.settings` (``digests``: path -> sha256)."""
        out = {"agent": self.agent, "knobs": self.knobs, "label": self.name,
               "checkpoint_sha256": digests.get(self.checkpoint) if self.checkpoint else None}
        if self.model is not None:  # only then: the keys of other seats stay as they were
            out[f"{MODEL_KNOB}_sha256"] = digests.get(self.model)
        return out


@dataclass(frozen=True)
class MatchSpec:
    """``deals`` deals of ``game``, each once per seat rotation, seeded by ``seed``.

    game: a registered game or preset name; game_params: overrides of its
    parameters; game_module: a module defining a game outside isz, imported
    first (it must be importable where the deals are played).
    """

    game: str
    seats: tuple[SeatSpec, ...]
    deals: int
    seed: int = 0
    game_params: dict[str, Any] = field(default_factory=dict)
    game_module: str | None = None

    def check(self) -> None:
        """IszError naming the first bad value."""
        check_int("deals", self.deals, lo=1)
        check_int("seed", self.seed, lo=0)
        if not self.seats:
            raise IszError("a match needs at least one seat")
        for i, s in enumerate(self.seats):
            if s.agent == PLANNER and not s.checkpoint:
                raise IszError(f"seats[{i}]: agent {PLANNER!r} needs a checkpoint "
                               "(a training checkpoint)")
            if s.checkpoint and not Path(s.checkpoint).is_file():
                raise IszError(f"seats[{i}]: checkpoint {s.checkpoint!r} is not a file")
            if s.model is not None and not Path(s.model).is_file():
                raise IszError(f"seats[{i}]: {MODEL_KNOB} {s.model!r} is not a file")

    def checkpoints(self) -> list[str]:
        """The distinct checkpoint paths of the seats (each ``planner``'s, then its
        ``opponent_model``'s), in seat order: the files a deal reads."""
        return list(dict.fromkeys(p for s in self.seats for p in (s.checkpoint, s.model) if p))

    def settings(self, digests: dict[str, str] | None = None) -> dict:
        """What a deal's outcome depends on, JSON-able (``deals`` left out);
        ``digests``: checkpoint path -> sha256 of its bytes (read when not given)."""
        digests = digests or {p: file_digest(p) for p in self.checkpoints()}
        seats = [s.settings(digests) for s in self.seats]
        return {"version": KEY_VERSION, "game": self.game, "game_params": self.game_params,
                "game_module": self.game_module, "seed": self.seed, "seats": seats}

    def key(self, digests: dict[str, str] | None = None) -> str:
        """16 hex digits: the sha256 of `settings` (same key, same deals)."""
        text = json.dumps(self.settings(digests), sort_keys=True, default=_unjsonable)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _unjsonable(value):
    raise IszError(f"match settings must be JSON-able; {value!r} is a {type(value).__name__}")


def file_digest(path: str | Path) -> str:
    """sha256 (hex) of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def build_game(spec: MatchSpec) -> Game:
    """The game of ``spec`` (its ``game_module`` imported first)."""
    from isz.games.registry import import_game_module, make_game

    if spec.game_module:
        import_game_module(spec.game_module)
    return make_game(spec.game, **spec.game_params)


def build(spec: MatchSpec, files: dict[str, str] | None = None) -> tuple[Game, list[Agent]]:
    """The game and one agent per seat. ``files`` maps a seat's checkpoint path to
    the local file to read it from (a Ray worker's copy); default: the path itself."""
    from isz.agents.planner import load_planner
    from isz.agents.registry import make_agent

    game = build_game(spec)
    if len(spec.seats) != game.num_players:
        raise IszError(f"{game.name} has {game.num_players} seat(s) but the match names "
                       f"{len(spec.seats)} agent(s)")
    files = files or {}
    agents = []
    for s in spec.seats:
        knobs = s.knobs if s.model is None else \
            {**s.knobs, MODEL_KNOB: files.get(s.model, s.model)}  # a worker's copy
        if s.agent == PLANNER:
            agent = load_planner(files.get(s.checkpoint, s.checkpoint), game, **knobs)
        else:
            agent = make_agent(s.agent, game, **knobs)
        agent.name = s.name
        agents.append(agent)
    return game, agents
