"""Self-play and matches on Ray (the only layer that imports ray).

`RaySelfPlay` is the learner's source of positions with ``trainer.actors >= 1``;
`SelfPlayActor` the actor; `RayMatches` the Ray backend of
`isz.evaluation.play_match` (`MatchWorker` its actor); `connect` starts or
joins Ray. See docs/distributed.md.
"""

from isz.distributed.actor import Chunk, SelfPlayActor
from isz.distributed.cluster import check_resources, connect, shutdown
from isz.distributed.match import RayMatches
from isz.distributed.match_worker import MatchWorker
from isz.distributed.source import RaySelfPlay

__all__ = ["Chunk", "MatchWorker", "RayMatches", "RaySelfPlay", "SelfPlayActor",
           "check_resources", "connect", "shutdown"]
