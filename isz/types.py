"""Shared vocabulary of every layer: players, actions, markers, errors.

Actions are small non-negative integers in a fixed per-game action space
(`Game.num_actions`); chance outcomes are small non-negative integers in their
own space (`Game.max_chance_outcomes`). `current_player()` returns a seat index
``0..num_players-1`` or one of the markers below.
"""

from __future__ import annotations

import numpy as np

Action = int
Player = int
Rng = np.random.Generator

CHANCE: int = -1
"""`current_player()` at a chance node (deals, sensor noise)."""
TERMINAL: int = -2
"""`current_player()` once the game is over."""


class IszError(ValueError):
    """Bad input from a user: the message names the value and what is allowed."""


class IllegalActionError(IszError):
    """An action that is not legal in the current state."""


def check_choice(what: str, value, allowed) -> None:
    """Raise `IszError` unless `value` is one of `allowed` (listed in the message)."""
    allowed = list(allowed)
    if value not in allowed:
        raise IszError(f"unknown {what} {value!r}; allowed: {', '.join(map(str, allowed))}")


def check_int(what: str, value, lo: int | None = None, hi: int | None = None) -> int:
    """Return `value` as int, raising `IszError` unless it is an integer in [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise IszError(f"{what} must be an integer, got {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        lo_s = "-inf" if lo is None else lo
        hi_s = "inf" if hi is None else hi
        raise IszError(f"{what} must be in [{lo_s}, {hi_s}], got {value}")
    return int(value)


def check_fraction(what: str, value, meaning: str) -> float:
    """Return `value` as float, raising `IszError` unless it is a number in [0, 1];
    ``meaning`` says what the ends mean (e.g. ``"0: final return, 1: root value"``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not 0 <= value <= 1:
        raise IszError(f"{what} must be a number in [0, 1] ({meaning}), got {value!r}")
    return float(value)


def seed_from(rng: Rng) -> int:
    """Draw a 63-bit seed for a compiled kernel from a numpy Generator."""
    return int(rng.integers(0, 2**63 - 1))
