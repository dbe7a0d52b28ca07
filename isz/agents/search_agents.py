"""Rollout search agents: PIMC, SO-ISMCTS, MO-ISMCTS and the cheating UCT baseline.

Knobs (all agents): ``iterations`` (per decision, default 1000), ``time_budget``
(seconds per decision; with ``iterations`` too, whichever ends first), ``c``
(UCB exploration on scores in [0, 1], default 0.7 as seed 000), ``final``
(``most_visits`` or ``best_mean``). ISMCTS/PIMC also take ``belief`` (a name
or a `Belief`; default the game's uniform sampler); PIMC takes
``determinizations`` (worlds to solve and vote over, default 20).
"""

from __future__ import annotations

import numpy as np

from isz.agents.base import Agent
from isz.agents.knobs import check_knobs, check_search_knobs
from isz.agents.registry import register_agent
from isz.belief import Belief, make_belief
from isz.games.base import Game, State, View
from isz.search.driver import Budget, best_child, mo_search, so_search, uct_search
from isz.types import check_int, seed_from

SEARCH_KNOBS = {"iterations": 1000, "time_budget": None, "c": 0.7, "final": "most_visits"}
BELIEF_KNOBS = {**SEARCH_KNOBS, "belief": "uniform"}


class SearchAgent(Agent):
    """Shared knob handling; subclasses implement `act` / `act_cheating`."""

    KNOBS: dict = SEARCH_KNOBS

    def __init__(self, game: Game, **knobs):
        super().__init__(game)
        k = check_knobs(self.name, knobs, self.KNOBS)
        check_search_knobs(k)
        self.knobs = k
        self.c = float(k["c"])
        self.final = k["final"]
        self.budget = Budget(iterations=k["iterations"], seconds=k["time_budget"])
        if "belief" in k:
            b = k["belief"]
            self.belief = b if isinstance(b, Belief) else make_belief(b, game)
        self.last_stats: dict[int, tuple[int, float]] = {}

    def reset(self) -> None:
        if hasattr(self, "belief"):
            self.belief.reset()

    def _sampler(self, view: View, rng: np.random.Generator):
        return lambda n: self.belief.sample_many(view, n, rng)


class SOISMCTSAgent(SearchAgent):
    """Single-observer ISMCTS (seed 000), availability counts in UCB."""

    name = "so_ismcts"
    KNOBS = BELIEF_KNOBS

    def act(self, view: View, rng: np.random.Generator) -> int:
        tree = so_search(self.game, self._sampler(view, rng), view.player, self.budget,
                         c=self.c, seed=seed_from(rng))
        action, self.last_stats = best_child(tree, 0, self.final)
        return action


class MOISMCTSAgent(SearchAgent):
    """Multiple-observer ISMCTS: one tree per player."""

    name = "mo_ismcts"
    KNOBS = BELIEF_KNOBS

    def act(self, view: View, rng: np.random.Generator) -> int:
        tree = mo_search(self.game, self._sampler(view, rng), self.budget, c=self.c,
                         seed=seed_from(rng))
        action, self.last_stats = best_child(tree, view.player, self.final)
        return action


class PIMCAgent(SearchAgent):
    """Perfect Information Monte Carlo: UCT in sampled worlds, then a vote."""

    name = "pimc"
    KNOBS = {**BELIEF_KNOBS, "determinizations": 20}

    def __init__(self, game: Game, **knobs):
        super().__init__(game, **knobs)
        self.determinizations = check_int("determinizations", self.knobs["determinizations"],
                                          lo=1)

    def act(self, view: View, rng: np.random.Generator) -> int:
        d = self.determinizations
        worlds = self.belief.sample_many(view, d, rng)
        its, secs = self.budget.iterations, self.budget.seconds
        per = Budget(iterations=None if its is None else max(its // d, 1),
                     seconds=None if secs is None else secs / d)
        votes: dict[int, list[float]] = {}
        for w in worlds:
            tree = uct_search(self.game, w, view.player, per, c=self.c, seed=seed_from(rng))
            for a, (n, mean) in tree.stats(0).items():
                v = votes.setdefault(a, [0, 0.0])
                v[0] += n
                v[1] += n * mean
        self.last_stats = {a: (n, w / n if n else 0.0) for a, (n, w) in votes.items()}
        i = 0 if self.final == "most_visits" else 1
        return max(self.last_stats, key=lambda a: self.last_stats[a][i])


class CheatUCTAgent(SearchAgent):
    """Plain UCT on the TRUE state: the cheating baseline that sees every card."""

    name = "cheat_uct"
    cheats = True

    def act(self, view: View, rng: np.random.Generator) -> int:
        raise TypeError("cheat_uct needs the true state: the arena calls act_cheating")

    def act_cheating(self, state: State, rng: np.random.Generator) -> int:
        tree = uct_search(self.game, state.data, state.current_player(), self.budget,
                          c=self.c, seed=seed_from(rng))
        action, self.last_stats = best_child(tree, 0, self.final)
        return action


for _cls in (SOISMCTSAgent, MOISMCTSAgent, PIMCAgent, CheatUCTAgent):
    register_agent(_cls.name, _cls, _cls.KNOBS)
