"""The run's final root check: the priors' PUCT and so_ismcts's UCB at the planner's
root, each against so_ismcts on the same deals; the priors are kept only on a paired
lead of more than 2 SE, else UCB is recorded."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.nn.model import ModelConfig, build_model
from isz.training import checks
from isz.training.config import TrainConfig


class _Played:
    """What `play_match` returns, as far as the check reads it."""

    def __init__(self, seat0):
        self.deal_utilities = np.stack([seat0, -seat0], axis=1)


def _cfg():
    cfg = TrainConfig()
    cfg.game.name = "kuhn_poker"
    cfg.trainer.root_check_deals = 8
    cfg.trainer.eval_workers = 1
    return cfg


def _check(monkeypatch, puct, ucb, record=None):
    """The check with the two matches' seat-0 returns a deal given; returns its scalars
    and the specs it played."""
    played, returns = [], iter([np.asarray(puct, float), np.asarray(ucb, float)])

    def fake(spec, backend, progress=None):
        played.append(spec)
        return _Played(next(returns))

    monkeypatch.setattr(checks, "play_match", fake)
    cfg = _cfg()
    game = isz.make_game("kuhn_poker")
    model = build_model(game, ModelConfig(width=8, depth=1))
    record = record or {"agent": "guided_so_ismcts", "iterations": 64, "c_puct": 1.5,
                        "belief": "auto", "belief_policy": "network", "final": "most_visits",
                        "value_mix": 0.25}
    return checks.root_check(game, model, cfg, "cpu", 3, record=record), played


def test_ucb_is_recorded_on_a_paired_lead_over_2_se(monkeypatch):
    # the deals' luck is shared: per-deal differences are small though each side varies
    luck = np.array([1.0, -1.0, 2.0, -2.0, 1.0, -1.0, 2.0, -2.0])
    out, played = _check(monkeypatch, luck, luck + np.array([0.1, 0.2] * 4))
    assert out["root_check/diff"] == pytest.approx(0.15)
    assert out["root_check/se"] == pytest.approx(0.05 / np.sqrt(8) * np.sqrt(8 / 7))
    assert out["root_check/c_puct"] == 0.0
    # both matches: the same deals and seed, the planner in seat 0 against so_ismcts
    (a, b) = played
    assert (a.deals, a.seed) == (b.deals, b.seed) == (8, 3)
    assert [s.agent for s in a.seats] == [s.agent for s in b.seats] == ["planner", "so_ismcts"]
    assert "c_puct" not in a.seats[0].knobs and b.seats[0].knobs["c_puct"] == 0.0
    assert a.seats[1].knobs["time_budget"] == a.seats[0].knobs["time_budget"]


def test_the_priors_stay_only_on_a_lead_over_2_se(monkeypatch):
    luck = np.array([1.0, -1.0, 2.0, -2.0, 1.0, -1.0, 2.0, -2.0])
    out, _ = _check(monkeypatch, luck, luck - 0.5)  # UCB behind on every deal
    assert out["root_check/diff"] == pytest.approx(-0.5)
    assert out["root_check/c_puct"] == 1.5
    # level within 2 SE, either way: the priors have not earned their place
    out, _ = _check(monkeypatch, luck, luck + np.array([0.3, -0.2] * 4))
    assert out["root_check/diff"] == pytest.approx(0.05)
    assert out["root_check/c_puct"] == 0.0
    out, _ = _check(monkeypatch, luck, luck - np.array([0.3, -0.2] * 4))
    assert out["root_check/diff"] == pytest.approx(-0.05)
    assert out["root_check/c_puct"] == 0.0
    # the priors ahead by a little under 2 SE, then by a little over
    se = 0.25 / np.sqrt(7)
    for lead, kept in ((1.9 * se, 0.0), (2.1 * se, 1.5)):
        out, _ = _check(monkeypatch, luck, luck - lead + np.array([0.25, -0.25] * 4))
        assert out["root_check/se"] == pytest.approx(se)
        assert out["root_check/c_puct"] == kept


def test_no_check_for_a_ucb_root_or_another_planner(monkeypatch):
    ucb = {"agent": "guided_so_ismcts", "iterations": 64, "c_puct": 0.0}
    assert _check(monkeypatch, [0.0], [0.0], record=ucb) == ({}, [])
    puct = {"agent": "puct_ismcts", "iterations": 64, "c_puct": 1.5}
    assert _check(monkeypatch, [0.0], [0.0], record=puct) == ({}, [])


def test_the_log_line_says_why_the_root_was_recorded():
    from isz.training.loop import root_line

    kept = root_line({"root_check/diff": -0.08, "root_check/se": 0.015,
                      "root_check/c_puct": 1.5})
    assert "-0.080 ± 0.015" in kept and "c_puct=1.5 (the priors: ahead by more" in kept
    level = root_line({"root_check/diff": 0.028, "root_check/se": 0.018,
                       "root_check/c_puct": 0.0})
    assert "+0.028 ± 0.018" in level and "c_puct=0 (the priors: not ahead by more" in level
