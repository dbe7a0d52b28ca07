"""Self-play on Ray actors feeding the learner (the only layer that imports ray).

`RaySelfPlay` is the learner's source of positions with ``trainer.actors >= 1``;
`SelfPlayActor` the actor; `connect` starts or joins Ray. See docs/distributed.md.
"""

from isz.distributed.actor import Chunk, SelfPlayActor
from isz.distributed.cluster import check_resources, connect, shutdown
from isz.distributed.source import RaySelfPlay

__all__ = ["Chunk", "RaySelfPlay", "SelfPlayActor", "check_resources", "connect", "shutdown"]
