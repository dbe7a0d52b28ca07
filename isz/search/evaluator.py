"""The Evaluator protocol: how search asks for priors and values (no torch here).

Search hands an evaluator a batch of information-state tensors, each from the
acting player's own view in the sampled world, with that player's legal-action
mask; the evaluator answers priors over the action space and one value per
player. `isz.agents.network.NetworkEvaluator` adapts a torch network.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


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
