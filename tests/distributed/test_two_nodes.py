"""Two Ray nodes on this machine standing in for two machines (`two_nodes`: a head
and a worker node, one CPU each): training with self-play actors on both, a match
spread over both, and the worker node lost mid-run: the run goes on with what is
left, loses no finished game and says how many it lost.

Slow (a cluster starts in 10-30 s here): ``pytest -m slow tests/distributed/test_two_nodes.py``.
"""

from __future__ import annotations

import json
import threading
import time

import numpy as np
import pytest
import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from isz.distributed import RayMatches
from isz.distributed.prefetch import Prefetch
from isz.evaluation import MatchSpec, SeatSpec, play_match
from isz.nn.checkpoint import load_checkpoint
from isz.training import loop
from tests.distributed.test_actors import _cfg

# a Ray start that hangs fails its test instead of stalling the suite
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600, method="thread")]


def _worker_node(cluster):
    """The cluster's worker node (a new one if a test removed it)."""
    if not cluster.worker_nodes:
        cluster.add_node(num_cpus=1, object_store_memory=80 * 2**20)
        cluster.wait_for_nodes()
    return next(iter(cluster.worker_nodes))


def _alive() -> set[str]:
    return {n["NodeID"] for n in ray.nodes() if n["Alive"]}


def _spec(deals: int) -> MatchSpec:
    return MatchSpec("tricks", (SeatSpec("so_ismcts", {"iterations": 20}),
                                SeatSpec("pimc", {"iterations": 20, "determinizations": 2})),
                     deals, 7)


def _same(a, b) -> None:
    np.testing.assert_array_equal(a.deal_scores, b.deal_scores)
    assert [x.utility for x in a.agents] == [y.utility for y in b.agents]
    assert [x.decisions for x in a.agents] == [y.decisions for y in b.agents]


def test_training_places_self_play_actors_on_both_nodes(two_nodes, tmp_path):
    _worker_node(two_nodes)
    run = tmp_path / "run"
    loop.train(_cfg(run, iterations=2, actors=2))
    nodes = json.loads((run / "actors.json").read_text())["nodes"]
    assert len(_alive()) == 2 and set(nodes) == _alive()
    assert load_checkpoint(run / "checkpoints" / "last.pt")["counters"]["games"] == 32


def test_a_match_spread_over_both_nodes_equals_the_local_pool(two_nodes):
    _worker_node(two_nodes)
    spec = _spec(8)
    with RayMatches(workers=2) as backend:
        res = play_match(spec, backend, progress=False)
        assert set(backend.nodes) == _alive() and len(_alive()) == 2
    _same(play_match(spec, progress=False), res)


def test_a_match_goes_on_when_the_worker_node_is_lost(two_nodes, capfd):
    node = _worker_node(two_nodes)
    spec = _spec(12)
    backend = RayMatches(workers=2)
    removed = []

    def lose_the_node(n):  # once the first deal is back, the second machine goes away
        if not removed:
            two_nodes.remove_node(node)
            removed.append(node)

    with backend:
        res = play_match(spec, backend, progress=lose_the_node)
        assert backend.deaths == 1 and backend.replayed >= 1
    _same(play_match(spec, progress=False), res)
    assert "died" in capfd.readouterr().err


def test_training_goes_on_when_the_worker_node_is_lost(two_nodes, tmp_path, capfd):
    """The learner (and one actor) on the head, one actor on the worker node; the
    worker node is removed after the first checkpoint: the run ends with every game
    it asked for, counts one death and exactly the chunk that actor was playing."""
    node = _worker_node(two_nodes)
    run = tmp_path / "run"
    cfg = _cfg(run, iterations=24, actors=2)
    cfg.trainer.steps_per_iteration = 20
    errors = []

    def train():
        try:
            loop.train(cfg)
        except BaseException as e:  # reported by the test thread
            errors.append(e)

    th = threading.Thread(target=train)
    th.start()
    last = run / "checkpoints" / "last.pt"
    deadline = time.time() + 300
    while not last.exists() and time.time() < deadline and th.is_alive():
        time.sleep(0.05)
    assert last.exists(), errors
    two_nodes.remove_node(node)
    th.join(timeout=900)
    assert not th.is_alive() and not errors, errors
    c = load_checkpoint(last)["counters"]
    assert c["iteration"] == 24 and c["games"] == 24 * 16
    assert c["actor_deaths"] == 1 and c["lost_games"] == cfg.selfplay.parallel_games
    err = capfd.readouterr().err
    assert "the run has lost 8 game(s) in 1 death(s); 1 of 2 actor(s) playing" in err


class _Maker:
    def make(self, n: int) -> np.ndarray:
        return np.arange(n, dtype=np.float32)


def test_prefetched_results_survive_the_loss_of_their_node(two_nodes):
    """A result left in the lost node's object store is lost with it (the control);
    one `Prefetch` copied to the driver's node is not."""
    node = _worker_node(two_nodes)
    pin = NodeAffinitySchedulingStrategy(node.node_id, soft=False)
    maker = ray.remote(num_cpus=1)(_Maker).options(scheduling_strategy=pin).remote()
    kept, left = maker.make.remote(1_000_000), maker.make.remote(1_000_000)  # 4 MB each
    ray.wait([left], fetch_local=False, timeout=60)
    fetch = Prefetch()
    fetch.add(kept)
    deadline = time.time() + 60
    while fetch.refs and time.time() < deadline:
        time.sleep(0.05)
    fetch.close()
    two_nodes.remove_node(node)
    assert ray.get(kept, timeout=60)[-1] == 999_999
    with pytest.raises(ray.exceptions.ObjectLostError):
        ray.get(left, timeout=60)
