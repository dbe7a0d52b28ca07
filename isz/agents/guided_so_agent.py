"""`guided_so_ismcts`: the rollout SO-ISMCTS (`isz.search.so_ismcts`'s compiled loop:
one deep tree, UCB with ``c``, random playouts) whose root moves are selected by
PUCT (``c_puct``) on the network's priors for the view (``c_puct=0``: by
so_ismcts's UCB): one evaluator call a decision, so it spends its time on rollouts,
not on network calls.

Settings: `isz.settings.agents.GUIDED_SO_ISMCTS` (``docs/configuration.md``).
``value_mix = lam > 0``: the same call also values the searcher's own view after
each of its moves (in one world of its belief; an information-state tensor holds
only what the seat has seen, so any consistent world gives the same rows), and
the root's PUCT (or UCB) takes ``(1 - lam)`` the rollouts' mean + ``lam`` that value:
AlphaGo's mix of value network and rollouts, at the root. With no evaluator the
priors are uniform over the legal moves.
"""

from __future__ import annotations

import time

import numpy as np

from isz.agents.knobs import ConfiguredAgent
from isz.agents.puct_agent import pool_deadline, search_belief
from isz.agents.registry import register_agent
from isz.games.base import Game, View
from isz.search.driver import Budget, final_policy, playout_w, so_search
from isz.search.evaluator import after_move_rows, move_scores
from isz.settings.agents import GUIDED_SO_ISMCTS
from isz.types import seed_from


class GuidedSOAgent(ConfiguredAgent):
    """Rollout SO-ISMCTS with the network's priors (and values) leading its root."""

    name = "guided_so_ismcts"
    SETTINGS = GUIDED_SO_ISMCTS

    def __init__(self, game: Game, **knobs):
        super().__init__(game, **knobs)
        k = self.knobs
        self.c, self.c_puct, self.value_mix = k["c"], k["c_puct"], k["value_mix"]
        self.final = k["final"]
        self.playout_w = playout_w(game, k["playout_weights"])
        self.belief = search_belief(k, game)
        self.evaluator = k["evaluator"]
        self.last_stats: dict[int, tuple[int, float]] = {}
        self.last_simulations = 0

    def reset(self) -> None:
        self.belief.reset()

    def policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        """The final-move rule's distribution over the root's moves: float64[num_actions]
        (the evaluator call counts against the time budget)."""
        view = self.check_view(view)
        t0 = time.perf_counter()
        self.belief.deadline = pool_deadline(t0, self.time_budget)
        priors, root_value = self._evaluate(view, rng)
        left = None if self.time_budget is None else \
            max(0.0, self.time_budget - (time.perf_counter() - t0))
        tree = so_search(self.game, lambda n: self.belief.sample_many(view, n, rng),
                         view.player, Budget(iterations=self.iterations, seconds=left),
                         c=self.c, seed=seed_from(rng), root_prior=priors,
                         c_prior=self.c_puct, root_value=root_value,
                         value_mix=self.value_mix, leaf=self.knobs["leaf"],
                         playout_weights=self.playout_w)
        self.belief.deadline = None  # a caller using the belief later gets a whole pool
        self.last_stats = tree.stats(0)
        self.last_simulations = sum(n for n, _ in self.last_stats.values())
        return final_policy(self.last_stats, self.final, self.game.num_actions)

    def _evaluate(self, view: View, rng: np.random.Generator):
        """``(priors float[num_actions], root_value float64[num_actions] or None)``: one
        evaluator call for the view (and, with ``value_mix``, the views after its moves);
        uniform priors without an evaluator."""
        mask = np.zeros((1, self.game.num_actions), dtype=np.bool_)
        mask[0, list(view.legal_actions)] = True
        if self.evaluator is None:
            return mask[0] / mask[0].sum(), None
        children = None
        if self.value_mix > 0 and len(view.legal_actions) > 1:  # one move: nothing to value
            world = self.belief.sample_many(view, 1, rng)[0]
            children = after_move_rows(self.game, world, view.player, view.legal_actions)
        tensors = view.tensor().reshape(1, -1)
        if children is not None:
            tensors = np.concatenate([tensors, children])
            mask = np.concatenate([mask, np.ones((len(children), mask.shape[1]), np.bool_)])
        priors, values = self.evaluator.evaluate(tensors, mask)
        if children is None:
            return priors[0], None
        return priors[0], move_scores(values[1:], view.player, view.legal_actions,
                                      self.game.num_actions)

    def act(self, view: View, rng: np.random.Generator) -> int:
        pi = self.policy(view, rng)
        if self.final == "visit_distribution":
            return int(rng.choice(len(pi), p=pi))
        return int(np.argmax(pi))


register_agent(GuidedSOAgent.name, GuidedSOAgent, GUIDED_SO_ISMCTS)
