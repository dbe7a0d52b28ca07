"""The Evaluator protocol: how search asks for priors and values (no torch here).

Search hands an evaluator a batch of information-state tensors, each from the
acting player's own view in the sampled world, with that player's legal-action
mask; the evaluator answers priors over the action space and one value per
player. `isz.agents.network.NetworkEvaluator` adapts a torch network.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from isz.belief import make_belief
from isz.belief.registry import belief_knobs
from isz.types import check_choice


class Evaluator(Protocol):
    """Batch evaluation of views.

    ``evaluate(tensors, masks) -> (priors, values)``:
        tensors: float32[B, tensor_size] — flattened `View.tensor()` of the actor.
        masks: bool[B, num_actions] — True where the action is legal.
        priors: float32[B, num_actions] — probabilities, 0 on illegal actions.
        values: float32[B, num_players] — each player's expected return in [-1, 1].
    """

    def evaluate(self, tensors: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ...


class UniformEvaluator:
    """Uniform priors over legal actions and zero values: PUCT without knowledge."""

    def __init__(self, num_players: int):
        self.num_players = num_players

    def evaluate(self, tensors: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        m = masks.astype(np.float32)
        priors = m / np.maximum(m.sum(axis=1, keepdims=True), 1.0)
        return priors, np.zeros((len(masks), self.num_players), dtype=np.float32)


def evaluator_policy(evaluator: Evaluator):
    """``policy(view) -> float64[num_actions]``: the evaluator's priors on one view.

    Lets a belief weigh histories by the network's own policy (the posterior a
    player should hold if the others play as the network does). Repeated
    views are cheap when the evaluator caches (`NetworkEvaluator` does).
    """
    def policy(view) -> np.ndarray:
        mask = np.zeros((1, view.game.num_actions), dtype=np.bool_)
        mask[0, list(view.legal_actions)] = True
        priors, _ = evaluator.evaluate(view.tensor().reshape(1, -1).astype(np.float32), mask)
        return priors[0].astype(np.float64)

    return policy


def make_search_belief(name: str, game, evaluator: Evaluator | None, policy: str = "network"):
    """Belief ``name`` for ``game``; ``policy="network"`` weighs histories by the
    evaluator's priors when the belief takes a policy (posterior, gibbs) and an
    evaluator is given, ``"uniform"`` leaves the belief's default."""
    check_choice("belief policy", policy, ("network", "uniform"))
    if policy == "network" and evaluator is not None and "policy" in belief_knobs(name):
        return make_belief(name, game, policy=evaluator_policy(evaluator))
    return make_belief(name, game)
