"""Playing the games of one deal: chance from the deal, decisions from the agents.

Every random number of a match is a pure function of ``(seed, deal, ...)``,
so a match gives the same result whatever the number of worker processes and
any single game or decision can be replayed:

- chance: one generator per deal, from ``SeedSequence([seed, deal, 0])``,
  re-created for each seat rotation, so every rotation is dealt the same
  cards (as far as chance events do not depend on the play);
- decisions: the ``k``-th decision of ``seat`` in rotation ``rotation`` gets
  ``default_rng(SeedSequence([seed, deal, 1, rotation, seat, k]))``.

The ``0`` / ``1`` word keeps the two streams apart: `SeedSequence` pads short
entropy with zeros, so ``[seed, deal]`` alone would collide with
``[seed, deal, 0, ...]``.

Rotation ``r`` seats agent ``i`` at seat ``(i + r) % n``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from isz.agents.base import Agent
from isz.evaluation.scoring import game_scores
from isz.games.base import Game, State, View
from isz.types import CHANCE, TERMINAL, IllegalActionError

_CHANCE_STREAM, _AGENT_STREAM = 0, 1

DecisionHook = Callable[[State, int, View, Agent], None]
"""``on_decision(state, seat, view, agent)``: called before a non-cheating decision."""


def chance_rng(seed: int, deal: int) -> np.random.Generator:
    """The generator that resolves every chance node of ``deal``."""
    return np.random.default_rng(np.random.SeedSequence([seed, deal, _CHANCE_STREAM]))


def decision_rng(seed: int, deal: int, rotation: int, seat: int, k: int) -> np.random.Generator:
    """The generator handed to the ``k``-th decision (from 0) of ``seat``."""
    entropy = [seed, deal, _AGENT_STREAM, rotation, seat, k]
    return np.random.default_rng(np.random.SeedSequence(entropy))


def seat_of(agent_index: int, rotation: int, n: int) -> int:
    """The seat agent ``agent_index`` plays in ``rotation``."""
    return (agent_index + rotation) % n


def play_game(game: Game, agents: Sequence[Agent], seed: int, deal: int, rotation: int,
              on_decision: DecisionHook | None = None,
              work: np.ndarray | None = None) -> list[float]:
    """Play one game of ``deal`` in ``rotation``; return the per-seat returns.

    ``agents`` is indexed by agent (not seat); `seat_of` places them.
    ``work``, float64[len(agents), 3], accumulates each agent's decisions,
    wall seconds spent deciding and search simulations (its ``last_simulations``
    after each decision, 0 for agents that do not search).
    """
    n = game.num_players
    seated = [agents[(seat - rotation) % n] for seat in range(n)]
    for agent in seated:
        agent.reset()
    chance = chance_rng(seed, deal)
    decisions = [0] * n
    state = game.new_initial_state()
    while True:
        seat = state.current_player()
        if seat == TERMINAL:
            return state.returns()
        if seat == CHANCE:
            state.apply_action(state.sample_chance(chance))
            continue
        agent = seated[seat]
        rng = decision_rng(seed, deal, rotation, seat, decisions[seat])
        decisions[seat] += 1
        t0 = time.perf_counter()
        action = _decide(agent, state, seat, rng, on_decision)
        if work is not None:
            i = (seat - rotation) % n
            work[i] += (1.0, time.perf_counter() - t0, getattr(agent, "last_simulations", 0))
        try:
            state.apply_action(action)
        except IllegalActionError as e:
            raise IllegalActionError(
                f"agent {agent.name!r} at seat {seat} (deal {deal}, rotation {rotation}): {e}"
            ) from None


def _decide(agent: Agent, state: State, seat: int, rng: np.random.Generator,
            on_decision: DecisionHook | None) -> int:
    if agent.cheats:
        return agent.act_cheating(state.clone(), rng)
    view = state.view(seat)
    if on_decision is not None:
        on_decision(state.clone(), seat, view, agent)
    return agent.act(view, rng)


def play_deal(game: Game, agents: Sequence[Agent], seed: int, deal: int,
              on_decision: DecisionHook | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Play ``deal`` once per seat rotation.

    Returns:
        ``(scores, utilities, work)``: scores and utilities float64
        ``[rotations, len(agents)]``, indexed by agent (not seat; utilities are
        ``returns * utility_scale``); work float64 ``[len(agents), 3]``: each
        agent's decisions, seconds deciding and simulations (see `play_game`).
    """
    n = game.num_players
    scores = np.empty((n, n))
    utils = np.empty((n, n))
    work = np.zeros((n, 3))
    for rot in range(n):
        returns = play_game(game, agents, seed, deal, rot, on_decision, work)
        by_seat = game_scores(returns)
        for i in range(n):
            seat = seat_of(i, rot, n)
            scores[rot, i] = by_seat[seat]
            utils[rot, i] = returns[seat] * game.utility_scale
    return scores, utils, work
