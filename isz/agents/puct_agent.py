"""`puct_ismcts`: AlphaZero-style PUCT-ISMCTS guided by an evaluator (a trained
network): its priors in every node, its values at the leaves.

Settings: `isz.settings.agents.PUCT_ISMCTS` (``docs/configuration.md``):
``iterations`` and ``time_budget`` (alone: that time, no iteration cap; both:
whichever ends first), ``lanes`` (simulations per wave, their leaves in one
network batch), the search's ``c_puct``, ``fpu``, ``tree``, ``opponents``,
``value_view``, ``root_selection``, ``leaf_mix``, ``expand_after``,
``below_threshold`` (see `isz.search.puct`), ``belief`` / ``belief_policy``,
``final`` (``most_visits``, ``visit_distribution``, or ``mirror``: the improved
policy ``softmax(log P + mirror_eta * q)`` of `PUCTBatch.mirror_policy`, played
mixed), ``worlds`` (at most K worlds a decision, for a belief whose worlds are
dear), ``common_worlds`` (every root move searched in the same worlds, laid out
as self-play does: `isz.selfplay.root_worlds`) and ``evaluator`` (None:
knowledge-free, uniform priors and random rollouts). `isz.load_planner(path)`
builds one from a checkpoint.
"""

from __future__ import annotations

import time

import numpy as np

from isz.agents.knobs import ConfiguredAgent
from isz.agents.registry import register_agent
from isz.belief import Belief
from isz.games.base import Game, View
from isz.search.evaluator import make_search_belief
from isz.search.puct_driver import PUCTBatch, PUCTConfig
from isz.settings.agents import MAX_AUTO_LANES, PUCT_ISMCTS
from isz.settings.search import PUCT_KERNEL
from isz.types import seed_from

WORLD_CHUNK = 256  # worlds drawn at a time under a time budget


