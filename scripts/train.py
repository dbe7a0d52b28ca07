"""Train a policy/value network by self-play through information-set search.

    python scripts/train.py                           # the default: tricks, ~minutes on CPU
    python scripts/train.py game=kuhn_poker trainer.iterations=30
    python scripts/train.py game.name=goofspiel game.module=examples.goofspiel  # an outside game
    tensorboard --logdir runs                         # watch it

Re-running the same command (same ``experiment.run_dir``) resumes the run from
its last checkpoint. Keys: isz/training/config.py; groups in conf/. User
errors (unknown names, bad values, a checkpoint of another game, a diverged
loss) exit with status 2 and one ``error: ...`` line on stderr.

``game.module`` (a game defined outside isz) is imported before the game is made;
as with ``python -m``, modules under the launch directory are importable.
"""

from __future__ import annotations

import os
import sys

import hydra
from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf

from isz import IszError
from isz.training.config import TrainConfig


def _schema():
    node = OmegaConf.structured(TrainConfig)
    OmegaConf.set_struct(node.game.params, False)  # game params are vetted by make_game
    OmegaConf.set_struct(node.trainer.eval_knobs, False)  # agent knobs: vetted by make_agent
    OmegaConf.set_struct(node.belief.knobs, False)  # belief knobs are vetted by validate
    return node


ConfigStore.instance().store(name="train_schema", node=_schema())
sys.path.insert(1, os.getcwd())  # game.module=...: the launch directory, as python -m does


@hydra.main(config_path="../conf", config_name="train", version_base=None)
def main(cfg: DictConfig) -> None:
    from isz.training.loop import train

    try:
        scalars = train(OmegaConf.to_object(cfg))
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    evals = {k: v for k, v in scalars.items() if k.startswith("eval/")}
    for k, v in sorted(evals.items()):
        print(f"{k:32s} {v:.4f}")


if __name__ == "__main__":
    main()
