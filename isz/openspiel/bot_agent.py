"""The base of the OpenSpiel bot agents: knobs, the view-to-OpenSpiel step, timing.

The agent sees only its view, like every isz agent. Per decision it builds
one world consistent with the view (`OpenSpielBotAgent.world`), replays it
into an OpenSpiel state through the game's `Twin`, and runs a fresh OpenSpiel
bot, seeded from the decision's generator, on that state. Subclasses say
which world (`world`) and which bot (`_bot`); `isz.openspiel.bots` has both.
"""

from __future__ import annotations

import time

import numpy as np

from isz.agents.base import Agent
from isz.agents.knobs import check_knobs
from isz.belief import Belief, make_belief
from isz.games.base import Game, State, View
from isz.openspiel.twin import openspiel_twin, pyspiel
from isz.types import IszError, check_choice, check_int

KNOBS = {"iterations": 1000, "time_budget": None, "uct_c": 2.0, "final": "most_visits",
         "rollouts": 1, "belief": None}
SEED_HIGH = 2**31 - 1  # OpenSpiel bots take a C++ int seed
FIRST_COUNT = 64  # simulations of the first timed decision (then paced by the clock)
MIN_COUNT = 2  # OpenSpiel's ISMCTS and MCTS need two simulations to have a policy


def check_number(what: str, value, positive: bool) -> float:
    """``value`` as float; `IszError` unless a finite number >= 0 (> 0 if ``positive``)."""
    bad = isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) \
        or not np.isfinite(value) or value < 0 or (positive and value == 0)
    if bad:
        raise IszError(f"{what} must be a {'positive' if positive else 'non-negative'} "
                       f"number, got {value!r}")
    return float(value)


class OpenSpielBotAgent(Agent):
    """Base of the OpenSpiel bot agents (knobs: `isz.openspiel.bots`)."""

    FINALS: tuple[str, ...] = ("most_visits",)
    KNOBS: dict = KNOBS
    SKIPS_FORCED = False  # the bot returns at once when only one move is legal
    last_simulations: float = 0  # of the last decision, for the arena's report (NaN: unknown)

    def __init__(self, game: Game, **knobs):
        super().__init__(game)
        k = check_knobs(self.name, knobs, self.KNOBS)
        self.time_budget = (None if k["time_budget"] is None
                            else check_number("time_budget", k["time_budget"], True))
        if k["iterations"] is None and self.time_budget is None:
            raise IszError(f"{self.name} needs iterations (an integer >= {MIN_COUNT}) or "
                           "time_budget")
        # under a time budget, iterations is not used (and may be None)
        self.iterations = MIN_COUNT if k["iterations"] is None else check_int(
            "iterations", k["iterations"], lo=MIN_COUNT)
        self.uct_c = check_number("uct_c", k["uct_c"], False)
        check_choice(f"final-move rule of {self.name}", k["final"], self.FINALS)
        self.rollouts = check_int("rollouts", k["rollouts"], lo=1)
        self.knobs = k
        self.twin = openspiel_twin(game)
        self._count = FIRST_COUNT  # simulations of the next timed search (see `_timed`)
        b = k["belief"] or ("voids" if game.name == "tricks" else "uniform")
        self.belief = b if isinstance(b, Belief) else make_belief(b, game)

    def reset(self) -> None:
        self.belief.reset()

    # -- to implement --------------------------------------------------
    def world(self, view: View, rng: np.random.Generator) -> State:
        """The world the bot starts from (a legal history consistent with ``view``)."""
        return self.belief.sample(view, rng)

    def _bot(self, seed: int, simulations: int, seconds: float = -1.0):
        """A fresh OpenSpiel bot: ``simulations`` per search, or a clock of ``seconds``
        when positive (only where `_timed` uses one)."""
        raise NotImplementedError

    def _timed(self, os_state, seed: int, seconds: float):
        """A search of about ``seconds``: as many simulations as the last decision's
        pace affords (a feedback on the count, so the budget holds on average; the
        first decision runs `FIRST_COUNT`). OpenSpiel's own clock is not used here:
        a clock that ends before MCTS's first simulations crashes the process."""
        n = self._count
        t0 = time.perf_counter()
        out = self._bot(seed, n).step_with_policy(os_state)
        took = max(time.perf_counter() - t0, 1e-6)
        self._count = int(np.clip(n * max(seconds, 0.0) / took, MIN_COUNT, 4 * n))
        self.last_simulations = n
        return out

    # -- deciding ------------------------------------------------------
    def prepare(self, view: View, rng: np.random.Generator):
        """The bot's input: (OpenSpiel state of `world`, bot seed); a function of the
        view and the generator alone."""
        if not view.legal_actions:
            raise IszError(f"{self.name}: player {view.player} is not to move in this view")
        return self.twin.openspiel_state(self.world(view, rng)), int(rng.integers(SEED_HIGH))

    def _search(self, os_state, seed: int, start: float):
        """OpenSpiel's ``(policy, action)`` under the agent's budget."""
        if self.time_budget is None:
            self.last_simulations = self.iterations
            return self._bot(seed, self.iterations).step_with_policy(os_state)
        return self._timed(os_state, seed, self.time_budget - (time.perf_counter() - start))

    def _step(self, view: View, rng: np.random.Generator) -> tuple[int, np.ndarray]:
        """One search: (isz action, float64[num_actions] final policy of the bot)."""
        start = time.perf_counter()  # the time budget covers building the world too
        os_state, seed = self.prepare(view, rng)
        os_policy, os_action = self._search(os_state, seed, start)
        if self.SKIPS_FORCED and len(view.legal_actions) == 1:
            self.last_simulations = 0
        pi = np.zeros(self.game.num_actions)
        for a, p in os_policy:
            pi[self.twin.action_from_openspiel(a)] = p
        return self.twin.action_from_openspiel(os_action), pi

    def act(self, view: View, rng: np.random.Generator) -> int:
        return self._step(view, rng)[0]

    def policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        """The bot's final policy: float64[num_actions] (one-hot for ``most_visits``
        and ``best_mean``)."""
        return self._step(view, rng)[1]

    def _evaluator(self, seed: int):
        return pyspiel().RandomRolloutEvaluator(self.rollouts, seed)
