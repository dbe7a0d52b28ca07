"""Training configs of the tests: the classic AlphaZero recipe (``experiment=alphazero``)
as a typed `TrainConfig`, composed from conf/ so the preset stays its one source."""

from __future__ import annotations

from omegaconf import OmegaConf

from isz.cli import compose
from isz.cli.conf import conf_dir
from isz.cli.train import store_schema
from isz.training.config import TrainConfig


def alphazero_config(*overrides: str) -> TrainConfig:
    """``experiment=alphazero`` (PUCT self-play, final-return value targets, the uniform
    belief) with ``overrides`` (``key=value`` strings), as the training loop takes it."""
    store_schema()
    return OmegaConf.to_object(compose(conf_dir(), "train", ["experiment=alphazero",
                                                             *overrides]))
