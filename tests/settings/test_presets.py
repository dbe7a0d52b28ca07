"""Every preset in conf/experiment composes over the declared schema and validates."""

from __future__ import annotations

from pathlib import Path

import pytest
from omegaconf import OmegaConf

from isz.cli import compose, unknown_keys
from isz.training.config import TrainConfig, validate

CONF = Path(__file__).resolve().parents[2] / "conf"
PRESETS = sorted(p.stem for p in (CONF / "experiment").glob("*.yaml"))


@pytest.fixture(scope="module")
def schema():
    from hydra.core.config_store import ConfigStore

    node = OmegaConf.structured(TrainConfig)
    for free in (node.game.params, node.trainer.eval_knobs, node.belief.knobs):
        OmegaConf.set_struct(free, False)
    ConfigStore.instance().store(name="train_schema", node=node)


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_composes_and_validates(schema, tmp_path, preset):
    cfg = compose(CONF, "train", [f"experiment={preset}"])
    unknown_keys(cfg, TrainConfig, free=("game.params",))
    typed = OmegaConf.to_object(cfg)
    if typed.trainer.continue_from:  # another run's checkpoint: stands in for it here
        source = tmp_path / "last.pt"
        source.write_bytes(b"")
        typed.trainer.continue_from = str(source)
    validate(typed)
