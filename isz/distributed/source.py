"""`RaySelfPlay`: the learner's view of N self-play actors.

Each actor always has ``ray.inflight`` chunk requests queued, so it plays on
while the learner trains; a finished chunk waits in Ray's object store until
`collect` takes it. Every request carries the latest published weights
(``publish``: one ``ray.put`` per learner iteration) and their version, the
learner iteration that produced them; a chunk played with weights more than
``trainer.max_staleness`` versions old is dropped and counted.

Actors are spread over the cluster's nodes (Ray's ``SPREAD`` strategy). An
actor that dies is restarted by Ray (``ray.max_restarts``; see
`isz.distributed.faults`). The chunk it was playing is lost and counted
(``lost_games``); requests it had queued but not started are sent again once
it is back; finished chunks are safe: `Prefetch` copies each to the learner's
node as it finishes, so even the loss of the node that played it does not
lose it. An actor Ray will not restart leaves the run to the others. The
counters live in the run's counters, so they survive a resume. Ray reports a
death through the dead actor's failed requests, about 2 s after it: a death
while the other actors finish the run's last games goes uncounted (nothing
of it was needed).
"""

from __future__ import annotations

import time
from pathlib import Path

import ray
from ray.exceptions import GetTimeoutError, ObjectLostError, RayActorError

from isz.distributed.actor import Chunk, SelfPlayActor
from isz.distributed.cluster import check_resources, connect, local_resources
from isz.distributed.faults import Health
from isz.distributed.prefetch import Prefetch
from isz.distributed.stats import ChunkStats
from isz.fs import write_json_atomic
from isz.selfplay import SelfPlayConfig
from isz.types import IszError

COUNTERS = ("dropped_positions", "lost_games", "actor_deaths")


