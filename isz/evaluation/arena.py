"""The arena: duplicate deals with seat rotation, on this machine or on Ray.

``match(game, agents, deals, seed)`` plays every deal once per seat rotation
(the two seatings for 2 players, all n cyclic rotations for more), so the luck
of the deal cancels, and reports each agent's mean score with its standard
error over deals (`isz.evaluation.result.MatchResult`). How chance and the
agents' generators are derived is in `isz.evaluation.play`; the result does
not depend on ``workers``.

`play_match(spec, backend)` plays a match described by names (`MatchSpec`),
so its deals can go to any process that builds the agents itself: a
`LocalPool` on this machine or Ray workers on every node of a cluster
(`isz.distributed.RayMatches`, made by `make_backend`); the result is the
same deal by deal. With a ``journal`` every finished deal is written as it
finishes, and the same match started again plays only the deals still missing.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np

from isz.agents.base import Agent
from isz.crew import one_torch_thread
from isz.evaluation.journal import DealJournal
from isz.evaluation.play import DealOutcome, DecisionHook
from isz.evaluation.pool import LocalPool, play_deals, warm_up
from isz.evaluation.result import MatchResult
from isz.evaluation.spec import MatchSpec, build, file_digest
from isz.games.base import Game
from isz.progress import Progress
from isz.types import IszError, check_int

Tick = Callable[[int], None]


def match(game: Game, agents: Sequence[Agent], deals: int, seed: int, workers: int = 1,
          progress: bool | Tick = True,
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
        one_torch_thread()
    warm_up(game, agents, seed)
    start = time.perf_counter()
    outcomes: dict[int, DealOutcome] = {}
    with _ticker(game.label, deals, progress) as tick:
        def done(deal: int, out: DealOutcome) -> None:
            outcomes[deal] = out
            tick(1)

        play_deals(game, list(agents), seed, range(deals), workers, done, on_decision)
    return _result(game, [a.name for a in agents], outcomes, seed, workers,
                   time.perf_counter() - start)


def play_match(spec: MatchSpec, backend=None, *, journal: str | Path | None = None,
               progress: bool | Tick = True) -> MatchResult:
    """Play the match ``spec`` describes on ``backend`` and score the agents.

    Args:
        spec: the match (`MatchSpec`): game, one `SeatSpec` per seat, deals, seed.
        backend: where the deals are played: `LocalPool` (default: one, in
            this process) or `isz.distributed.RayMatches` (see `make_backend`).
            The result is the same deal by deal whatever the backend.
        journal: a file (`isz.evaluation.journal.journal_for` names one next
            to the result's) where each finished deal is written as it
            finishes; deals already in it are not played again. It must have
            been written by the same match (`MatchSpec.key`), else IszError.
            The caller removes it once the result is saved.
        progress: as in `match`; counts deals finished on every worker.
    Returns:
        a `MatchResult`; ``resumed`` counts the deals taken from the journal and
        ``wall_time_s`` is this call's (building the agents and starting the
        workers included).
    """
    spec.check()
    backend = backend or LocalPool(1)
    start = time.perf_counter()
    game, agents = build(spec)  # bad names or knobs fail here, before any worker starts
    digests = {p: file_digest(p) for p in spec.checkpoints()}
    book = DealJournal(journal, spec.key(digests), spec.settings(digests)) if journal else None
    outcomes = {d: o for d, o in (book.done.items() if book else ()) if d < spec.deals}
    resumed = len(outcomes)
    todo = [d for d in range(spec.deals) if d not in outcomes]
    try:
        with _ticker(game.label, spec.deals, progress) as tick:
            if resumed:
                tick(resumed)

            def done(deal: int, out: DealOutcome) -> None:
                if deal in outcomes:  # replayed after a worker died, and both came back
                    return
                outcomes[deal] = out
                if book is not None:
                    book.add(deal, out)
                tick(1)

            if todo:
                backend.play(spec, game, agents, todo, done)
    finally:
        if book is not None:
            book.close()
    missing = [d for d in todo if d not in outcomes]
    if missing:
        raise IszError(f"the {backend.name} backend returned without deal(s) "
                       f"{missing[:5]}{' ...' if len(missing) > 5 else ''}")
    return _result(game, [a.name for a in agents], outcomes, spec.seed,
                   backend.workers_for(len(todo)), time.perf_counter() - start,
                   resumed=resumed, backend=backend.name)


def make_backend(kind: str = "local", workers: int | None = None, ray=None):
    """A backend for `play_match`: ``local`` (a `LocalPool` of ``workers``
    processes, default 1) or ``ray`` (`isz.distributed.RayMatches`: ``workers``
    Ray workers, default one per CPU of the cluster; ``ray`` is a `RayCfg`-like
    object with ``address``, ``num_cpus``, ...). Ray is imported only here."""
    if kind == "local":
        return LocalPool(1 if workers is None else workers)
    if kind != "ray":
        raise IszError(f"backend={kind!r}: allowed: local, ray")
    try:
        from isz.distributed import RayMatches
    except ImportError as e:
        raise IszError(f"backend=ray needs Ray ({e}); pip install 'ray>=2.9'") from e
    return RayMatches(ray, workers=workers)


@contextlib.contextmanager
def _ticker(name: str, deals: int, progress: bool | Tick) -> Iterator[Tick]:
    """A `Progress` bar over ``deals`` (or the caller's callable): ``tick(n)``."""
    if callable(progress):
        yield progress
        return
    with Progress(name, deals, "deals", enabled=progress) as bar:
        yield bar.update


def _result(game: Game, names: list[str], outcomes: dict[int, DealOutcome], seed: int,
            workers: int, wall: float, resumed: int = 0, backend: str = "local") -> MatchResult:
    """The `MatchResult` of ``outcomes`` (every deal 0..n-1), in deal order."""
    results = [outcomes[d] for d in sorted(outcomes)]
    stats = {k: np.stack([r.stats[k] for r in results]) for k in results[0].stats}
    return MatchResult.from_deals(
        game, names, np.stack([r.scores for r in results]),
        np.stack([r.utilities for r in results]), seed=seed, workers=workers,
        wall_time_s=wall, work=np.sum([r.work for r in results], axis=0), stats=stats,
        resumed=resumed, backend=backend)


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
