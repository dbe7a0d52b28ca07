"""One local Ray per test process (starting Ray costs seconds on 2 cores).

Under ``pytest -n 2`` each worker that runs a Ray test starts its own (at most
two). ``--dist loadgroup`` would put them on one worker, but with pytest 9.2
and pytest-xdist 3.8 it does not group (the group suffix never reaches the
node id), so the suite does not rely on it.
"""

from __future__ import annotations

import logging

import pytest
import ray


@pytest.fixture(scope="session")
def local_ray():
    ray.init(address="local", num_cpus=2, num_gpus=0, include_dashboard=False,
             object_store_memory=96 * 2**20, logging_level=logging.WARNING)
    yield ray
    ray.shutdown()
