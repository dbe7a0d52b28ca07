"""Playing a match's deals on this machine: in this process, or over forked workers.

`LocalPool` is the local backend of `isz.evaluation.play_match` (the Ray one is
`isz.distributed.RayMatches`); `play_deals` is what both `LocalPool` and
`isz.evaluation.match` run. Deals go to the workers one at a time and come
back as they finish (in any order), so a journal can write each at once and a
slow deal holds no other back.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import signal
import sys
from collections.abc import Callable, Sequence
from multiprocessing.connection import wait

import numpy as np

from isz.agents.base import Agent
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
    with _Crew(min(workers, len(deals)), game, agents, seed) as crew:
        for deal, outcome in crew.play(deals):
            done(deal, outcome)


class _Crew:
    """Forked worker processes, each fed one deal at a time over its own pipe.

    Not `multiprocessing.Pool`: its ``terminate`` can deadlock joining its
    handler threads (CPython issues 78178 and 96995), and it hung a match stopped
    part-way (a test's interrupted match, once in CI). Here no thread runs: the
    parent waits on the pipes, a worker that dies is an error rather than a
    hang, and leaving the ``with`` block on an exception kills the workers.
    """

    def __init__(self, n: int, game: Game, agents: list[Agent], seed: int):
        ctx = _context()
        self._procs: dict = {}  # the parent's end of a worker's pipe -> the worker
        for _ in range(n):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(theirs, game, agents, seed, os.getpid()),
                               daemon=True)
            proc.start()
            theirs.close()  # so the worker's exit reads as EOF here
            self._procs[mine] = proc

    def play(self, deals: Sequence[int]):
        """Yield ``(deal, outcome)`` for each of ``deals``, in the order they finish."""
        todo = iter(deals)
        busy: dict = {}  # pipe -> the deal its worker plays
        for conn in self._procs:
            self._give(conn, next(todo, None), busy)
        while busy:
            for conn in wait(list(busy)):
                deal = busy.pop(conn)
                yield deal, self._take(conn, deal)
                self._give(conn, next(todo, None), busy)

    def _give(self, conn, deal, busy: dict) -> None:
        if deal is not None:
            conn.send(deal)
            busy[conn] = deal

    def _take(self, conn, deal: int) -> DealOutcome:
        try:
            outcome, error = conn.recv()
        except EOFError:
            proc = self._procs[conn]
            proc.join(1.0)
            raise RuntimeError(f"a match worker (pid {proc.pid}) died with exit code "
                               f"{proc.exitcode} while playing deal {deal}") from None
        if error is not None:
            raise error
        return outcome

    def __enter__(self) -> _Crew:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        for conn, proc in self._procs.items():
            if exc_type is None:
                try:
                    conn.send(None)  # done: the worker returns
                except OSError:  # it is gone already: joined below
                    pass
            else:
                proc.kill()  # stopped part-way: the deals in play are dropped
        for conn, proc in self._procs.items():
            proc.join(5.0)
            if proc.is_alive():
                proc.kill()
                proc.join()
            conn.close()


def one_torch_thread() -> None:
    """One intra-op thread for torch, if a planner brought it in, before forking.

    OpenMP's thread pool does not survive ``fork``: a worker whose parent ran a
    multi-threaded forward hangs in its first one. One thread per process is
    also what a worker on its own core should use.
    """
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


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


def _context():
    method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    return mp.get_context(method)


def _serve(conn, game: Game, agents: list[Agent], seed: int, parent: int) -> None:
    """A worker: play each deal sent until ``None``; send back ``(outcome, error)``."""
    _die_with_parent(parent)
    while (deal := conn.recv()) is not None:
        try:
            conn.send((play_deal(game, agents, seed, deal), None))
        except Exception as error:  # the parent raises it, as a Pool would
            conn.send((None, _sendable(error)))


def _sendable(error: Exception) -> Exception:
    """``error`` if it pickles, else a RuntimeError that carries its text."""
    try:
        pickle.dumps(error)
        return error
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")


def _die_with_parent(parent: int) -> None:
    """Linux: the kernel kills this worker when its parent dies (a ``kill -9`` of the
    match leaves no worker playing on); elsewhere a no-op."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
