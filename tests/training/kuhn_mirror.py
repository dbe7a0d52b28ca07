"""A tiny Kuhn run with mirror-descent targets: the magnet and average tests' base config."""

from __future__ import annotations

from pathlib import Path

from isz.training.config import TrainConfig
from tests.recipes import alphazero_config


def kuhn_mirror_cfg(run_dir: Path, iterations: int = 4) -> TrainConfig:
    """Kuhn, posterior belief, on-policy q, mirror targets; 16 games of 8 simulations an
    iteration, a 16-wide network, every iteration checkpointed, no evaluations or logs."""
    cfg = alphazero_config()
    cfg.game.name = "kuhn_poker"
    cfg.belief.name = "posterior"
    cfg.selfplay.games_per_iteration = 16
    cfg.selfplay.parallel_games = 8
    cfg.search.simulations = 8
    cfg.search.opponents = "evaluate"
    cfg.search.target = "mirror"
    cfg.search.mirror_alpha = 0.1
    cfg.model.width = 16
    cfg.model.depth = 1
    cfg.trainer.iterations = iterations
    cfg.trainer.steps_per_iteration = 4
    cfg.trainer.batch_size = 16
    cfg.trainer.eval_every = 0
    cfg.trainer.eval_opponents = []
    cfg.trainer.exploitability_max_histories = 0
    cfg.trainer.checkpoint_every = 1
    cfg.trainer.keep_last = 10
    cfg.logger.progress = False
    cfg.logger.tensorboard = False
    cfg.experiment.run_dir = str(run_dir)
    return cfg


def train_stopped_after(monkeypatch, cfg: TrainConfig, saves: int) -> None:
    """Run ``cfg`` and stop it (KeyboardInterrupt) right after its ``saves``-th checkpoint
    save, as a user's Ctrl-C would; `run_state.save` is restored afterwards."""
    import pytest

    from isz.training import loop

    real_save, done = loop.run_state.save, []

    def stop(*args, **kw):
        out = real_save(*args, **kw)
        done.append(1)
        if len(done) == saves:
            raise KeyboardInterrupt
        return out

    monkeypatch.setattr(loop.run_state, "save", stop)
    with pytest.raises(KeyboardInterrupt):
        loop.train(cfg)
    monkeypatch.setattr(loop.run_state, "save", real_save)
