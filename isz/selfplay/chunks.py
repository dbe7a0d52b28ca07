"""An iteration's self-play as chunks: fixed groups of games, each from its own seed.

A chunk is ``parallel_games`` games (the last one what is left) played in lockstep by
`isz.selfplay.play` with a generator of its own seed and a fresh evaluator, so what a
chunk plays depends on its seed, the weights and the settings only, not on which
process plays it or what it played before. The chunks of an iteration can therefore go
to any number of processes (`isz.training.source.LocalSelfPlay`) and the run's result
is the same.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from isz.search.evaluator import Evaluator
from isz.selfplay.records import Positions
from isz.selfplay.selfplay import SelfPlayConfig, SelfPlayStats, play


def chunk_sizes(games: int, size: int) -> list[int]:
    """``games`` split into chunks of ``size`` games, the last one the rest."""
    full, rest = divmod(games, size)
    return [size] * full + ([rest] if rest else [])


def play_chunk(game, evaluator: Evaluator, cfg: SelfPlayConfig, games: int, seed: int,
               magnet: Evaluator | None = None,
               progress: Callable[[int], None] | None = None
               ) -> tuple[Positions, SelfPlayStats]:
    """``games`` games from ``seed``; ``evaluator`` should be fresh (an empty cache:
    rows it computed in another batch could differ in their last bits)."""
    return play(game, evaluator, cfg, games, np.random.default_rng(seed), progress=progress,
                magnet=magnet)


def merge_chunks(parts: list[tuple[Positions, SelfPlayStats]],
                 seconds: float) -> tuple[Positions, SelfPlayStats]:
    """The chunks' positions in chunk order, and their stats over ``seconds`` of wall
    time (so rates are the machine's, however many processes played)."""
    stats = [s for _, s in parts]
    out = SelfPlayStats.combine(stats)
    out.seconds = seconds
    busy = sum(s.seconds for s in stats)
    # the chunks' share of their time spent drawing worlds, carried to the wall clock
    out.belief_seconds = seconds * sum(s.belief_seconds for s in stats) / max(busy, 1e-9)
    finals = [s.final_returns for s in stats if s.final_returns is not None]
    out.final_returns = np.concatenate(finals) if finals else None
    return Positions.concat([p for p, _ in parts]), out
