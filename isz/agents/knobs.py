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


def check_search_knobs(k: dict) -> None:
    """Common search knobs: iterations / time_budget / c / final."""
    if k.get("time_budget") is None:
        check_int("iterations", k["iterations"], lo=1)
    else:
        tb = k["time_budget"]
        if isinstance(tb, bool) or not isinstance(tb, (int, float)) or tb <= 0:
            raise IszError(f"time_budget must be a positive number of seconds, got {tb!r}")
        if k.get("iterations") is not None:
            check_int("iterations", k["iterations"], lo=1)
    c = k["c"]
    if isinstance(c, bool) or not isinstance(c, (int, float)) or c < 0:
        raise IszError(f"c (exploration constant) must be a number >= 0, got {c!r}")
    check_choice("final-move rule", k["final"], FINAL_RULES)
    check_choice("selection", k["selection"], SELECTIONS)
    sp = k["smooth_params"]
    if len(tuple(sp)) != 3 or not all(isinstance(x, (int, float)) and x >= 0 for x in sp):
        raise IszError(f"smooth_params must be (eta, gamma, d), three numbers >= 0, got {sp!r}")
