"""Validation of agent knobs: every bad value is named with what is allowed."""

from __future__ import annotations

from isz.types import IszError, check_choice, check_int

FINAL_RULES = ("most_visits", "best_mean", "visit_distribution")
SELECTIONS = ("ucb", "smooth")


def check_knobs(agent: str, knobs: dict, allowed: dict) -> dict:
    """Merge ``knobs`` over the defaults in ``allowed``; unknown names raise `IszError`."""
    unknown = sorted(set(knobs) - set(allowed))
    if unknown:
        raise IszError(f"unknown knob(s) {', '.join(unknown)} for agent {agent!r}; "
                       f"allowed: {', '.join(sorted(allowed))}")
    return {**allowed, **knobs}


def check_budget(iterations, time_budget) -> tuple[int | None, float | None]:
    """``(iterations, seconds)`` of a search: iterations >= 1 unless a time budget
    (seconds > 0) is set, when ``iterations=None`` means no iteration cap."""
    if time_budget is None:
        return check_int("iterations", iterations, lo=1), None
    if isinstance(time_budget, bool) or not isinstance(time_budget, (int, float)) \
            or time_budget <= 0:
        raise IszError(f"time_budget must be a positive number of seconds, got {time_budget!r}")
    its = None if iterations is None else check_int("iterations", iterations, lo=1)
    return its, float(time_budget)


def check_search_knobs(k: dict) -> None:
    """Common search knobs: iterations / time_budget / c / final."""
    check_budget(k["iterations"], k.get("time_budget"))
    c = k["c"]
    if isinstance(c, bool) or not isinstance(c, (int, float)) or c < 0:
        raise IszError(f"c (exploration constant) must be a number >= 0, got {c!r}")
    check_choice("final-move rule", k["final"], FINAL_RULES)
    check_choice("selection", k["selection"], SELECTIONS)
    sp = k["smooth_params"]
    if len(tuple(sp)) != 3 or not all(isinstance(x, (int, float)) and x >= 0 for x in sp):
        raise IszError(f"smooth_params must be (eta, gamma, d), three numbers >= 0, got {sp!r}")
