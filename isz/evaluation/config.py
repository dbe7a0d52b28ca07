"""Typed schema of `scripts/evaluate.py`'s configuration (one line per key).

`conf/evaluate/evaluate.yaml` fills it; hydra registers it as ``evaluate_schema`` in its
ConfigStore, so an unknown key (a typo) or a value of the wrong type is
rejected with the key named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class EvaluateConfig:
    game: str | None = None  # game or preset (isz.game_names()); default tricks, or the
    #   checkpoint's game when `checkpoint` is set
    game_params: dict[str, Any] = field(default_factory=dict)  # overrides of the game's PARAMS
    game_module: str | None = None  # module defining a game outside isz, imported first
    #   (examples.goofspiel); a checkpoint's recorded module is imported by itself
    agents: list[str] | None = None  # cycled over seats; default [so_ismcts, pimc], or
    #   [planner, so_ismcts] with a checkpoint ("planner" = the checkpoint's PUCT planner)
    checkpoint: str | None = None  # a training checkpoint to play as agent "planner"
    deals: int = 20  # deals; each is played once per seat rotation
    seed: int = 0  # same seed, same result (whatever `workers`)
    workers: int = 1  # processes to spread the deals over
    iterations: int = 1000  # search budget, given to every agent that has an `iterations` knob
    time_per_move: float | None = None  # seconds per decision for every searching agent
    #   (its `time_budget`; `iterations` is then no limit): equal wall time per move
    knobs: dict[str, dict[str, Any]] = field(default_factory=dict)  # agent name -> extra knobs
    output: str = "results/evaluate.json"  # JSON result; relative to the launch directory
    exploitability: bool = False  # games small enough to enumerate: the exact exploitability
    #   (NashConv/2) of each distinct agent's policy (its `policy(view)`, e.g. final=mirror)
    progress: bool = True  # tqdm bar over deals (hidden anyway when stderr is not a terminal)
