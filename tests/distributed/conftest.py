"""One Ray per test process (starting Ray costs seconds on 2 cores): a local one
(`local_ray`), or a two-node cluster on this machine (`two_nodes`, which stops
the local one; the next `local_ray` test starts it again).

Under ``pytest -n 2`` each worker that runs a Ray test starts its own (at most
two). ``--dist loadgroup`` would put them on one worker, but with pytest 9.2
and pytest-xdist 3.8 it does not group (the group suffix never reaches the
node id), so the suite does not rely on it.
"""

from __future__ import annotations

import logging

import pytest
import ray

_UP = {"local": False}


@pytest.fixture
def local_ray():
    if not (_UP["local"] and ray.is_initialized()):
        ray.shutdown()
        ray.init(address="local", num_cpus=2, num_gpus=0, include_dashboard=False,
                 object_store_memory=96 * 2**20, logging_level=logging.WARNING)
        _UP["local"] = True
    yield ray


@pytest.fixture(scope="module")
def two_nodes():
    """A head node and a worker node, one CPU each, as two machines would be; the
    driver (this process) joins the head. Yields the `Cluster` (``add_node`` a new
    worker node after a test removed one)."""
    from ray.cluster_utils import Cluster

    ray.shutdown()
    _UP["local"] = False
    store = {"object_store_memory": 80 * 2**20}
    cluster = Cluster(initialize_head=True, connect=True,
                      head_node_args={"num_cpus": 1, "include_dashboard": False, **store})
    cluster.add_node(num_cpus=1, **store)
    cluster.wait_for_nodes()
    yield cluster
    ray.shutdown()
    cluster.shutdown()
