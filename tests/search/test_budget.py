"""Budget.chunks: iteration budgets exactly; wall budgets end near the deadline (fake clock)."""

from __future__ import annotations

import pytest

from isz.search import driver
from isz.search.driver import Budget


def test_iteration_budget_is_exact():
    assert sum(Budget(iterations=600).chunks()) == 600
    assert list(Budget(iterations=600).chunks()) == [256, 256, 88]


@pytest.mark.parametrize("seconds", [0.001, 0.02, 0.5])
def test_wall_budget_does_not_overshoot(monkeypatch, seconds):
    """Each iteration costs 10 us of a fake clock (about a rollout iteration of
    oh_hell): the search stops within a few iterations of the budget, also when the
    budget is shorter than one fixed chunk of 256 (the old overshoot: 2.56 ms for a
    1 ms budget, PIMC's 20 ms over 20 worlds)."""
    clock = [0.0]
    monkeypatch.setattr(driver.time, "perf_counter", lambda: clock[0])
    done = 0
    for n in Budget(seconds=seconds).chunks():
        done += n
        clock[0] += n * 1e-5
    assert seconds <= clock[0] <= seconds * 1.05 + 2e-5
    assert done == pytest.approx(seconds / 1e-5, rel=0.05, abs=2)


def test_both_budgets_stop_at_the_first():
    assert sum(Budget(iterations=100, seconds=10.0).chunks()) == 100
