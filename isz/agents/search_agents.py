"""Rollout search agents: PIMC, SO-ISMCTS, MO-ISMCTS and the cheating UCT baseline.

Their settings (``iterations``, ``time_budget``, ``c``, ``final``, ``selection``,
``smooth_params``, ``belief``, ``split``, ``determinizations``) are declared in
`isz.settings.agents` (groups ``SO_ISMCTS``, ``MO_ISMCTS``, ``PIMC``, ``CHEAT_UCT``;
``docs/configuration.md`` lists them). A ``time_budget`` alone is that time per
decision, with no iteration cap; with ``iterations`` too, whichever ends first.
"""

from __future__ import annotations

import time

import numpy as np

from isz.agents.knobs import ConfiguredAgent
from isz.agents.registry import register_agent
from isz.belief import Belief, make_belief
from isz.games.base import Game, State, View
from isz.search.driver import (
    NO_SMOOTH,
    Budget,
    final_policy,
    mo_search,
    playout_w,
    so_search,
    uct_search,
)
from isz.settings import agents as declared
from isz.types import IszError, seed_from

Stats = dict[int, tuple[int, float]]


class SearchAgent(ConfiguredAgent):
    """Shared settings and final-move rules; subclasses implement `_search`."""

    SETTINGS = declared.SO_ISMCTS

    def __init__(self, game: Game, **knobs):
        super().__init__(game, **knobs)
        k = self.knobs
        self.c = k["c"]
        self.final = k["final"] or ("visit_distribution" if k["selection"] == "smooth"
                                    else "most_visits")
        self.smooth = k["smooth_params"] if k["selection"] == "smooth" else NO_SMOOTH
        self.budget = Budget(iterations=self.iterations, seconds=self.time_budget)
        if "playout_weights" in k:  # checked against the game now, not at the first move
            self.playout_w = playout_w(game, k["playout_weights"])
        if "belief" in k:
            b = k["belief"]
            self.belief = b if isinstance(b, Belief) else make_belief(b, game)
        self.last_stats: Stats = {}
        self.last_simulations = 0

    def reset(self) -> None:
        if hasattr(self, "belief"):
            self.belief.reset()

    def _sampler(self, view: View, rng: np.random.Generator):
        return lambda n: self.belief.sample_many(view, n, rng)

    def _search(self, view: View, rng: np.random.Generator) -> Stats:
        """Root statistics ``action -> (visits, mean score)`` of one search."""
        raise NotImplementedError

    def _decide(self, stats: Stats, rng: np.random.Generator) -> tuple[int, np.ndarray]:
        self.last_stats = stats
        # every iteration visits one root move (PIMC: summed over its worlds)
        self.last_simulations = sum(n for n, _ in stats.values())
        pi = final_policy(stats, self.final, self.game.num_actions)
        if self.final == "visit_distribution":
            return int(rng.choice(len(pi), p=pi)), pi
        return int(np.argmax(pi)), pi

    def policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        """The distribution ``act`` draws from: float64[num_actions]."""
        return self._decide(self._search(self.check_view(view), rng), rng)[1]

    def act(self, view: View, rng: np.random.Generator) -> int:
        return self._decide(self._search(self.check_view(view), rng), rng)[0]


class SOISMCTSAgent(SearchAgent):
    """Single-observer ISMCTS (seed 000), availability counts in UCB."""

    name = "so_ismcts"
    SETTINGS = declared.SO_ISMCTS

    def _search(self, view: View, rng: np.random.Generator) -> Stats:
        tree = so_search(self.game, self._sampler(view, rng), view.player, self.budget,
                         c=self.c, seed=seed_from(rng), smooth=self.smooth,
                         leaf=self.knobs["leaf"], playout_weights=self.playout_w)
        return tree.stats(0)


class MOISMCTSAgent(SearchAgent):
    """Multiple-observer ISMCTS: one tree per player (``split``: opponents' trees
    branch on their own information state at the root; see `isz.search.mo_ismcts`)."""

    name = "mo_ismcts"
    SETTINGS = declared.MO_ISMCTS

    def _search(self, view: View, rng: np.random.Generator) -> Stats:
        tree = mo_search(self.game, self._sampler(view, rng), view.player, self.budget,
                         c=self.c, seed=seed_from(rng), smooth=self.smooth,
                         split=self.knobs["split"])
        return tree.stats(view.player)


class PIMCAgent(SearchAgent):
    """Perfect Information Monte Carlo: UCT in sampled worlds, then a vote."""

    name = "pimc"
    SETTINGS = declared.PIMC

    def __init__(self, game: Game, **knobs):
        super().__init__(game, **knobs)
        self.determinizations = self.knobs["determinizations"]

    def _search(self, view: View, rng: np.random.Generator) -> Stats:
        d, t0 = self.determinizations, time.perf_counter()
        worlds = self.belief.sample_many(view, d, rng)
        its, secs = self.budget.iterations, self.budget.seconds
        votes: dict[int, list[float]] = {}
        for i, w in enumerate(worlds):
            # a wall budget: what is left, shared by the worlds left (sampling counts too)
            left = None if secs is None else max(secs - (time.perf_counter() - t0), 0.0) / (d - i)
            per = Budget(iterations=None if its is None else max(its // d, 1),
                         seconds=None if left is None else max(left, 1e-6))
            tree = uct_search(self.game, w, view.player, per, c=self.c, seed=seed_from(rng),
                              smooth=self.smooth)
            for a, (n, mean) in tree.stats(0).items():
                v = votes.setdefault(a, [0, 0.0])
                v[0] += n
                v[1] += n * mean
        return {a: (n, w / n if n else 0.0) for a, (n, w) in votes.items()}


class CheatUCTAgent(SearchAgent):
    """Plain UCT on the TRUE state: the cheating baseline that sees every card."""

    name = "cheat_uct"
    SETTINGS = declared.CHEAT_UCT
    cheats = True

    def act(self, view: View, rng: np.random.Generator) -> int:
        raise IszError("cheat_uct needs the true state: call act_cheating(state, rng) (the "
                       "arena does)")

    def policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        raise IszError("cheat_uct sees the true state: it has no policy over views")

    def act_cheating(self, state: State, rng: np.random.Generator) -> int:
        if not isinstance(state, State) or state.game != self.game:
            what = f"a state of {state.game!r}" if isinstance(state, State) \
                else type(state).__name__
            raise IszError(f"cheat_uct made for {self.game!r} takes a State of that game, "
                           f"got {what}")
        if state.current_player() < 0:
            raise IszError(f"cheat_uct: no player is to move at {state}")
        tree = uct_search(self.game, state.data, state.current_player(), self.budget,
                          c=self.c, seed=seed_from(rng), smooth=self.smooth)
        return self._decide(tree.stats(0), rng)[0]


for _cls in (SOISMCTSAgent, MOISMCTSAgent, PIMCAgent, CheatUCTAgent):
    register_agent(_cls.name, _cls, _cls.SETTINGS)
