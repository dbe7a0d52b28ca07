"""Where the learner's positions come from: self-play on this machine, or Ray actors.

A source answers ``collect(st, sp_cfg, games, progress) -> (positions, stats,
scalars)`` once per iteration (``progress(n)``: n more games are in) and
``publish(model, version)`` after each round of learning. `LocalSelfPlay` plays
the games now with the learner's weights, in chunks seeded from the run's
generator (``selfplay.workers`` processes), so a run with ``trainer.actors=0`` is
bit-for-bit reproducible;
`isz.distributed.RaySelfPlay` (``trainer.actors >= 1``) takes finished chunks
that actors played while the learner trained.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from pathlib import Path

import torch

from isz.agents.network import NetworkEvaluator
from isz.crew import Crew, forked_crew
from isz.selfplay import SelfPlayConfig
from isz.selfplay.chunks import chunk_sizes, merge_chunks, play_chunk
from isz.types import IszError, seed_from


class LocalSelfPlay:
    """Self-play on this machine with the current weights (and the run's network
    magnet, if any): the iteration's games in chunks of ``parallel_games`` games
    (`isz.selfplay.chunks`), each from a seed drawn from the run's generator, played
    by ``workers`` forked processes (1, and always on CUDA: this process, chunk after
    chunk). A chunk's games do not depend on the process that plays them, so a run's
    result is the same for any count and bit-for-bit reproducible."""

    def __init__(self, game, device, workers: int = 1):
        self.game, self.device = game, device
        self.workers = workers if torch.device(device).type == "cpu" else 1
        self._crew: Crew | None = None

    def collect(self, st, sp_cfg: SelfPlayConfig, games: int,
                progress: Callable[[int], None] | None = None):
        sizes = chunk_sizes(games, sp_cfg.parallel_games)
        seeds = [seed_from(st.rng) for _ in sizes]
        t0 = time.perf_counter()
        if self.workers == 1 or len(sizes) == 1:
            parts = [self._play_here(st, sp_cfg, n, seed, progress)
                     for n, seed in zip(sizes, seeds, strict=True)]
        else:
            weights = (_state(st.model), _state(st.magnet))
            tasks = [(i, n, seed, sp_cfg, weights)
                     for i, (n, seed) in enumerate(zip(sizes, seeds, strict=True))]
            parts = [None] * len(tasks)
            try:
                for (i, n, *_), part in self._crew_of(st).run(tasks):
                    parts[i] = part
                    if progress:
                        progress(n)
            except BaseException:  # a chunk failed, or Ctrl-C: no worker plays on
                self.close(stopped=True)
                raise
        pos, stats = merge_chunks(parts, time.perf_counter() - t0)
        return pos, stats, {}

    def _play_here(self, st, sp_cfg, games: int, seed: int, progress):
        magnet = None if st.magnet is None else NetworkEvaluator(st.magnet, self.device)
        return play_chunk(self.game, NetworkEvaluator(st.model, self.device), sp_cfg, games,
                          seed, magnet, progress)

    def _crew_of(self, st) -> Crew:
        """The worker processes, forked at the first collect with one torch thread each
        (this process keeps its own count)."""
        if self._crew is None:
            self._crew = forked_crew(self.workers, _ChunkPlayer(self.game, st.model),
                                     "self-play chunk")
        return self._crew

    def publish(self, model, version: int) -> None:
        """Nothing to send: the next `collect` sends the weights with its chunks."""

    def close(self, stopped: bool = False) -> None:
        if self._crew is not None:
            self._crew.close(stopped)
            self._crew = None


class _ChunkPlayer:
    """A worker's side of `LocalSelfPlay`: its own copy of the network, loaded with the
    weights each chunk brings (a magnet's too), on the CPU."""

    def __init__(self, game, model):
        self.game = game
        self.model = copy.deepcopy(model).cpu()
        self.magnet = None

    def __call__(self, task):
        _, games, seed, sp_cfg, (weights, magnet_weights) = task
        self.model.load_state_dict(_tensors(weights))
        magnet = None
        if magnet_weights is not None:
            if self.magnet is None:
                self.magnet = copy.deepcopy(self.model)
            self.magnet.load_state_dict(_tensors(magnet_weights))
            magnet = NetworkEvaluator(self.magnet, "cpu")
        return play_chunk(self.game, NetworkEvaluator(self.model, "cpu"), sp_cfg, games, seed,
                          magnet)


def _state(model) -> dict | None:
    """``model``'s weights as numpy arrays (None for no model), to send to a worker.
    Not tensors: multiprocessing pickles a tensor by moving it to shared memory and
    handing its file descriptor over a socket of its own, whose thread prints a
    traceback when Ctrl-C ends a worker mid-handshake; arrays travel as bytes."""
    if model is None:
        return None
    return {k: v.detach().cpu().numpy() for k, v in model.state_dict().items()}


def _tensors(state: dict) -> dict:
    return {k: torch.from_numpy(v) for k, v in state.items()}


def open_source(cfg, game, st, device, run_dir: Path):
    """`LocalSelfPlay`, or with ``trainer.actors >= 1`` started Ray actors
    holding the current weights (IszError at once if Ray cannot give them)."""
    if not cfg.trainer.actors:
        return LocalSelfPlay(game, device, cfg.selfplay.workers)
    try:
        from isz.distributed import RaySelfPlay
    except ImportError as e:
        raise IszError(f"trainer.actors={cfg.trainer.actors} needs Ray ({e}); "
                       "pip install 'ray>=2.9', or trainer.actors=0") from e
    return RaySelfPlay.start(cfg, st.model, st.counters["iteration"], run_dir)
