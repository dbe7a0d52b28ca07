"""The seed's score convention and the statistics the arena reports.

One game gives each seat a score in [0, 1]:

- 1 player: ``(return + 1) / 2`` (coin_guess: safe 0.6, right guess 1, wrong 0);
- n >= 2 players, by rank: ``(#other seats with a lower return
  + 0.5 * #other seats with an equal return) / (n - 1)``, which for two
  players is win 1, tie 0.5, loss 0.

Standard errors are taken over deals, not games: the games of one deal (its
seat rotations) share the deal's luck, so they are averaged first and the
deals are the independent samples.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

_TIE_TOL = 1e-9  # returns are sums of a few floats; equal outcomes can differ in the last bit


def game_scores(returns: Sequence[float]) -> np.ndarray:
    """Per-seat scores in [0, 1] of one finished game (see module docstring).

    Args:
        returns: one return per seat, in [-1, 1].
    Returns:
        float64[n], the score of each seat.
    """
    r = np.asarray(returns, dtype=np.float64)
    n = r.shape[0]
    if n == 1:
        return (r + 1.0) / 2.0
    diff = r[:, None] - r[None, :]  # diff[i, j] = r_i - r_j
    lower = (diff > _TIE_TOL).sum(axis=1)
    equal = (np.abs(diff) <= _TIE_TOL).sum(axis=1) - 1  # minus the seat itself
    return (lower + 0.5 * equal) / (n - 1)


def mean_and_se(per_deal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard error over axis 0 (deals) of a ``[deals, k]`` array.

    The SE is ``std(ddof=1) / sqrt(deals)``; NaN with a single deal, where it
    is undefined.
    """
    deals = per_deal.shape[0]
    mean = per_deal.mean(axis=0)
    if deals < 2:
        return mean, np.full_like(mean, math.nan)
    return mean, per_deal.std(axis=0, ddof=1) / math.sqrt(deals)
