"""What one `collect` took from the actors: merged positions and per-actor figures.

TensorBoard scalars: ``perf/actor<i>/positions_per_s`` (decisions searched per
second of that actor's own play), ``perf/actor<i>/version_lag`` (learner
versions between its weights and the learner's, mean over its chunks) and
``perf/actor<i>/queue_depth`` (its finished chunks still waiting when one was
taken); ``perf/version_lag`` over all chunks taken.
"""

from __future__ import annotations

import numpy as np

from isz.selfplay import Positions, SelfPlayStats


class ChunkStats:
    """Accumulates the chunks of one learner iteration."""

    def __init__(self, actors: int):
        self.parts: list[Positions] = []
        self.stats: list[SelfPlayStats] = []
        self.games = 0
        self.positions = np.zeros(actors)
        self.seconds = np.zeros(actors)
        self.belief_seconds = 0.0  # summed over actors, as their seconds are
        self.lags: list[list[int]] = [[] for _ in range(actors)]
        self.depths: list[list[int]] = [[] for _ in range(actors)]

    def add(self, chunk, lag: int, depth: int) -> None:
        i, s = chunk.actor, chunk.stats
        self.parts.append(chunk.positions)
        self.stats.append(s)
        self.games += s.games
        self._timing(i, s, lag)
        self.depths[i].append(depth)

    def dropped(self, chunk, lag: int) -> None:
        """A chunk too stale to train on: its play still counts in the actor's rate."""
        self._timing(chunk.actor, chunk.stats, lag)

    def _timing(self, i: int, s: SelfPlayStats, lag: int) -> None:
        self.positions[i] += s.positions
        self.seconds[i] += s.seconds
        self.belief_seconds += s.belief_seconds
        self.lags[i].append(lag)

    def merged(self) -> tuple[Positions, SelfPlayStats]:
        """All kept positions; stats whose rate is the actors' summed rate."""
        out = SelfPlayStats.combine(self.stats)
        rate = float(np.sum(self.positions / np.maximum(self.seconds, 1e-9)))
        out.seconds = out.positions / rate if rate > 0 else 0.0
        # the actors' share of time spent drawing worlds, carried over to the merged clock
        out.belief_seconds = out.seconds * self.belief_seconds / max(self.seconds.sum(), 1e-9)
        return Positions.concat(self.parts), out

    def scalars(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for i in range(len(self.lags)):
            if self.seconds[i] > 0:
                out[f"perf/actor{i}/positions_per_s"] = self.positions[i] / self.seconds[i]
            if self.lags[i]:
                out[f"perf/actor{i}/version_lag"] = float(np.mean(self.lags[i]))
            if self.depths[i]:
                out[f"perf/actor{i}/queue_depth"] = float(np.mean(self.depths[i]))
        lags = [x for per in self.lags for x in per]
        if lags:
            out["perf/version_lag"] = float(np.mean(lags))
        return out
