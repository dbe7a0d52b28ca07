"""Agents whose settings are declared in `isz.settings.agents`: knobs resolved
through the agent's `Group` (unknown names, bad values: one-line `IszError`), the
search budget, and a one-line description of what the agent will do."""

from __future__ import annotations

from collections.abc import Mapping

from isz.agents.base import Agent
from isz.games.base import Game
from isz.settings import Group
from isz.types import IszError


def check_knobs(agent: str, knobs: dict, allowed: dict) -> dict:
    """Merge ``knobs`` over the defaults in ``allowed``; unknown names raise `IszError`
    (for agents registered with a plain dict of knob defaults)."""
    unknown = sorted(set(knobs) - set(allowed))
    if unknown:
        raise IszError(f"unknown knob(s) {', '.join(unknown)} for agent {agent!r}; "
                       f"allowed: {', '.join(sorted(allowed))}")
    return {**allowed, **knobs}


def resolve_settings(group: Group, knobs: Mapping, who: str) -> dict:
    """``knobs`` resolved by ``group``. A ``time_budget`` given without ``iterations``
    means that time alone: the ``iterations`` default is no hidden cap."""
    if "time_budget" in group and knobs.get("time_budget") is not None \
            and "iterations" not in knobs:
        knobs = {**knobs, "iterations": None}
    return group.resolve(knobs, who)


def budget_text(iterations: int | None, seconds: float | None) -> str:
    """``1000 iterations``, ``0.05 s (no iteration cap)`` or ``0.05 s or 1000
    iterations, whichever comes first`` (a decision's budget)."""
    if seconds is None:
        return f"{iterations} iterations a decision"
    if iterations is None:
        return f"{seconds:g} s a decision (no iteration cap)"
    return f"{seconds:g} s or {iterations} iterations a decision, whichever comes first"


def _shown(value) -> str:
    if value is None or isinstance(value, (bool, int, float, str, tuple, list, dict)):
        return repr(value)
    return type(value).__name__


class ConfiguredAgent(Agent):
    """An agent whose knobs are its `SETTINGS` group's (``self.knobs``: every setting,
    resolved); ``iterations`` / ``time_budget`` are its budget."""

    SETTINGS: Group

    def __init__(self, game: Game, **knobs):
        super().__init__(game)
        self.knobs = resolve_settings(self.SETTINGS, knobs, self.name)
        self.iterations = self.knobs.get("iterations")
        self.time_budget = self.knobs.get("time_budget")

    def describe(self) -> str:
        """``name(game; budget; settings that differ from the defaults)``."""
        parts = [repr(self.game)]
        if "iterations" in self.knobs:
            parts.append(budget_text(self.iterations, self.time_budget))
        changed = [f"{k}={_shown(v)}" for k, v in self.knobs.items()
                   if k not in ("iterations", "time_budget") and v != self.SETTINGS[k].default]
        if changed:
            parts.append(", ".join(changed))
        return f"{self.name}({'; '.join(parts)})"
