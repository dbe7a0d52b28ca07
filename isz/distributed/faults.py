"""Actor deaths as the learner sees them, and what is owed to a restarting actor.

When an actor process dies, its requests fail with ``RayActorError``: the
running one and those queued behind it, all at once, and any sent while Ray
restarts it (``ActorUnavailableError``). The first failure while the actor
was known to be up is its death: one chunk lost (the one it was playing; the
queued ones never started). Every failed request is owed again; the learner
probes the actor (its ``pid``) every `PROBE_S` seconds and resends what it
owes once the probe answers. An actor whose node was lost is restarted
where a CPU is free, or waits for one (its probes keep failing meanwhile).
``ActorDiedError`` means Ray gave up on it (``ray.max_restarts`` used up): the
run goes on with the others, and stops with that message only when none is
left. Each death is said on stderr with the run's lost games so far.
"""

from __future__ import annotations

import sys
import time

from ray.exceptions import ActorDiedError, ActorUnavailableError

from isz.types import IszError

PROBE_S = 1.0


def permanent(err: Exception) -> bool:
    """Ray will not restart the actor behind ``err``."""
    return isinstance(err, ActorDiedError) and not isinstance(err, ActorUnavailableError)


class Health:
    """Per-actor state: ``up`` (answered a probe since its last death; a chunk
    finished before the death proves nothing), ``owed`` requests."""

    def __init__(self, actors: int, max_restarts: int):
        self.up = [True] * actors
        self.owed = [0] * actors
        self.gone: set[int] = set()  # actors Ray will not restart
        self.due: dict[int, float] = {}  # actor -> time of its next probe
        self.max_restarts = max_restarts

    def failed(self, i: int, kind: str, err: Exception, counters: dict,
               chunk_games: int) -> bool:
        """Book a failed request of actor ``i`` (``err``: a `RayActorError`, or
        the loss of its result with its node); True: probe it now."""
        if kind == "chunk":
            self.owed[i] += 1
        probe = False
        if self.up[i]:
            self.up[i] = False
            counters["actor_deaths"] += 1
            counters["lost_games"] += chunk_games  # the chunk it was playing
            probe = True
            self._say(i, err, counters)
        elif kind == "probe":  # still restarting: ask again a little later
            self.due[i] = time.monotonic() + PROBE_S
        if permanent(err):
            self.gone.add(i)
            self.due.pop(i, None)
            if len(self.gone) == len(self.up):
                raise IszError(f"every self-play actor died and Ray will not restart them "
                               f"(ray.max_restarts={self.max_restarts}): "
                               f"{str(err).splitlines()[0]}")
            return False
        return probe

    def _say(self, i: int, err: Exception, counters: dict) -> None:
        playing = sum(self.up)
        first = (str(err).strip().splitlines() or [type(err).__name__])[0][:160]
        print(f"self-play: actor {i} died ({first}); the run has lost "
              f"{counters['lost_games']} game(s) in {counters['actor_deaths']} death(s); "
              f"{playing} of {len(self.up)} actor(s) playing", file=sys.stderr, flush=True)

    def next_probe(self) -> float:
        return min(self.due.values(), default=float("inf"))

    def probes_due(self) -> list[int]:
        now = time.monotonic()
        due = [i for i, t in self.due.items() if t <= now and i not in self.gone]
        for i in due:
            del self.due[i]
        return due

    def back(self, i: int) -> int:
        """Actor ``i`` answered a probe: it is up; returns the requests to resend."""
        self.up[i] = True
        owed, self.owed[i] = self.owed[i], 0
        return owed
