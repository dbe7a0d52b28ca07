"""Forked worker processes on this machine, fed one task at a time over pipes.

`Crew` is what evaluation's `isz.evaluation.pool.LocalPool` plays its deals on and what
training's `isz.training.source.LocalSelfPlay` plays its self-play chunks on: ``n``
processes, each running ``work(task)`` for every task it is sent and sending back the
result. Forked (where the platform can), so the workers share the parent's compiled
search kernels and hold its objects without pickling them; elsewhere spawned, and
``work`` must pickle.

Not `multiprocessing.Pool`: its ``terminate`` can deadlock joining its handler threads
(CPython issues 78178 and 96995), and it hung a match stopped part-way (a test's
interrupted match, once in CI). Here no thread runs: the parent waits on the pipes, a
worker that dies is an error rather than a hang, and leaving the ``with`` block on an
exception kills the workers.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import wait
from typing import Any


class Crew:
    """``n`` worker processes running ``work``; ``what`` names a task in errors."""

    def __init__(self, n: int, work: Callable[[Any], Any], what: str = "task"):
        ctx = _context()
        self.what = what
        self._procs: dict = {}  # the parent's end of a worker's pipe -> the worker
        for _ in range(n):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(theirs, work, os.getpid()), daemon=True)
            proc.start()
            theirs.close()  # so the worker's exit reads as EOF here
            self._procs[mine] = proc

    def run(self, tasks: Iterable) -> Iterator[tuple[Any, Any]]:
        """Yield ``(task, work(task))`` for each of ``tasks``, in the order they finish."""
        todo = iter(tasks)
        busy: dict = {}  # pipe -> the task its worker runs
        for conn in self._procs:
            self._give(conn, next(todo, None), busy)
        while busy:
            for conn in wait(list(busy)):
                task = busy.pop(conn)
                yield task, self._take(conn, task)
                self._give(conn, next(todo, None), busy)

    def _give(self, conn, task, busy: dict) -> None:
        if task is not None:
            conn.send(task)
            busy[conn] = task

    def _take(self, conn, task):
        try:
            result, error = conn.recv()
        except EOFError:
            proc = self._procs[conn]
            proc.join(1.0)
            raise RuntimeError(f"a worker (pid {proc.pid}) died with exit code "
                               f"{proc.exitcode} while playing {self.what} {_name(task)}") \
                from None
        if error is not None:
            raise error
        return result

    def close(self, stopped: bool = False) -> None:
        """End the workers: each returns after its last task, or with ``stopped`` (an
        exception part-way) is killed, dropping the tasks in play."""
        for conn, proc in self._procs.items():
            if not stopped:
                try:
                    conn.send(None)  # done: the worker returns
                except OSError:  # it is gone already: joined below
                    pass
            else:
                proc.kill()
        for conn, proc in self._procs.items():
            proc.join(5.0)
            if proc.is_alive():
                proc.kill()
                proc.join()
            conn.close()
        self._procs = {}

    def __enter__(self) -> Crew:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.close(stopped=exc_type is not None)


def one_torch_thread() -> None:
    """One intra-op thread for torch, if it is loaded, before forking.

    OpenMP's thread pool does not survive ``fork``: a worker whose parent ran a
    multi-threaded forward hangs in its first one. One thread per process is
    also what a worker on its own core should use.
    """
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def forked_crew(n: int, work: Callable[[Any], Any], what: str = "task") -> Crew:
    """A `Crew` whose workers run torch on one thread each (`one_torch_thread` around
    the fork); this process keeps its own thread count."""
    torch = sys.modules.get("torch")
    threads = torch.get_num_threads() if torch is not None else None
    one_torch_thread()
    try:
        return Crew(n, work, what)
    finally:
        if threads is not None:
            torch.set_num_threads(threads)


def _name(task) -> str:
    """A task as errors name it: a tuple by its first item (its index)."""
    return str(task[0] if isinstance(task, tuple) else task)


def _context():
    method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    return mp.get_context(method)


def _serve(conn, work: Callable[[Any], Any], parent: int) -> None:
    """A worker: run ``work`` on each task sent until ``None``; send back
    ``(result, error)``."""
    _die_with_parent(parent)
    # Ctrl-C reaches every process of the terminal: the parent alone handles it (and
    # ends its workers), rather than each worker printing a traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while (task := conn.recv()) is not None:
        try:
            conn.send((work(task), None))
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
    run leaves no worker playing on); elsewhere a no-op."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
