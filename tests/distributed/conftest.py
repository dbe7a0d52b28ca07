"""One local Ray for the whole session (starting Ray costs seconds on 2 cores).

Tests that use it carry ``xdist_group("ray")`` so that `make test`
(``--dist loadgroup``) runs them in one worker, on one Ray instance.
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
