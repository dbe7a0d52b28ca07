"""OpenSpiel's MCTS bots as isz agents: ``openspiel_ismcts``, ``openspiel_mcts``.

Fed only the acting seat's view (`isz.openspiel.bot_agent`):

- ``openspiel_ismcts`` (``pyspiel.ISMCTSBot``, SO-ISMCTS) resamples a world
  from the information state at every simulation (OpenSpiel's
  ``ResampleFromInfostate``), so it needs only a state in the right
  information state: one built from the view without randomness where the
  belief can (``voids.construct``: max-flow), else one drawn from the belief;
- ``openspiel_mcts`` (``pyspiel.MCTSBot``) is perfect-information MCTS: it
  searches one world drawn from the belief as if it were the truth
  (single-world PIMC).

Knobs: ``iterations`` (``max_simulations``, default 1000, at least 2);
``time_budget`` (seconds per decision, building the world included; then
``iterations`` is not used and may be None): the C++ ISMCTS runs on
OpenSpiel's own clock (``max_wall_clock_time``) set to what is left of the
budget, at least a quarter of it (isz's searches likewise always run a first
chunk); should the clock end before OpenSpiel's second simulation, which it
refuses, 64 counted simulations replace it; MCTS and the Python ISMCTS
count simulations, paced by the time the previous decision took (OpenSpiel's
MCTS crashes the process when its clock ends that early); ``uct_c`` (UCT
constant on OpenSpiel's returns, default 2.0 as OpenSpiel's examples; returns
are chips in poker, points in oh_hell); ``final`` (``most_visits``; ISMCTS also
``visit_distribution``, ``best_mean``); ``rollouts`` (random rollouts per
leaf, default 1); ``belief`` (a name or `Belief`; default ``voids`` on trick
games, whose uniform sampler can deal a seat a suit it showed out of, an
illegal history; ``uniform`` elsewhere); ISMCTS: ``impl`` (``cpp``, default,
or ``python``: OpenSpiel's reference port, about 15x slower but reproducible).

Objective: the bots maximise OpenSpiel's returns. In oh_hell those are raw
points, while isz's returns (and the arena's scores) rank the seats.

Reproducibility: what a bot is handed (OpenSpiel state and seed) is a
function of the view and the generator alone (`OpenSpielBotAgent.prepare`).
The C++ ISMCTS bot is nevertheless not reproducible on one input: it breaks
UCT ties in the iteration order of hash maps, which changes from run to run.
``impl=python`` and ``openspiel_mcts`` give the same action for the same input.
"""

from __future__ import annotations

import importlib
import math

import numpy as np

from isz.agents.registry import register_agent
from isz.games.base import Game, State, View
from isz.openspiel.bot_agent import KNOBS, MIN_COUNT, OpenSpielBotAgent
from isz.openspiel.twin import pyspiel
from isz.types import check_choice

_FINALS = ("most_visits", "visit_distribution", "best_mean")
MIN_SHARE = 0.25  # of time_budget: the shortest clock OpenSpiel's ISMCTS is given
FALLBACK_COUNT = 64  # simulations when that clock ends before OpenSpiel's second one


class OpenSpielISMCTSAgent(OpenSpielBotAgent):
    """OpenSpiel's ISMCTS (``pyspiel.ISMCTSBot``; Cowling et al. 2012's SO-ISMCTS)."""

    name = "openspiel_ismcts"
    FINALS = _FINALS
    KNOBS = {**KNOBS, "impl": "cpp"}
    SKIPS_FORCED = True

    def __init__(self, game: Game, **knobs):
        super().__init__(game, **knobs)
        check_choice("impl of openspiel_ismcts", self.knobs["impl"], ("cpp", "python"))

    def world(self, view: View, rng: np.random.Generator) -> State:
        construct = getattr(self.belief, "construct", None)
        return construct(view) if construct else self.belief.sample(view, rng)

    def _timed(self, os_state, seed: int, seconds: float):
        if self.knobs["impl"] == "python":
            return super()._timed(os_state, seed, seconds)
        self.last_simulations = math.nan  # OpenSpiel does not say how many its clock allowed
        # a floor, as isz's searches always run their first chunk of simulations: a
        # busy machine can spend the whole budget building the world
        seconds = max(seconds, MIN_SHARE * self.time_budget)
        try:
            return self._bot(seed, MIN_COUNT, seconds).step_with_policy(os_state)
        except pyspiel().SpielError:  # the clock ended before a second simulation
            self.last_simulations = FALLBACK_COUNT
            return self._bot(seed, FALLBACK_COUNT).step_with_policy(os_state)

    def _bot(self, seed: int, simulations: int, seconds: float = -1.0):
        if self.knobs["impl"] == "python":
            return self._python_bot(seed, simulations)
        ps = pyspiel()
        final = ps.ISMCTSFinalPolicyType
        final = dict(zip(_FINALS, (final.MAX_VISIT_COUNT, final.NORMALIZED_VISIT_COUNT,
                                   final.MAX_VALUE), strict=True))[self.knobs["final"]]
        return ps.ISMCTSBot(seed, self._evaluator(seed ^ 1), self.uct_c, simulations, -1,
                            final, False, False, seconds)

    def _python_bot(self, seed: int, simulations: int):
        ismcts = importlib.import_module("open_spiel.python.algorithms.ismcts")
        mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
        final = ismcts.ISMCTSFinalPolicyType
        final = dict(zip(_FINALS, (final.MAX_VISIT_COUNT, final.NORMALIZED_VISITED_COUNT,
                                   final.MAX_VALUE), strict=True))[self.knobs["final"]]
        rs = np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(self.twin.openspiel_game,
                               mcts.RandomRolloutEvaluator(self.rollouts, rs), self.uct_c,
                               simulations, random_state=rs, final_policy_type=final)
        # its default resampler draws from an unseeded C++ generator
        bot.set_resampler(lambda state, player: state.resample_from_infostate(
            player, rs.uniform))
        return bot


class OpenSpielMCTSAgent(OpenSpielBotAgent):
    """OpenSpiel's perfect-information MCTS (``pyspiel.MCTSBot``) on one drawn world."""

    name = "openspiel_mcts"
    MAX_MEMORY_MB = 1000  # OpenSpiel stops growing its tree past this

    def _bot(self, seed: int, simulations: int, seconds: float = -1.0):
        ps = pyspiel()  # counting only: see `OpenSpielBotAgent._timed`
        return ps.MCTSBot(self.twin.openspiel_game, self._evaluator(seed ^ 1), self.uct_c,
                          simulations, self.MAX_MEMORY_MB, False, seed, False)


for _cls in (OpenSpielISMCTSAgent, OpenSpielMCTSAgent):
    register_agent(_cls.name, _cls, _cls.KNOBS)
