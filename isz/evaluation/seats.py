"""Per-seat figures of a two-outcome game and the time each agent takes per decision.

`MatchResult.seat_scores` gives each agent's mean score in each seat; in a
game whose every game ends in a win or a loss (recon: no ties), an agent's
games in one seat are independent 0/1 outcomes over the deals, so the
standard error of that seat's score is ``sqrt(p (1 - p) / (deals - 1))``
(the sample standard deviation over deals, ddof 1, divided by sqrt(deals)).
`Timed` wraps an agent to measure its seconds per decision (equal-time
matchups give rollout search the planner's measured time).
"""

from __future__ import annotations

import math
import time

import numpy as np

from isz.agents.base import Agent
from isz.evaluation.result import MatchResult
from isz.games.base import View


def seat_se(p: float, deals: int) -> float:
    """SE of a seat's mean of ``deals`` 0/1 outcomes with mean ``p`` (NaN for 1 deal)."""
    return math.sqrt(p * (1.0 - p) / (deals - 1)) if deals > 1 else math.nan


def seat_rows(result: MatchResult) -> list[dict]:
    """One dict per agent: name, score and SE, and per seat its score and SE."""
    return [{"name": a.name, "score": a.score, "score_se": a.score_se,
             "seats": [{"score": s, "se": seat_se(s, result.deals)} for s in a.seat_scores]}
            for a in result.agents]


class Timed(Agent):
    """``agent`` with a clock: ``seconds`` and ``decisions`` accumulate over `act`."""

    def __init__(self, agent: Agent):
        super().__init__(agent.game)
        self.agent, self.name, self.cheats = agent, agent.name, agent.cheats
        self.seconds, self.decisions = 0.0, 0

    @property
    def per_decision(self) -> float:
        return self.seconds / max(self.decisions, 1)

    def reset(self) -> None:
        self.agent.reset()

    def act(self, view: View, rng: np.random.Generator) -> int:
        t0 = time.perf_counter()
        a = self.agent.act(view, rng)
        self.seconds += time.perf_counter() - t0
        self.decisions += 1
        return a

    def act_cheating(self, state, rng: np.random.Generator) -> int:
        return self.agent.act_cheating(state, rng)
