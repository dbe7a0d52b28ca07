"""Where the learner's positions come from: self-play in this process, or Ray actors.

A source answers ``collect(st, sp_cfg, games, progress) -> (positions, stats,
scalars)`` once per iteration (``progress(n)``: n more games are in) and
``publish(model, version)`` after each round of learning. `InProcessSelfPlay`
plays the games itself with the learner's network and the run's generator, so
a run with ``trainer.actors=0`` is bit-for-bit reproducible;
`isz.distributed.RaySelfPlay` (``trainer.actors >= 1``) takes finished chunks
that actors played while the learner trained.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from isz.agents.network import NetworkEvaluator
from isz.selfplay import SelfPlayConfig, play
from isz.types import IszError


class InProcessSelfPlay:
    """Today's loop: play ``games`` now, with the current weights (and the run's
    network magnet, if any), on the learner's device."""

    def __init__(self, game, device):
        self.game, self.device = game, device

    def collect(self, st, sp_cfg: SelfPlayConfig, games: int,
                progress: Callable[[int], None] | None = None):
        evaluator = NetworkEvaluator(st.model, self.device)
        magnet = None if st.magnet is None else NetworkEvaluator(st.magnet, self.device)
        pos, stats = play(self.game, evaluator, sp_cfg, games, st.rng, progress=progress,
                          magnet=magnet)
        return pos, stats, {}

    def publish(self, model, version: int) -> None:
        """Nothing to send: the next `collect` uses ``model`` itself."""

    def close(self) -> None:
        pass


def open_source(cfg, game, st, device, run_dir: Path):
    """`InProcessSelfPlay`, or with ``trainer.actors >= 1`` started Ray actors
    holding the current weights (IszError at once if Ray cannot give them)."""
    if not cfg.trainer.actors:
        return InProcessSelfPlay(game, device)
    try:
        from isz.distributed import RaySelfPlay
    except ImportError as e:
        raise IszError(f"trainer.actors={cfg.trainer.actors} needs Ray ({e}); "
                       "pip install 'ray>=2.9', or trainer.actors=0") from e
    return RaySelfPlay.start(cfg, st.model, st.counters["iteration"], run_dir)
