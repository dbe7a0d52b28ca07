"""A run folder records the settings it started with (``config.yaml``), and
`load_run_config` reads them back as the same `TrainConfig`, or names what is wrong."""

from __future__ import annotations

import pytest

from isz import IszError
from isz.training import loop
from isz.training.config import CONFIG_FILE, load_run_config
from tests.training.kuhn_mirror import kuhn_mirror_cfg


def test_a_run_records_its_settings_and_they_read_back_equal(tmp_path):
    cfg = kuhn_mirror_cfg(tmp_path / "run", 2)
    cfg.trainer.average_policy_from = 2
    cfg.trainer.average_policy_target = "network"
    cfg.trainer.average_policy_games = 7
    loop.train(cfg)
    assert load_run_config(tmp_path / "run") == cfg
    longer = kuhn_mirror_cfg(tmp_path / "run", 3)  # resumed with more iterations
    loop.train(longer)
    assert load_run_config(tmp_path / "run").trainer.iterations == 3


def test_a_missing_or_broken_config_is_named(tmp_path):
    with pytest.raises(IszError, match=f"no {CONFIG_FILE} .*give the run's hydra overrides"):
        load_run_config(tmp_path)
    (tmp_path / CONFIG_FILE).write_text("trainer:\n  iterations: many\n")
    with pytest.raises(IszError, match=f"cannot read .*{CONFIG_FILE}.*iterations"):
        load_run_config(tmp_path)
