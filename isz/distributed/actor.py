"""The self-play actor: a Ray actor process that plays chunks of games on request.

Each call `play_chunk` plays ``games`` complete games with today's lockstep
batched self-play (`isz.selfplay.play`) and returns them as one `Chunk`. The
weights arrive as an ``ObjectRef`` wrapped in a list, so Ray does not fetch
them for every call: the actor fetches (``ray.get``) and loads them only when
the version differs from the one it holds.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np
import ray
import torch

from isz.agents.network import NetworkEvaluator
from isz.games.registry import import_game_module, make_game
from isz.nn.model import ModelConfig, build_model
from isz.selfplay import Positions, SelfPlayConfig, SelfPlayStats, play


@dataclass
class Chunk:
    """Finished games of one actor call, all played with weights ``version``."""

    actor: int  # actor index
    version: int  # learner iteration whose weights played these games
    positions: Positions
    stats: SelfPlayStats
    pid: int  # process that played them (changes when Ray restarts the actor)


class SelfPlayActor:
    """Holds a game, a network copy and its evaluator; see module docstring."""

    def __init__(self, index: int, game_name: str, game_params: dict, model_cfg: dict,
                 device: str, torch_threads: int, game_module: str | None = None):
        torch.set_num_threads(torch_threads)
        self.index = index
        if game_module:  # a game defined outside isz registers itself on import
            import_game_module(game_module)
        self.game = make_game(game_name, **game_params)
        self.device = torch.device(device)
        self.model = build_model(self.game, ModelConfig.from_dict(model_cfg)).to(self.device)
        self.version = None
        self.evaluator = None

    def pid(self) -> int:
        return os.getpid()

    def whereabouts(self) -> tuple[int, str]:
        """(process id, Ray node id)."""
        return os.getpid(), ray.get_runtime_context().get_node_id()

    def _load(self, weights: list, version: int) -> None:
        if version == self.version:
            return
        state = ray.get(weights[0])
        self.model.load_state_dict(state)
        # a fresh evaluator: its cache holds the outputs of the old weights
        self.evaluator = NetworkEvaluator(self.model, self.device)
        self.version = version

    def play_chunk(self, weights: list, version: int, cfg: SelfPlayConfig, games: int,
                   seed: list[int]) -> Chunk:
        """``games`` games with weights ``version``; ``seed`` (entropy list) seeds them."""
        t0 = time.perf_counter()
        self._load(weights, version)
        pos, stats = play(self.game, self.evaluator, cfg, games, np.random.default_rng(seed))
        stats.seconds = time.perf_counter() - t0  # loading the weights is the actor's time too
        return Chunk(self.index, version, pos, stats, os.getpid())
