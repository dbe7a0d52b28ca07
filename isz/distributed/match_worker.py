"""The match worker: a Ray actor process that plays deals of a match on request.

A call `play` names the match by its key (`MatchSpec.key`) and carries a
reference to ``(spec, checkpoint bytes)`` wrapped in a list, so Ray does not
fetch it for every call: the worker fetches it, writes the checkpoints to a
folder of its own, builds the game and agents (`isz.evaluation.spec.build`)
and warms them up only when the key differs from the match it holds. So a
worker loads each checkpoint once per match, and a worker that Ray restarted
(it comes back empty) loads it again on its first call.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import ray

from isz.crew import one_torch_thread
from isz.evaluation.play import DealOutcome, play_deal
from isz.evaluation.pool import warm_up
from isz.evaluation.spec import MatchSpec, build


class MatchWorker:
    """Holds one match's game and agents; see module docstring."""

    def __init__(self, index: int):
        self.index = index
        self.key: str | None = None
        self.spec: MatchSpec | None = None
        self.game = self.agents = None
        self.folder: str | None = None

    def whereabouts(self) -> tuple[int, str]:
        """(process id, Ray node id): answers once the worker is up."""
        return os.getpid(), ray.get_runtime_context().get_node_id()

    def _load(self, key: str, box: list) -> None:
        if key == self.key:
            return
        spec, blobs = ray.get(box[0])
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = tempfile.mkdtemp(prefix=f"isz-match-{os.getpid()}-")
        files = {}
        for i, (path, data) in enumerate(blobs.items()):
            files[path] = str(Path(self.folder) / f"checkpoint-{i}.pt")
            Path(files[path]).write_bytes(data)
        self.game, self.agents = build(spec, files)
        one_torch_thread()
        warm_up(self.game, self.agents, spec.seed)
        self.spec, self.key = spec, key

    def play(self, key: str, box: list, deals: list[int]
             ) -> tuple[list[tuple[int, DealOutcome]], float]:
        """Play ``deals`` of match ``key``; returns their outcomes and the seconds
        spent playing them (loading the match not included)."""
        self._load(key, box)
        t0 = time.perf_counter()
        out = [(d, play_deal(self.game, self.agents, self.spec.seed, d)) for d in deals]
        return out, time.perf_counter() - t0
