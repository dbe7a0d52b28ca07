"""What crossing Ray nodes costs: ``python -m isz.distributed.crossing``.

Starts a two-node Ray cluster on this machine (`ray.cluster_utils.Cluster`: a
head node, where this driver runs, and a worker node, one CPU each) and
times, with a probe actor pinned first to the head node (same node) and then
to the worker node (cross node), the three things a run moves between nodes:

- ``publish``: the learner's ``ray.put`` of an Oh Hell-size network's weights
  (``experiment=oh_hell``: width 256, depth 2) and the actor's ``ray.get`` of
  them (a fresh object each round, so it is really fetched);
- ``chunk``: a chunk of Oh Hell positions made by the actor (``selfplay.
  parallel_games`` games x 33 decisions x 3 training rows) taken by the
  learner (``ray.get`` once it is finished);
- ``call``: the round trip of an empty actor call (what a match pays per call
  besides the deals' outcomes, a few hundred bytes each).

On one machine "cross node" is a transfer between two object stores over
loopback TCP: a lower bound on two machines' cost; add bytes / bandwidth of
the real network. Prints one JSON line per row (median and spread over rounds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from isz.games.registry import make_game
from isz.nn.model import ModelConfig, build_model
from isz.selfplay import Positions

DECISIONS, ROWS_PER_DECISION = 33, 3  # Oh Hell: 3 bids + 30 card plays; value rows of 3 seats


class _Probe:
    """The far end of each measurement."""

    def fetch(self, box: list) -> float:
        t0 = time.perf_counter()
        state = ray.get(box[0])
        assert state  # touch it
        return time.perf_counter() - t0

    def chunk(self, rows: int, tensor_size: int, actions: int, players: int) -> Positions:
        rng = np.random.default_rng(rows)
        return Positions(rng.random((rows, tensor_size), dtype=np.float32),
                         rng.random((rows, actions)) < 0.5,
                         rng.random((rows, actions), dtype=np.float32),
                         rng.integers(0, players, rows), rng.random((rows, players),
                                                                    dtype=np.float32))

    def ping(self) -> int:
        return 1


def _median_ms(xs: list[float]) -> dict:
    ms = sorted(1000 * x for x in xs)
    return {"ms": round(statistics.median(ms), 2), "min_ms": round(ms[0], 2),
            "max_ms": round(ms[-1], 2)}


def measure(probe, weights: dict, chunk_args: tuple, rounds: int) -> dict[str, dict]:
    """Timings with ``probe`` (an actor handle) wherever it was placed."""
    ray.get(probe.ping.remote())
    put, get = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        box = [ray.put(weights)]
        put.append(time.perf_counter() - t0)
        get.append(ray.get(probe.fetch.remote(box)))
    take = []
    for _ in range(rounds):
        ref = probe.chunk.remote(*chunk_args)
        ray.wait([ref], fetch_local=False)  # made, still on the probe's node
        t0 = time.perf_counter()
        ray.get(ref)
        take.append(time.perf_counter() - t0)
        del ref
    calls = []
    for _ in range(rounds * 10):
        t0 = time.perf_counter()
        ray.get(probe.ping.remote())
        calls.append(time.perf_counter() - t0)
    return {"put": _median_ms(put), "publish": _median_ms(get), "chunk": _median_ms(take),
            "call": _median_ms(calls)}


def rows(rounds: int = 7, games: int = 64) -> list[dict]:
    """One row per measurement: bytes, same-node and cross-node times."""
    from ray.cluster_utils import Cluster

    game = make_game("oh_hell")
    model = build_model(game, ModelConfig(width=256, depth=2))
    weights = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
    n = games * DECISIONS * ROWS_PER_DECISION
    chunk_args = (n, game.tensor_size, game.num_actions, game.num_players)
    cluster = Cluster(initialize_head=True, connect=True, head_node_args={
        "num_cpus": 1, "include_dashboard": False, "object_store_memory": 400 * 2**20})
    worker = cluster.add_node(num_cpus=1, object_store_memory=400 * 2**20)
    cluster.wait_for_nodes()
    try:
        out = {}
        for where, node in (("same_node", cluster.head_node), ("cross_node", worker)):
            pin = NodeAffinitySchedulingStrategy(node.node_id, soft=False)
            probe = ray.remote(num_cpus=1)(_Probe).options(scheduling_strategy=pin).remote()
            out[where] = measure(probe, weights, chunk_args, rounds)
            ray.kill(probe)
    finally:
        ray.shutdown()
        cluster.shutdown()
    w_bytes = sum(v.numel() * v.element_size() for v in weights.values())
    c_bytes = n * (4 * game.tensor_size + 5 * game.num_actions + 8 + 4 * game.num_players)
    sizes = {"put": w_bytes, "publish": w_bytes, "chunk": c_bytes, "call": 0}
    what = {"put": "learner ray.put of the weights (no transfer)",
            "publish": "an actor fetches freshly published weights",
            "chunk": f"the learner takes a chunk of {games} games ({n} rows)",
            "call": "round trip of an empty actor call"}
    return [{"bench": "ray_crossing", "what": what[k], "key": k, "bytes": sizes[k],
             "rounds": rounds, "same_node": out["same_node"][k],
             "cross_node": out["cross_node"][k]} for k in what]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--games", type=int, default=64, help="games per chunk")
    a = ap.parse_args()
    for row in rows(a.rounds, a.games):
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
