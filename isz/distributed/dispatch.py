"""Handing one match's deals to the Ray match workers and taking them back.

Each worker that is up holds `INFLIGHT` calls, so it never waits for the
driver between calls. A call carries one deal until calls have been timed,
then as many as fill about `CALL_S` seconds (tiny deals would otherwise cost
more in messages than in play), never more than a fair share of what is left.

A call that fails because its worker died (``RayActorError``; its node gone:
``ObjectLostError``, ``ActorUnschedulableError``) puts its deals back at the
front of the queue. The worker is then probed (its ``whereabouts``) every
`PROBE_S` seconds while Ray restarts it, and takes deals again once it
answers; ``ActorDiedError`` means Ray will not restart it. An exception
raised by the play itself (a bug, a game module the worker cannot import) is
not a death: it ends the match with that error.
"""

from __future__ import annotations

import time
from collections import deque

import ray
from ray import exceptions as rx

from isz.types import IszError

INFLIGHT = 2  # calls queued per worker
CALL_S = 1.0  # target seconds of play per call, once deals have been timed
PROBE_S = 1.0  # seconds between probes of a worker Ray is restarting
# a node lost under a worker pinned to it (older Ray lacks the class: RayActorError then)
_UNSCHEDULABLE = getattr(rx, "ActorUnschedulableError", rx.RayActorError)
LOST = (rx.RayActorError, rx.ObjectLostError, _UNSCHEDULABLE)


class Dispatch:
    """One match on ``backend``'s workers (a `RayMatches`); see module docstring."""

    def __init__(self, backend, key: str, box: list, deals: list[int], done):
        self.b, self.key, self.box, self.done = backend, key, box, done
        self.queue = deque(deals)
        self.busy: dict = {}  # ObjectRef -> (worker, deals)
        self.probes: dict = {}  # ObjectRef -> worker
        self.due: dict[int, float] = {}  # worker -> time of its next probe
        self.played, self.seconds = 0, 0.0  # deals timed by the workers, and their time
        for i in range(len(backend.actors)):
            if i not in backend.ready and i not in backend.gone:
                self._probe(i)

    def run(self) -> None:
        rc = self.b.rcfg
        last = time.monotonic()  # of the last deal back (or worker up)
        while self.queue or self.busy:
            self._fill()
            if not (self.busy or self.probes or self.due):
                raise IszError(f"every Ray match worker died ({self.b.deaths} deaths); the "
                               "deals finished so far are kept (run the same command again "
                               "to resume from its journal)")
            starting = not self.b.ready and not self.played
            key, limit = ("ray.start_timeout_s", rc.start_timeout_s) if starting \
                else ("ray.result_timeout_s", rc.result_timeout_s)
            now = time.monotonic()
            if now - last > limit:
                raise IszError(f"no Ray match worker answered within {key}={limit:g}s; see "
                               "the Ray logs (/tmp/ray/session_latest/logs)")
            wait = max(min([*self.due.values(), now + PROBE_S]) - now, 0.0)
            refs = [*self.busy, *self.probes]
            ready = ray.wait(refs, num_returns=1, timeout=wait)[0] if refs else []
            if not refs:
                time.sleep(wait)
            for i in [i for i, t in self.due.items() if t <= time.monotonic()]:
                del self.due[i]
                self._probe(i)
            if ready and self._take(ready[0]):
                last = time.monotonic()

    def _size(self, free_workers: int) -> int:
        if not self.played:
            return 1
        per_deal = max(self.seconds / self.played, 1e-6)
        fair = max(1, len(self.queue) // max(1, INFLIGHT * free_workers))
        return max(1, min(int(CALL_S / per_deal), fair))

    def _fill(self) -> None:
        up = sorted(self.b.ready - self.b.gone)
        for i in up:
            held = sum(1 for w, _ in self.busy.values() if w == i)
            for _ in range(INFLIGHT - held):
                if not self.queue:
                    return
                n = self._size(len(up))
                deals = [self.queue.popleft() for _ in range(min(n, len(self.queue)))]
                ref = self.b.actors[i].play.remote(self.key, self.box, deals)
                self.busy[ref] = (i, deals)

    def _take(self, ref) -> bool:
        """Handle a finished call; True: it brought deals or a worker up."""
        if ref in self.probes:
            return self._answered(ref)
        i, deals = self.busy.pop(ref)
        try:
            outcomes, seconds = ray.get(ref)
        except rx.RayTaskError as e:  # the play raised: not a death
            cause = e.as_instanceof_cause()
            if isinstance(cause, IszError):
                raise IszError(f"a Ray match worker: {cause}") from None
            raise cause from None
        except LOST as e:
            self.queue.extendleft(reversed(deals))
            self.b.replayed += len(deals)
            self._lost(i, e, len(deals))
            return False
        self.played += len(outcomes)
        self.seconds += seconds
        for deal, outcome in outcomes:
            self.done(deal, outcome)
        return True

    def _lost(self, i: int, err: Exception, deals: int) -> None:
        if i in self.b.ready:
            self.b.ready.discard(i)
            self.b.deaths += 1
            up = len(self.b.ready - self.b.gone)
            self.b.say(f"worker {i} (pid {self.b.pids[i]}) died: {_first_line(err)}; its "
                       f"{deals} deal(s) go to the {up} worker(s) up")
        if _permanent(err):
            self.b.gone.add(i)
            self.due.pop(i, None)
        elif i not in self.probes.values() and i not in self.due:
            self._probe(i)

    def _probe(self, i: int) -> None:
        self.probes[self.b.actors[i].whereabouts.remote()] = i

    def _answered(self, ref) -> bool:
        i = self.probes.pop(ref)
        try:
            self.b.pids[i], self.b.nodes[i] = ray.get(ref)
        except LOST as e:
            if _permanent(e):
                self.b.gone.add(i)
                self.b.say(f"worker {i} is gone for good: {_first_line(e)}")
            else:  # still restarting (or waiting for a free CPU)
                self.due[i] = time.monotonic() + PROBE_S
            return False
        self.b.ready.add(i)
        return True


def _permanent(err: Exception) -> bool:
    """Ray will not bring this worker back."""
    if isinstance(err, rx.ActorUnavailableError):
        return False
    return isinstance(err, (rx.ActorDiedError, _UNSCHEDULABLE))


def _first_line(err: Exception) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0][:200]
