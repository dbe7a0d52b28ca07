"""Playing a match's deals on this machine: in this process, or over forked workers.

`LocalPool` is the local backend of `isz.evaluation.play_match` (the Ray one is
`isz.distributed.RayMatches`); `play_deals` is what both `LocalPool` and
`isz.evaluation.match` run. Deals go to the workers one at a time and come
back as they finish (in any order), so a journal can write each at once and a
slow deal holds no other back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from isz.agents.base import Agent
from isz.crew import Crew, one_torch_thread
from isz.evaluation.play import DealOutcome, DecisionHook, play_deal
from isz.games.base import Game
from isz.types import check_int

Done = Callable[[int, DealOutcome], None]
"""``done(deal, outcome)``: called in the calling process as each deal finishes."""


class LocalPool:
    """``workers`` processes on this machine (1: this process), forked after the
    agents are built and warmed up, so they share the compiled code."""

    name = "local"

    def __init__(self, workers: int = 1):
        self.workers = check_int("workers", workers, lo=1)

    def workers_for(self, deals: int) -> int:
        return max(1, min(self.workers, deals))

    def play(self, spec, game: Game, agents: list[Agent], deals: Sequence[int],
             done: Done) -> None:
        """Play ``deals`` of ``spec`` with ``agents`` (built from it by the caller)."""
        if self.workers > 1:
            one_torch_thread()
        warm_up(game, agents, spec.seed)
        play_deals(game, agents, spec.seed, deals, self.workers, done)

    def close(self) -> None:
        """Nothing held between matches."""

    def __enter__(self) -> LocalPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def play_deals(game: Game, agents: list[Agent], seed: int, deals: Sequence[int],
               workers: int, done: Done, on_decision: DecisionHook | None = None) -> None:
    """Play each of ``deals`` (see `play_deal`), calling ``done`` as each finishes."""
    if workers == 1 or len(deals) <= 1:
        for deal in deals:
            done(deal, play_deal(game, agents, seed, deal, on_decision))
        return
    work = partial(play_deal, game, agents, seed)
    with Crew(min(workers, len(deals)), work, what="deal") as crew:
        for deal, outcome in crew.run(deals):
            done(deal, outcome)


def warm_up(game: Game, agents: Sequence[Agent], seed: int) -> None:
    """One throwaway decision of every searching agent, before the clock starts.

    Compiling the search kernels takes seconds; without this the first
    decision of each process would spend its time budget compiling and the
    per-decision timings would include it. Worker processes fork after it, so
    they inherit the compiled code. Agents are reset before every game, so
    this leaves no trace in the match.
    """
    searchers = [a for a in agents if hasattr(a, "last_simulations")]
    if not searchers:
        return
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    if state.is_terminal():
        return
    for agent in searchers:
        agent.reset()
        if agent.cheats:
            agent.act_cheating(state.clone(), rng)
        else:
            agent.act(state.view(state.current_player()), rng)
