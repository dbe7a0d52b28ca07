"""The arena: duplicate deals with seat rotation, optionally over worker processes.

``match(game, agents, deals, seed)`` plays every deal once per seat rotation
(the two seatings for 2 players, all n cyclic rotations for more), so the luck
of the deal cancels, and reports each agent's mean score with its standard
error over deals (`isz.evaluation.result.MatchResult`). How chance and the
agents' generators are derived is in `isz.evaluation.play`; the result does
not depend on ``workers``.
"""

from __future__ import annotations

import multiprocessing as mp
import sys
import time
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from isz.agents.base import Agent
from isz.evaluation.play import DealOutcome, DecisionHook, play_deal
from isz.evaluation.result import MatchResult
from isz.games.base import Game
from isz.progress import Progress
from isz.types import IszError, check_int


def match(game: Game, agents: Sequence[Agent], deals: int, seed: int, workers: int = 1,
          progress: bool | Callable[[int], None] = True,
          on_decision: DecisionHook | None = None) -> MatchResult:
    """Play ``deals`` deals, each once per seat rotation, and score the agents.

    Args:
        game: the game to play.
        agents: one distinct `Agent` object per seat (``len == game.num_players``);
            results are reported by position in this list. With ``workers > 1``
            they must be picklable where "fork" is unavailable.
        deals: number of deals (>= 1); ``deals * rotations`` games are played.
        seed: non-negative integer; same seed, same result.
        workers: processes to spread the deals over (1: play in this process).
        progress: show progress over deals (`isz.progress.Progress`: a bar on a
            terminal, else plain lines), or a callable ``progress(1)`` per deal.
        on_decision: ``(state, seat, view, agent) -> None``, called with a copy
            of the true state before every non-cheating decision. Only with
            ``workers == 1``: it runs in this process, where it can collect
            diagnostics (e.g. how likely a belief makes the true hidden state).
    Raises:
        IszError: wrong agent count, bad ``deals``/``seed``/``workers``, or
            ``on_decision`` with ``workers > 1``.
    """
    _check_agents(game, agents)
    deals = check_int("deals", deals, lo=1)
    seed = check_int("seed", seed, lo=0)
    workers = check_int("workers", workers, lo=1)
    if on_decision is not None and workers > 1:
        raise IszError(f"on_decision needs workers=1 (it runs in this process); got {workers}")
    if workers > 1:
        _one_torch_thread()
    _warm_up(game, agents, seed)
    start = time.perf_counter()
    bar = None if callable(progress) else Progress(game.name, deals, "deals", enabled=progress)
    tick = progress if callable(progress) else bar.update
    results = []
    for outcome in _run(game, list(agents), deals, seed, workers, on_decision):
        results.append(outcome)
        tick(1)
    if bar is not None:
        bar.close()
    stats = {k: np.stack([r.stats[k] for r in results]) for k in results[0].stats}
    return MatchResult.from_deals(
        game, [a.name for a in agents], np.stack([r.scores for r in results]),
        np.stack([r.utilities for r in results]), seed=seed, workers=workers,
        wall_time_s=time.perf_counter() - start,
        work=np.sum([r.work for r in results], axis=0), stats=stats)


def _check_agents(game: Game, agents: Sequence[Agent]) -> None:
    if len(agents) != game.num_players:
        raise IszError(f"{game.name} has {game.num_players} seat(s) but {len(agents)} "
                       f"agent(s) were given; pass one agent per seat")
    for i, agent in enumerate(agents):
        if not isinstance(agent, Agent):
            raise IszError(f"agents[{i}] is {agent!r}, not an isz Agent")
        for j in range(i):
            if agents[j] is agent:
                raise IszError(f"agents[{i}] is the same object as agents[{j}]; give each "
                               "seat its own agent (agents keep per-game state)")


def _one_torch_thread() -> None:
    """One intra-op thread for torch, if a planner brought it in, before forking.

    OpenMP's thread pool does not survive ``fork``: a worker whose parent ran a
    multi-threaded forward hangs in its first one. One thread per process is
    also what a worker on its own core should use.
    """
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _warm_up(game: Game, agents: Sequence[Agent], seed: int) -> None:
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


def _run(game: Game, agents: list[Agent], deals: int, seed: int, workers: int,
         on_decision: DecisionHook | None) -> Iterator[DealOutcome]:
    """Yield the outcome of every deal, in deal order (see `play_deal`)."""
    if workers == 1:
        for deal in range(deals):
            yield play_deal(game, agents, seed, deal, on_decision)
        return
    workers = min(workers, deals)
    chunk = max(1, deals // (workers * 8))
    with _context().Pool(workers, initializer=_init_worker,
                         initargs=(game, agents, seed)) as pool:
        yield from pool.imap(_worker_deal, range(deals), chunksize=chunk)


def _context():
    method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    return mp.get_context(method)


_WORKER: dict = {}


def _init_worker(game: Game, agents: list[Agent], seed: int) -> None:
    _WORKER.update(game=game, agents=agents, seed=seed)


def _worker_deal(deal: int) -> DealOutcome:
    return play_deal(_WORKER["game"], _WORKER["agents"], _WORKER["seed"], deal)
