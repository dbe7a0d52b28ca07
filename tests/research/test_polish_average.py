"""research.polish_average: a finished run's average network polished after the fact is
the one the run would have written with ``trainer.average_policy_polish`` on."""

from __future__ import annotations

import pytest
import torch

from isz import IszError
from isz.nn import load_checkpoint, load_model
from isz.training import loop
from research import polish_average
from tests.training.kuhn_mirror import kuhn_mirror_cfg


def _cfg(run, polish: int = 0, start: int = 2):
    cfg = kuhn_mirror_cfg(run, 3)
    cfg.trainer.average_policy_from = start
    cfg.trainer.average_policy_steps = 8
    cfg.trainer.average_policy_buffer = 40
    cfg.trainer.average_policy_polish = polish
    return cfg


def test_polishing_a_finished_run_gives_the_polished_runs_network(tmp_path):
    plain, polished = _cfg(tmp_path / "plain"), _cfg(tmp_path / "polished", polish=12)
    for cfg in (plain, polished):
        loop.train(cfg)
    losses = polish_average.polish_run(tmp_path / "plain", plain.trainer, 12, "p12")
    assert set(losses) >= {"average_policy/polish_policy", "average_policy/polish_value"}
    ck = tmp_path / "plain" / "checkpoints"
    got = load_checkpoint(ck / "p12.pt")["model"]
    want = load_checkpoint(tmp_path / "polished" / "checkpoints" / "average_policy.pt")["model"]
    assert got.keys() == want.keys() and all(torch.equal(got[k], want[k]) for k in got)
    before = load_checkpoint(ck / "average_policy.pt")["model"]
    assert not all(torch.equal(got[k], before[k]) for k in got)  # the run's own file stays
    load_model(ck / "p12.pt")  # a checkpoint like any other


def test_bad_runs_and_arguments_are_named(tmp_path):
    loop.train(_cfg(tmp_path / "off", start=0))
    with pytest.raises(IszError, match="keeps no average policy"):
        polish_average.polish_run(tmp_path / "off", _cfg(tmp_path / "x").trainer, 5, "p")
    with pytest.raises(IszError, match="--steps must be at least 1, got 0"):
        polish_average.main([str(tmp_path / "off"), "--steps", "0", "--name", "p"])
    with pytest.raises(IszError, match="--name 'average_policy' would overwrite"):
        polish_average.main([str(tmp_path / "off"), "--steps", "5", "--name", "average_policy"])
