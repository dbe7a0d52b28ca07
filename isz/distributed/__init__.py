"""Self-play and matches on Ray (the only layer that imports ray).

`RaySelfPlay` is the learner's source of positions with ``trainer.actors >= 1``;
`SelfPlayActor` the actor; `RayMatches` the Ray backend of
`isz.evaluation.play_match` (`MatchWorker` its actor); `connect` starts or
joins Ray. See docs/distributed.md.

The names are imported on first use: a match worker process imports only
`isz.distributed.match_worker`, not torch with the self-play actor.
"""

from __future__ import annotations

import importlib

_WHERE = {"Chunk": "actor", "SelfPlayActor": "actor", "check_resources": "cluster",
          "connect": "cluster", "shutdown": "cluster", "RayMatches": "match",
          "MatchWorker": "match_worker", "RaySelfPlay": "source"}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module 'isz.distributed' has no attribute {name!r}")
    return getattr(importlib.import_module(f"isz.distributed.{_WHERE[name]}"), name)