def auto_lanes(lanes, iterations: int | None) -> int:
    """Simulations per wave: ``lanes``, or for ``auto`` 1 up to 8 iterations, else
    ``min(16, iterations // 8)``, and 16 under a time budget alone."""
    if lanes != "auto":
        return lanes
    if iterations is None:
        return MAX_AUTO_LANES
    return 1 if iterations <= 8 else max(1, min(MAX_AUTO_LANES, iterations // 8))


POOL_SHARE = 0.5  # of a move's time budget, at most, for weighing the belief's pool


def pool_deadline(t0: float, time_budget: float | None) -> float | None:
    """`Belief.deadline` for a move that started at ``t0`` (``time.perf_counter()``):
    half its budget, so the search keeps the other half; None without a time budget."""
    return None if time_budget is None else t0 + POOL_SHARE * time_budget


def search_belief(knobs: dict, game: Game) -> Belief:
    """The ``belief`` setting as a `Belief` (weighed by the evaluator's policy, or the
    ``opponent_model``'s, where ``belief_policy=network`` and the belief takes one)."""
    b = knobs["belief"]
    return b if isinstance(b, Belief) else \
        make_search_belief(b, game, belief_evaluator(knobs, game), knobs["belief_policy"])


def belief_evaluator(knobs: dict, game: Game):
    """The evaluator whose priors model the other seats' moves in the belief: the
    ``opponent_model`` checkpoint's network where one is named (on the planner's
    evaluator's device), else the planner's own ``evaluator``."""
    path = knobs.get("opponent_model")
    if path is None:
        return knobs["evaluator"]
    from isz.agents.network import NetworkEvaluator
    from isz.nn.checkpoint import load_model

    device = getattr(knobs["evaluator"], "device", "cpu")
    return NetworkEvaluator(load_model(path, game)[0], device)


class PUCTAgent(ConfiguredAgent):
    """Network-guided (or, with no evaluator, rollout) PUCT-ISMCTS from the seat's view."""

    name = "puct_ismcts"
    SETTINGS = PUCT_ISMCTS

    def __init__(self, game: Game, **knobs):
        super().__init__(game, **knobs)
        k = self.knobs
        self.lanes = auto_lanes(k["lanes"], self.iterations)
        self.mirror_eta = k["mirror_eta"]
        self.cfg = PUCTConfig(**{n: k[n] for n in PUCT_KERNEL.names() if n in k},
                              rollouts=k["evaluator"] is None)
        self.belief = search_belief(k, game)
        self.evaluator = k["evaluator"]
        self.final = k["final"]
        self.max_worlds = k["worlds"]
        self.common_worlds = k["common_worlds"]
        self._distinct = None  # common_worlds: the distinct worlds of this decision
        self.last_stats: dict[int, tuple[int, float]] = {}
        self.last_simulations = 0

    def reset(self) -> None:
        self.belief.reset()

    def policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        """Root visit distribution (``visit_distribution``), the improved policy
        (``mirror``), or one-hot of the most visited move."""
        batch = self._search(self.check_view(view), rng)
        self.last_stats = batch.root_stats(0)
        pi = batch.target_policy(0, "mirror" if self.final == "mirror" else "visits",
                                 self.mirror_eta)
        if self.final == "most_visits" or pi.sum() == 0:
            best = max(self.last_stats, key=lambda a: self.last_stats[a][0]) \
                if self.last_stats else view.legal_actions[0]
            pi = np.zeros_like(pi)
            pi[best] = 1.0
        return pi / pi.sum()

    def _search(self, view: View, rng: np.random.Generator) -> PUCTBatch:
        """Waves of ``lanes`` simulations until ``iterations`` or ``time_budget`` runs out.

        Worlds are drawn up front for a fixed count, in chunks of `WORLD_CHUNK`
        under a time budget (the same generator stream either way), at most
        ``worlds`` of them; the belief's sampling counts against the budget.
        """
        t0 = time.perf_counter()
        self.belief.deadline = pool_deadline(t0, self.time_budget)
        worlds = self._worlds(view, 0, self._more_worlds(0), rng)[None]
        batch = PUCTBatch(self.game, self.cfg, worlds, [view.player], seed_from(rng),
                          lanes=self.lanes)
        for k, active in batch.waves(self.evaluator, self.iterations):
            if self.time_budget is None:
                continue
            # one full wave after the root's at least, so every move has a chance
            if k > 0 and time.perf_counter() - t0 >= self.time_budget:
                break
            have = batch.worlds.shape[1]
            if k + active + self.lanes > have and self._more_worlds(have):
                batch.add_worlds(self._worlds(view, have, self._more_worlds(have), rng)[None])
        self.belief.deadline = None  # a caller using the belief later gets a whole pool
        self.last_simulations = batch.simulations
        return batch

    def _worlds(self, view: View, start: int, count: int, rng) -> np.ndarray:
        """Worlds of simulations ``start .. start + count - 1``: int64[count, state_size].

        With ``common_worlds`` simulation ``k >= 1`` gets distinct world ``1 + (k - 1)
        // m`` (m root moves, visited in turn after simulation 0 expands the root),
        each distinct world drawn once, when first needed: every root move is searched
        in the same worlds."""
        if not self.common_worlds:
            return self.belief.sample_many(view, count, rng)
        k = np.arange(start, start + count)
        idx = np.where(k == 0, 0, 1 + (k - 1) // len(view.legal_actions))
        have = 0 if start == 0 else len(self._distinct)
        if idx[-1] + 1 > have:
            more = self.belief.sample_many(view, int(idx[-1]) + 1 - have, rng)
            self._distinct = more if have == 0 else np.concatenate([self._distinct, more])
        return self._distinct[idx]

    def _more_worlds(self, have: int) -> int:
        """Worlds to draw next, with ``have`` drawn so far (0: the cap is reached)."""
        chunk = self.iterations if self.time_budget is None else WORLD_CHUNK
        if self.max_worlds is not None:
            chunk = min(chunk, self.max_worlds - have)
        return chunk

    def act(self, view: View, rng: np.random.Generator) -> int:
        pi = self.policy(view, rng)
        if self.final in ("visit_distribution", "mirror"):
            return int(rng.choice(len(pi), p=pi))
        return int(np.argmax(pi))


register_agent(PUCTAgent.name, PUCTAgent, PUCT_ISMCTS)
