"""Typed schema of `scripts/play.py`'s configuration (one line per key).

`conf/play/play.yaml` fills it; hydra registers it as ``play_schema``, so an
unknown key or a value of the wrong type is rejected with the key named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class PlayConfig:
    game: str | None = None  # game or preset (isz.game_names()); default oh_hell, or the
    #   checkpoint's game when `checkpoint` is set
    game_params: dict[str, Any] = field(default_factory=dict)  # overrides of the game's PARAMS
    seat: int = 0  # your seat (P0 moves first in most games)
    agent: str | None = None  # who plays the other seats: an agent name (isz.agent_names());
    #   default so_ismcts, or "planner" (the checkpoint's PUCT planner) with a checkpoint
    checkpoint: str | None = None  # a training checkpoint, played as agent "planner"
    iterations: int = 1000  # search budget of the agents that have an `iterations` knob
    knobs: dict[str, Any] = field(default_factory=dict)  # extra knobs of the agent
    games: int = 1  # games to play in a row (new deals, same seats)
    seed: int = 0  # deals and the agents' generators: same seed, same deals
    explain: bool = True  # after each game, show the agents' policies over the legal moves
