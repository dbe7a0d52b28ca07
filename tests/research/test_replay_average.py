"""research.replay_average: a finished run's average network re-learned from its saved
iterates with ``trainer.average_policy_games`` is the one a run trained with it writes."""

from __future__ import annotations

import pytest
import torch

from isz import IszError
from isz.nn import load_checkpoint, load_model
from isz.training import loop
from research import replay_average
from tests.training.kuhn_mirror import kuhn_mirror_cfg


def _cfg(run, games: int = 0, polish: int = 0):
    cfg = kuhn_mirror_cfg(run, 3)
    cfg.trainer.average_policy_from = 2
    cfg.trainer.average_policy_steps = 8
    cfg.trainer.average_policy_buffer = 40
    cfg.trainer.average_policy_target = "network"
    cfg.trainer.average_policy_games = games
    cfg.trainer.average_policy_polish = polish
    return cfg


def test_replaying_a_run_gives_the_network_a_run_with_own_games_writes(tmp_path):
    plain, games = _cfg(tmp_path / "plain"), _cfg(tmp_path / "games", games=25, polish=6)
    for cfg in (plain, games):
        loop.train(cfg)
    losses = replay_average.replay_run(tmp_path / "plain", games.trainer, "g25")
    assert "average_policy/polish_policy" in losses
    got = load_checkpoint(tmp_path / "plain" / "checkpoints" / "g25.pt")["model"]
    want = load_checkpoint(tmp_path / "games" / "checkpoints" / "average_policy.pt")["model"]
    assert got.keys() == want.keys() and all(torch.equal(got[k], want[k]) for k in got)
    plain_avg = load_checkpoint(tmp_path / "plain" / "checkpoints" / "average_policy.pt")
    assert not all(torch.equal(got[k], plain_avg["model"][k]) for k in got)
    load_model(tmp_path / "plain" / "checkpoints" / "g25.pt")  # a checkpoint like any other


def test_bad_runs_and_arguments_are_named(tmp_path):
    cfg = _cfg(tmp_path / "run")
    cfg.trainer.keep_last = 1  # iter-000002.pt is pruned
    loop.train(cfg)
    with pytest.raises(IszError, match=r"no iter-<t>.pt for iterations 2 "):
        replay_average.replay_run(tmp_path / "run", _cfg(tmp_path / "x", games=5).trainer, "r")
    with pytest.raises(IszError, match="average_policy_games > 0"):
        replay_average.replay_run(tmp_path / "run", cfg.trainer, "r")
    with pytest.raises(IszError, match="--name 'last' would overwrite"):
        replay_average.main([str(tmp_path / "run"), "--name", "last"])
    with pytest.raises(IszError, match="trainer.seed=5 differs from .*own seed 0 "
                                       r"\(config.yaml\): give trainer.seed=0"):
        replay_average.main([str(tmp_path / "run"), "--name", "r", "--", "trainer.seed=5"])


def test_a_run_replayed_with_its_own_recorded_settings_gives_its_own_network(tmp_path):
    """Without overrides the tools read the run's config.yaml: replaying a run trained
    with own games gives its own average network back."""
    loop.train(_cfg(tmp_path / "games", games=25, polish=6))
    assert replay_average.main([str(tmp_path / "games"), "--name", "again"]) == 0
    ck = tmp_path / "games" / "checkpoints"
    got, want = (load_checkpoint(ck / f)["model"] for f in ("again.pt", "average_policy.pt"))
    assert all(torch.equal(got[k], want[k]) for k in got)
