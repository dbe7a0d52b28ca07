"""An isz agent (or policy) as an OpenSpiel ``TabularPolicy``.

OpenSpiel's tools (``exploitability.exploitability``, ``best_response``,
CFR initialised from a policy) take a ``policy.TabularPolicy``: one row of
action probabilities per information state. `to_tabular_policy` fills every
row by mapping the row's OpenSpiel state to isz (`Twin.isz_state`) and asking
the agent at the acting seat's view. Agents are queried exactly as
`isz.evaluation.exploitability.agent_policy` queries them (one generator per
view key from ``seed``), so OpenSpiel scores the very policy that isz's exact
exploitability scores. Small games only (every information state is listed).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import numpy as np

from isz.agents.base import Agent
from isz.games.base import Game, View
from isz.openspiel.twin import openspiel_twin, pyspiel
from isz.types import IszError

MAX_HISTORIES = 200_000  # Leduc has 9,457; OpenSpiel would list oh_hell's for ever


def _check_small(os_game, limit: int = MAX_HISTORIES) -> None:
    """`IszError` if the game has more than ``limit`` histories (stops counting there)."""
    stack, seen = [os_game.new_initial_state()], 0
    while stack:
        state = stack.pop()
        seen += 1
        if seen > limit:
            raise IszError(f"game {os_game} has more than {limit} histories: too large to "
                           "list every information state in a tabular policy")
        if not state.is_terminal():
            moves = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                     else state.legal_actions())
            stack.extend(state.child(a) for a in moves)


def _policy_fn(agent, seed: int) -> Callable[[View], np.ndarray]:
    if not isinstance(agent, Agent):
        if not callable(agent):
            raise IszError(f"to_tabular_policy needs an isz Agent or a callable "
                           f"policy(view) -> probabilities, got {agent!r}")
        return agent
    # the evaluation layer's adapter, so both tools see one policy (imported lazily:
    # the bridge sits above evaluation in the layer order)
    exploit = importlib.import_module("isz.evaluation.exploitability")
    return exploit.agent_policy(agent, seed)


def to_tabular_policy(agent: Agent | Callable[[View], np.ndarray], game: Game, seed: int = 0):
    """``agent``'s policy on every information state of ``game``'s OpenSpiel twin.

    Args:
        agent: an isz `Agent` (asked through ``agent.policy(view, rng)``, or a
            one-hot of ``agent.act``), or a callable ``policy(view) -> float
            array [game.num_actions]``.
        game: an isz game with an OpenSpiel twin, small enough to list
            (kuhn_poker, leduc_poker).
        seed: seeds the per-view generators handed to the agent.
    Returns:
        ``open_spiel.python.policy.TabularPolicy`` over the twin game.
    Raises:
        IszError: no twin, OpenSpiel missing, a game too large to list, or a
            policy that puts mass on illegal actions.
    """
    twin = openspiel_twin(game)
    pyspiel()  # a clear error before OpenSpiel's own imports
    policy_lib = importlib.import_module("open_spiel.python.policy")
    _check_small(twin.openspiel_game)
    table = policy_lib.TabularPolicy(twin.openspiel_game)
    policy = _policy_fn(agent, seed)
    for row, os_state in enumerate(table.states):
        state = twin.isz_state(os_state)
        view = state.view(state.current_player())
        p = np.asarray(policy(view), dtype=np.float64)
        probs = table.action_probability_array[row]
        probs[:] = 0.0
        legal = os_state.legal_actions()
        for a in legal:
            probs[a] = p[twin.action_from_openspiel(a)]
        if abs(probs.sum() - 1.0) > 1e-6:
            raise IszError(f"policy at {view.key!r} sums to {probs.sum()} over the legal "
                           f"actions {[twin.action_from_openspiel(a) for a in legal]}: {p}")
    return table
