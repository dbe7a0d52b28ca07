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
from dataclasses import dataclass

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
              work: np.ndarray | None = None) -> State:
    """Play one game of ``deal`` in ``rotation``; return its final state.

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
            return state
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


@dataclass
class DealOutcome:
    """What one deal's games gave each agent (indexed by agent, not seat).

    scores, utilities: float64 ``[rotations, agents]`` (utilities are
    ``returns * utility_scale``); work: float64 ``[agents, 3]``, each agent's
    decisions, seconds deciding and simulations (see `play_game`); stats:
    name -> float64 ``[rotations, agents]``, the game's `Game.outcome_stats`
    and ``win_share`` (1 for the best return, shared equally among ties).
    """

    scores: np.ndarray
    utilities: np.ndarray
    work: np.ndarray
    stats: dict[str, np.ndarray]


def play_deal(game: Game, agents: Sequence[Agent], seed: int, deal: int,
              on_decision: DecisionHook | None = None) -> DealOutcome:
    """Play ``deal`` once per seat rotation."""
    n = game.num_players
    out = DealOutcome(np.empty((n, n)), np.empty((n, n)), np.zeros((n, 3)), {})
    for rot in range(n):
        final = play_game(game, agents, seed, deal, rot, on_decision, out.work)
        returns = final.returns()
        by_seat = {"score": game_scores(returns), "win_share": win_shares(returns),
                   **game.outcome_stats(final)}
        for i in range(n):
            seat = seat_of(i, rot, n)
            out.scores[rot, i] = by_seat["score"][seat]
            out.utilities[rot, i] = returns[seat] * game.utility_scale
            for name, values in by_seat.items():
                if name != "score":
                    out.stats.setdefault(name, np.empty((n, n)))[rot, i] = values[seat]
    return out


def win_shares(returns: Sequence[float]) -> np.ndarray:
    """float64[n]: 1 for the seat with the best return, split equally among ties."""
    r = np.asarray(returns, dtype=np.float64)
    top = np.abs(r - r.max()) <= 1e-9
    return top / top.sum()
