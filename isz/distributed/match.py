"""`RayMatches`: the Ray backend of `isz.evaluation.play_match`.

It starts (or joins, ``ray.address``) Ray and keeps ``workers`` `MatchWorker`
actors, spread over the cluster's nodes (Ray's ``SPREAD`` strategy), each
asking Ray for ``cpus_per_worker`` CPUs. A match's deals go to whichever
worker is free, a few at a time (`Dispatch`), and come back as they finish,
so the driver's progress counts deals done on every node. The spec and the
checkpoints' bytes are put in the object store once per match; each worker
loads them once (`isz.distributed.match_worker`). Deal ``d`` is played the
same way wherever it is played (`isz.evaluation.play`), so the result equals
the local pool's deal by deal.

A worker that dies (its process killed, its node lost) fails the calls it
had: their deals go back to the front of the queue and are played by the
others. Ray restarts it (``ray.max_restarts``) where it finds a CPU; it gets
deals again once it answers a probe. The match stops with an IszError only
when no worker is left (or none answers within ``ray.result_timeout_s``).
"""

from __future__ import annotations

import sys

import ray

from isz.distributed.cluster import connect, local_resources
from isz.distributed.dispatch import Dispatch
from isz.distributed.match_worker import MatchWorker
from isz.evaluation.spec import MatchSpec
from isz.types import IszError


def _default_ray():
    from isz.training.config import RayCfg

    return RayCfg()


class RayMatches:
    """Match workers on Ray (see module docstring).

    Args:
        rcfg: a `RayCfg` (``address``, ``num_cpus``, ``object_store_mb``,
            ``start_timeout_s``, ``result_timeout_s``, ``max_restarts``);
            default: a new local Ray with this machine's CPUs.
        workers: match workers (default: one per ``cpus_per_worker`` CPUs of
            the cluster); never more than the first match's deals.
        cpus_per_worker: CPUs each worker asks Ray for (0: share the cluster's
            CPUs with whatever holds them, e.g. the training run's self-play
            actors, which are idle while the learner evaluates).
    """

    name = "ray"

    def __init__(self, rcfg=None, workers: int | None = None, cpus_per_worker: float = 1.0):
        self.rcfg = rcfg if rcfg is not None else _default_ray()
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                    or workers < 1):
            raise IszError(f"workers must be an integer >= 1 (or null), got {workers!r}")
        if cpus_per_worker == 0 and workers is None:
            raise IszError("cpus_per_worker=0 needs an explicit number of workers")
        self.workers, self.cpus = workers, float(cpus_per_worker)
        self.actors: list = []
        self.pids: list[int | None] = []  # process id of each worker (when known)
        self.nodes: list[str | None] = []  # Ray node id of each worker (when known)
        self.ready: set[int] = set()  # workers that answered since their last failure
        self.gone: set[int] = set()  # workers Ray will not restart
        self.deaths = 0  # worker deaths seen over all matches
        self.replayed = 0  # deals sent again because their worker died
        self.owns_ray = False

    def workers_for(self, deals: int) -> int:
        if self.actors:
            return len(self.actors) - len(self.gone)
        return max(1, min(self.workers or 1, deals))

    def _count(self, cpus: float) -> int:
        """Workers to start on a cluster of ``cpus`` CPUs (IszError if too many)."""
        if self.workers is None:
            return max(1, int(cpus // self.cpus))
        if self.workers * self.cpus > cpus:
            raise IszError(f"workers={self.workers} Ray match workers need "
                           f"{self.workers * self.cpus:g} CPUs but the Ray cluster has "
                           f"{cpus:g}; lower workers or add nodes (ray.num_cpus for a local Ray)")
        return self.workers

    def start(self, deals: int) -> None:
        """Start or join Ray and create the workers (once; later matches reuse them)."""
        if self.actors:
            return
        if self.rcfg.address is None and not ray.is_initialized():  # fail before starting Ray
            self._count(local_resources(self.rcfg)[0])
        self.owns_ray = connect(self.rcfg)
        n = min(self._count(ray.cluster_resources().get("CPU", 0.0)), deals)
        opts = {"num_cpus": self.cpus, "max_restarts": self.rcfg.max_restarts,
                "max_task_retries": 0, "scheduling_strategy": "SPREAD"}
        remote = ray.remote(MatchWorker).options(**opts)
        self.actors = [remote.remote(i) for i in range(n)]
        self.pids, self.nodes = [None] * n, [None] * n
        self.ready, self.gone = set(), set()

    def play(self, spec: MatchSpec, game, agents, deals: list[int], done) -> None:
        """Play ``deals`` of ``spec`` on the workers (``game``/``agents``: unused,
        the workers build their own); ``done(deal, outcome)`` as each comes back."""
        try:
            self.start(len(deals))
            blobs = {p: open(p, "rb").read() for p in spec.checkpoints()}  # noqa: SIM115
            digests = {p: _sha256(b) for p, b in blobs.items()}
            box = [ray.put((spec, blobs))]
            deaths = self.deaths
            Dispatch(self, spec.key(digests), box, deals, done).run()
        except BaseException:
            self.close()
            raise
        up = sorted(self.ready - self.gone)
        lost = f", {self.deaths - deaths} worker death(s)" if self.deaths > deaths else ""
        self.say(f"{len(deals)} deal(s) played; {len(up)} worker(s) up on "
                 f"{len({self.nodes[i] for i in up})} node(s){lost}")

    def say(self, text: str) -> None:
        print(f"ray match: {text}", file=sys.stderr, flush=True)

    def close(self) -> None:
        """Kill the workers (and stop the local Ray this backend started)."""
        for a in self.actors:
            ray.kill(a, no_restart=True)
        self.actors = []
        if self.owns_ray and ray.is_initialized():
            ray.shutdown()
        self.owns_ray = False

    def __enter__(self) -> RayMatches:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _sha256(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()
