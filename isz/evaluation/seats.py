"""Per-seat figures of a game whose every game is a win or a loss (recon: no ties).

`MatchResult.seat_scores` gives each agent's mean score in each seat; its
games in one seat are then independent 0/1 outcomes over the deals, so the
standard error of that seat's score is ``sqrt(p (1 - p) / (deals - 1))`` (the
sample standard deviation over deals, ddof 1, divided by sqrt(deals)).
"""

from __future__ import annotations

import math

from isz.evaluation.result import MatchResult


def seat_se(p: float, deals: int) -> float:
    """SE of a seat's mean of ``deals`` 0/1 outcomes with mean ``p`` (NaN for 1 deal)."""
    return math.sqrt(p * (1.0 - p) / (deals - 1)) if deals > 1 else math.nan


def seat_rows(result: MatchResult) -> list[dict]:
    """One dict per agent: name, score and SE, per seat its score and SE, and its mean
    seconds and simulations per decision."""
    return [{"name": a.name, "score": a.score, "score_se": a.score_se,
             "seats": [{"score": s, "se": seat_se(s, result.deals)} for s in a.seat_scores],
             "seconds_per_decision": a.seconds_per_decision,
             "simulations_per_decision": a.simulations_per_decision}
            for a in result.agents]