class RaySelfPlay:
    """Self-play source on Ray actors (see `isz.training.source`)."""

    def __init__(self, cfg, owns_ray: bool, run_dir: Path):
        self.cfg, self.owns_ray, self.run_dir = cfg, owns_ray, Path(run_dir)
        self.actors: list = []
        self.pids: list[int] = []
        self.nodes: list[str] = []  # Ray node id of each actor
        self.pending: dict = {}  # ObjectRef -> (actor index, "chunk" or "probe")
        self.health = Health(cfg.trainer.actors, cfg.ray.max_restarts)
        self.sent: list[int] = []  # per actor: requests sent by this process (seeds)
        self.weights: list | None = None
        self.version = 0
        self.sp_cfg: SelfPlayConfig | None = None
        self.prefetch = Prefetch()

    @classmethod
    def start(cls, cfg, model, version: int, run_dir: Path) -> RaySelfPlay:
        """Start or join Ray, create the actors and publish ``model`` as ``version``."""
        need = (cfg.trainer.actors, cfg.selfplay.device, cfg.selfplay.gpus_per_actor)
        if cfg.ray.address is None and not ray.is_initialized():  # fail before starting Ray
            cpus, gpus = local_resources(cfg.ray)
            check_resources(*need, {"CPU": cpus, "GPU": gpus})
        owns = connect(cfg.ray)
        src = cls(cfg, owns, run_dir)
        try:
            check_resources(*need, ray.cluster_resources())
            src._spawn(model)
            src.publish(model, version)
        except BaseException:
            src.close()
            raise
        return src

    @property
    def chunk_games(self) -> int:
        return self.cfg.selfplay.chunk_games or self.cfg.selfplay.parallel_games

    def _spawn(self, model) -> None:
        c, n = self.cfg, self.cfg.trainer.actors
        opts = {"num_cpus": 1, "max_restarts": c.ray.max_restarts, "max_task_retries": 0,
                "scheduling_strategy": "SPREAD"}
        if c.selfplay.device == "cuda":
            opts["num_gpus"] = c.selfplay.gpus_per_actor
        remote = ray.remote(SelfPlayActor).options(**opts)
        args = (c.game.name, dict(c.game.params), model.cfg.to_dict(), c.selfplay.device,
                c.trainer.torch_threads, c.game.module)
        self.actors = [remote.remote(i, *args) for i in range(n)]
        self.sent = [0] * n
        try:
            where = ray.get([a.whereabouts.remote() for a in self.actors],
                            timeout=c.ray.start_timeout_s)
        except GetTimeoutError as e:
            raise IszError(f"{n} self-play actors did not start within ray.start_timeout_s="
                           f"{c.ray.start_timeout_s:g}s; see the Ray logs "
                           "(/tmp/ray/session_latest/logs)") from e
        self.pids, self.nodes = [w[0] for w in where], [w[1] for w in where]
        self._write_pids()

    def _write_pids(self) -> None:
        """``<run_dir>/actors.json``: the actors' process ids (to watch or kill one) and
        Ray node ids."""
        write_json_atomic(self.run_dir / "actors.json", {"pids": self.pids,
                                                         "nodes": self.nodes})

    def publish(self, model, version: int) -> None:
        """Put the weights (CPU tensors) in the object store once; later requests carry them."""
        state = {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}
        self.weights = [ray.put(state)]
        self.version = version

    def _submit(self, i: int) -> None:
        seed = [self.cfg.trainer.seed, self.version, i, self.sent[i]]
        self.sent[i] += 1
        ref = self.actors[i].play_chunk.remote(self.weights, self.version, self.sp_cfg,
                                               self.chunk_games, seed)
        self.pending[ref] = (i, "chunk")
        self.prefetch.add(ref)

    def _fill(self) -> None:
        for i in range(len(self.actors)):
            if i in self.health.gone:
                continue
            queued = sum(1 for a, kind in self.pending.values() if a == i and kind == "chunk")
            for _ in range(self.cfg.ray.inflight - queued - self.health.owed[i]):
                self._submit(i)

    def collect(self, st, sp_cfg: SelfPlayConfig, games: int, progress=None):
        """Fresh chunks until ``games`` games are in; (positions, stats, scalars).
        ``progress(n)``: n more games are in."""
        self.sp_cfg = sp_cfg
        for k in COUNTERS:
            st.counters.setdefault(k, 0)
        self._fill()
        acc = ChunkStats(len(self.actors))
        while acc.games < games:
            chunk = self._next(st.counters)
            if chunk is None:
                continue
            i = chunk.actor
            lag = self.version - chunk.version
            if lag > self.cfg.trainer.max_staleness:
                st.counters["dropped_positions"] += len(chunk.positions)
                acc.dropped(chunk, lag)
            else:
                before = acc.games
                acc.add(chunk, lag, self._queue_depth(i))
                if progress is not None:
                    progress(min(acc.games, games) - min(before, games))
            self._submit(i)
        pos, stats = acc.merged()
        scalars = acc.scalars()
        scalars.update({f"selfplay/{k}": float(st.counters[k]) for k in COUNTERS})
        return pos, stats, scalars

    def _next(self, counters) -> Chunk | None:
        """The next finished request's chunk (None: it failed, or it was a probe)."""
        limit = self.cfg.ray.result_timeout_s
        deadline = time.monotonic() + limit
        while True:
            wait = min(deadline, self.health.next_probe()) - time.monotonic()
            ready, _ = ray.wait(list(self.pending), num_returns=1, timeout=max(wait, 0.0))
            if ready:
                break
            if time.monotonic() >= deadline:
                raise IszError(f"no self-play actor finished a chunk within "
                               f"ray.result_timeout_s={limit:g}s; see the Ray logs "
                               "(/tmp/ray/session_latest/logs)")
            for i in self.health.probes_due():
                self._probe(i)
        ref = ready[0]
        i, kind = self.pending.pop(ref)
        self.prefetch.discard(ref)
        try:
            out = ray.get(ref)
        except (RayActorError, ObjectLostError) as e:
            if self.health.failed(i, kind, e, counters, self.chunk_games):
                self._probe(i)
            return None
        if kind == "probe":  # back after a restart: record where it is, resend what it owed
            self.pids[i], self.nodes[i] = out
            self._write_pids()
            for _ in range(self.health.back(i)):
                self._submit(i)
            return None
        return out

    def _probe(self, i: int) -> None:
        self.pending[self.actors[i].whereabouts.remote()] = (i, "probe")

    def _queue_depth(self, i: int) -> int:
        """Finished chunks of actor ``i`` waiting for the learner."""
        refs = [r for r, (a, kind) in self.pending.items() if a == i and kind == "chunk"]
        ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0) if refs else ([], [])
        return len(ready)

    def close(self) -> None:
        self.prefetch.close()
        for a in self.actors:
            ray.kill(a, no_restart=True)
        self.actors, self.pending = [], {}
        if self.owns_ray and ray.is_initialized():
            ray.shutdown()

