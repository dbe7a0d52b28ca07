"""Copying finished results to the driver's node as soon as they finish.

A large result (a chunk of positions) stays in the object store of the node
whose actor made it until someone fetches it; if that node is lost first, the
result is lost with it (Ray cannot replay an actor call). The learner takes
chunks only between its rounds of gradient steps, so `Prefetch` runs a thread
that waits on every pending result with ``fetch_local=True``: each is copied
to this node as it finishes and survives the loss of the node that made it.
Small results (under Ray's inline limit, 100 KB) come back inside the reply
and need none of this.
"""

from __future__ import annotations

import threading

import ray

POLL_S = 0.5  # longest wait of one round, so new references join soon


class Prefetch:
    """``add(ref)`` when submitted, ``discard(ref)`` when taken; `close` at the end."""

    def __init__(self):
        self.refs: set = set()
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="isz-prefetch", daemon=True)
        self.thread.start()

    def add(self, ref) -> None:
        with self.lock:
            self.refs.add(ref)

    def discard(self, ref) -> None:
        with self.lock:
            self.refs.discard(ref)

    def _loop(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                refs = list(self.refs)
            if not refs:
                self.stop.wait(POLL_S / 5)
                continue
            try:
                ready, _ = ray.wait(refs, num_returns=len(refs), timeout=POLL_S,
                                    fetch_local=True)
            except Exception:  # noqa: BLE001 (Ray shutting down, a ref freed): try again
                self.stop.wait(POLL_S)
                continue
            with self.lock:
                self.refs.difference_update(ready)  # local now (or failed: nothing to copy)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
