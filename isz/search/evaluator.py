"""The Evaluator protocol: how search asks for priors and values (no torch here).

Search hands an evaluator a batch of information-state tensors, each from the
acting player's own view in the sampled world, with that player's legal-action
mask; the evaluator answers priors over the action space and one value per
player. `isz.agents.network.NetworkEvaluator` adapts a torch network.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import numpy as np

from isz.belief import make_belief
from isz.belief.registry import belief_knobs, resolve_belief
from isz.belief.sir import rows_from_parts
from isz.types import IszError, check_choice


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


class EvaluatorPolicy:
    """The evaluator's priors as a policy, one view at a time or a batch of tensors.

    ``policy(view) -> float64[num_actions]`` lets a belief weigh histories by
    the network's own policy (the posterior a player should hold if the others
    play as the network does); ``policy.many(tensors, masks) -> float64[B,
    num_actions]`` answers many hypotheses in one evaluator call (the recon
    filters ask it once per adversary turn). Repeated views are cheap when the
    evaluator caches (`NetworkEvaluator` does).
    """

    def __init__(self, evaluator: Evaluator):
        self.evaluator = evaluator

    def many(self, tensors: np.ndarray, masks: np.ndarray) -> np.ndarray:
        priors, _ = self.evaluator.evaluate(np.asarray(tensors, dtype=np.float32), masks)
        return np.asarray(priors, dtype=np.float64)

    def many_parts(self, base: np.ndarray, groups: np.ndarray, cols: np.ndarray,
                   vals: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """`many` on rows given in parts: row ``b`` is ``base[groups[b]]`` (float32[D,
        tensor_size], 0 at ``cols``) with its entries ``cols`` (int64[K]) set to
        ``vals[b]`` (float32[B, K]). An evaluator with ``evaluate_parts`` answers
        without writing the rows out (a network's first layer is linear: one product
        per template, plus ``K`` columns a row); any other gets the rows written out."""
        if hasattr(self.evaluator, "evaluate_parts"):
            priors = self.evaluator.evaluate_parts(base, groups, cols, vals, masks)
            return np.asarray(priors, dtype=np.float64)
        return self.many(rows_from_parts(base, groups, cols, vals), masks)

    def __call__(self, view) -> np.ndarray:
        mask = np.zeros((1, view.game.num_actions), dtype=np.bool_)
        mask[0, list(view.legal_actions)] = True
        return self.many(view.tensor().reshape(1, -1), mask)[0]


def evaluator_policy(evaluator: Evaluator) -> EvaluatorPolicy:
    """``policy(view) -> float64[num_actions]``: the evaluator's priors (see `EvaluatorPolicy`)."""
    return EvaluatorPolicy(evaluator)


def belief_spec(spec: str | Mapping) -> tuple[str, dict]:
    """``(name, knobs)`` of a belief given by name or as ``{"name": ..., **knobs}``
    (the form a training run records, e.g. ``{"name": "particle", "particles": 256}``)."""
    if isinstance(spec, str):
        return spec, {}
    if isinstance(spec, Mapping) and isinstance(spec.get("name"), str):
        knobs = {k: v for k, v in spec.items() if k != "name"}
        return spec["name"], knobs
    raise IszError(f"belief must be a name or a mapping with a 'name' and knobs, got {spec!r}")


def make_search_belief(spec: str | Mapping, game, evaluator: Evaluator | None,
                       policy: str = "network"):
    """Belief ``spec`` (a name, or ``{"name": ..., **knobs}``) for ``game``;
    ``policy="network"`` weighs histories by the evaluator's priors when the
    belief takes a policy (posterior, gibbs, sir, particle, bayes) and an evaluator
    is given, ``"uniform"`` leaves the belief's default. ``auto``: the game's best belief
    that takes the network's policy when it is given, else its best knowledge-free one
    (`isz.belief.registry.resolve_belief`)."""
    check_choice("belief policy", policy, ("network", "uniform"))
    name, knobs = belief_spec(spec)
    name = resolve_belief(name, game, network=policy == "network" and evaluator is not None)
    if policy == "network" and evaluator is not None and "policy" in belief_knobs(name):
        knobs = {**knobs, "policy": evaluator_policy(evaluator)}
    return make_belief(name, game, **knobs)


def after_move_rows(game, world: np.ndarray, me: int, legal) -> np.ndarray | None:
    """float32[L, tensor_size]: seat ``me``'s information-state tensor after each of its
    L ``legal`` moves in ``world`` (one world of its belief: a tensor holds only what the
    seat has seen, so any world consistent with its view gives the same rows); None
    with a single move, or where a move ends the game or meets chance (rollouts value
    those exactly). What the network's values of a search root's moves are asked on."""
    if len(legal) < 2:
        return None
    rows = np.zeros((len(legal), game.tensor_size), dtype=np.float32)
    for i, a in enumerate(legal):
        s = world.copy()
        game.kernel.apply_action(s, game.kparams, a)
        if game.kernel.current_player(s, game.kparams) < 0:  # CHANCE or TERMINAL
            return None
        game.kernel.info_tensor(s, game.kparams, me, rows[i])
    return rows


def move_scores(values: np.ndarray, me: int, legal, num_actions: int) -> np.ndarray:
    """float64[num_actions]: the root moves' scores in [0, 1] for seat ``me`` (0 off
    ``legal``) from ``values`` float[L, num_players], the evaluator's values of
    `after_move_rows` (returns in [-1, 1]); the scale of rollout search's means."""
    scores = np.zeros(num_actions)
    scores[list(legal)] = 0.5 * (np.asarray(values)[:, me] + 1.0)
    return scores
