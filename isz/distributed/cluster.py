"""Starting or joining Ray, with every misconfiguration caught before any work.

``ray.address`` null starts a new local Ray (``address="local"``: never an
unrelated instance found on the machine) with ``ray.num_cpus`` CPUs, the
GPUs torch sees, no dashboard and a small object store. ``auto`` joins the
cluster started on this machine by ``ray start``; ``host:port`` joins that
cluster's head, checked first with a plain TCP connection so an unreachable
address fails in seconds instead of Ray's long retry loop.
"""

from __future__ import annotations

import logging
import os
import socket

import ray
import torch

from isz.types import IszError

CONNECT_TIMEOUT_S = 5.0


def _check_reachable(address: str) -> None:
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise IszError(f"ray.address {address!r} is not host:port, auto or null")
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as e:
        raise IszError(f"ray.address {address!r} is unreachable ({e}); start the head with "
                       "`ray start --head` there, or leave ray.address null for a local Ray"
                       ) from e


def connect(rcfg) -> bool:
    """Initialise Ray from ``rcfg`` (`RayCfg`); returns whether this call started it
    (False: Ray was already initialised in this process, e.g. by a test fixture)."""
    if rcfg.address not in (None, "auto"):
        _check_reachable(rcfg.address)
    if ray.is_initialized():
        return False
    quiet = {"include_dashboard": False, "logging_level": logging.WARNING,
             "configure_logging": True}
    if rcfg.address is None:
        cpus, gpus = local_resources(rcfg)
        ray.init(address="local", num_cpus=cpus, num_gpus=gpus,
                 object_store_memory=rcfg.object_store_mb * 2**20, **quiet)
        return True
    try:
        ray.init(address=rcfg.address, **quiet)
    except (ConnectionError, RuntimeError) as e:
        raise IszError(f"cannot join the Ray cluster at ray.address={rcfg.address!r}: "
                       f"{str(e).splitlines()[0]}") from e
    return True


def local_resources(rcfg) -> tuple[int, int]:
    """CPUs and GPUs a new local Ray gets: ``ray.num_cpus`` (or this process's
    cores) and the CUDA devices torch sees."""
    cpus = rcfg.num_cpus or len(os.sched_getaffinity(0))
    return cpus, torch.cuda.device_count() if torch.cuda.is_available() else 0


def check_resources(actors: int, device: str, gpus_per_actor: float,
                    have: dict[str, float]) -> None:
    """IszError unless ``have`` (Ray resources) holds a CPU per actor, and on
    ``device=cuda`` each actor's GPU share."""
    cpus = int(have.get("CPU", 0))
    if actors > cpus:
        raise IszError(f"trainer.actors={actors} needs {actors} CPUs (one per actor) but the "
                       f"Ray cluster has {cpus}; lower trainer.actors or add nodes "
                       "(ray.num_cpus for a local Ray)")
    if device == "cuda":
        need, gpus = actors * gpus_per_actor, have.get("GPU", 0.0)
        if need > gpus:
            raise IszError(f"selfplay.device=cuda needs {need:g} GPUs "
                           f"(trainer.actors x selfplay.gpus_per_actor) but the Ray cluster "
                           f"has {gpus:g}; use selfplay.device=cpu")


def shutdown() -> None:
    """Stop this process's Ray connection (and the local Ray it started)."""
    if ray.is_initialized():
        ray.shutdown()
