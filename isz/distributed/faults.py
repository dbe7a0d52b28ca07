"""Actor deaths as the learner sees them, and what is owed to a restarting actor.

When an actor process dies, its requests fail with ``RayActorError``: the
running one and those queued behind it, all at once, and any sent while Ray
restarts it (``ActorUnavailableError``). The first failure while the actor
was known to be up is its death: one chunk lost (the one it was playing; the
queued ones never started). Every failed request is owed again; the learner
probes the actor (its ``pid``) every `PROBE_S` seconds and resends what it
owes once the probe answers. ``ActorDiedError`` means Ray gave up on it
(``ray.max_restarts`` used up): the run stops with that message.
"""

from __future__ import annotations

import time

from ray.exceptions import ActorDiedError, ActorUnavailableError, RayActorError

from isz.types import IszError

PROBE_S = 1.0


class Health:
    """Per-actor state: ``up`` (answered a probe since its last death; a chunk
    finished before the death proves nothing), ``owed`` requests."""

    def __init__(self, actors: int, max_restarts: int):
        self.up = [True] * actors
        self.owed = [0] * actors
        self.due: dict[int, float] = {}  # actor -> time of its next probe
        self.max_restarts = max_restarts

    def failed(self, i: int, kind: str, err: RayActorError, counters: dict,
               chunk_games: int) -> bool:
        """Book a failed request of actor ``i``; True: probe it now."""
        if isinstance(err, ActorDiedError) and not isinstance(err, ActorUnavailableError):
            raise IszError(f"self-play actor {i} died and Ray will not restart it "
                           f"(ray.max_restarts={self.max_restarts}): "
                           f"{str(err).splitlines()[0]}")
        if kind == "chunk":
            self.owed[i] += 1
        if self.up[i]:
            self.up[i] = False
            counters["actor_deaths"] += 1
            counters["lost_games"] += chunk_games  # the chunk it was playing
            return True
        if kind == "probe":  # still restarting: ask again a little later
            self.due[i] = time.monotonic() + PROBE_S
        return False

    def next_probe(self) -> float:
        return min(self.due.values(), default=float("inf"))

    def probes_due(self) -> list[int]:
        now = time.monotonic()
        due = [i for i, t in self.due.items() if t <= now]
        for i in due:
            del self.due[i]
        return due

    def back(self, i: int) -> int:
        """Actor ``i`` answered a probe: it is up; returns the requests to resend."""
        self.up[i] = True
        owed, self.owed[i] = self.owed[i], 0
        return owed
