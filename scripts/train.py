"""Train a policy/value network by self-play through information-set search.

    .venv/bin/python scripts/train.py                 # the default: tricks, ~minutes on CPU
    .venv/bin/python scripts/train.py game=kuhn_poker trainer.iterations=30
    .venv/bin/python scripts/train.py game.name=goofspiel game.module=examples.goofspiel
    .venv/bin/tensorboard --logdir runs               # watch it

Re-running the same command (same ``experiment.run_dir``) resumes the run from
its last checkpoint. Keys: isz/training/config.py; groups in conf/. User
errors (unknown names, options, keys or bad values, a run folder that is a
file, read-only or on a full disk, a checkpoint of another game, a diverged
loss) exit with status 2 and one ``error: ...`` line on stderr.

``game.module`` (a game defined outside isz) is imported before the game is made;
as with ``python -m``, modules under the launch directory are importable.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import hydra
from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf

from isz.cli import one_line_errors, run_hydra, unknown_keys
from isz.training.config import TrainConfig, check_continue_from

CONF = Path(__file__).resolve().parents[1] / "conf"


def _schema():
    node = OmegaConf.structured(TrainConfig)
    OmegaConf.set_struct(node.game.params, False)  # game params are vetted by make_game
    OmegaConf.set_struct(node.trainer.eval_knobs, False)  # agent knobs: vetted by make_agent
    OmegaConf.set_struct(node.belief.knobs, False)  # belief knobs are vetted by validate
    return node


ConfigStore.instance().store(name="train_schema", node=_schema())
sys.path.insert(1, os.getcwd())  # game.module=...: the launch directory, as python -m does


def preflight(cfg: DictConfig) -> None:
    """Before hydra creates ``<run_dir>/hydra``: keys known, the run folder a writable
    folder with some space (`isz.training.loop.train` checks again, with its estimate)."""
    from isz.fs import MB, check_free_space, check_writable_dir

    unknown_keys(cfg, TrainConfig, free=("game.params",))
    check_continue_from(cfg.trainer.continue_from, cfg.experiment.run_dir)
    run_dir = check_writable_dir(cfg.experiment.run_dir, "experiment.run_dir")
    check_free_space(run_dir, 16 * MB, "a training run")  # the estimate comes with the game


@hydra.main(config_path="../conf", config_name="train", version_base=None)
def main(cfg: DictConfig) -> None:
    from isz.training.loop import train

    with one_line_errors():
        unknown_keys(cfg, TrainConfig, free=("game.params",))
        scalars = train(OmegaConf.to_object(cfg))
    evals = {k: v for k, v in scalars.items() if k.startswith("eval/")}
    for k, v in sorted(evals.items()):
        print(f"{k:32s} {v:.4f}")


if __name__ == "__main__":
    run_hydra(main, CONF, "train", preflight)
