"""The run's final root check: the priors' PUCT and so_ismcts's UCB at the planner's
root, each against so_ismcts on the same deals, in rounds of fresh deals until one leads
by more than 2 SE (paired over deals), else the one ahead on the mean after the last."""

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


def _check(monkeypatch, *rounds, record=None):
    """The check with each round's two matches' seat-0 returns a deal given (``rounds``:
    (puct, ucb) pairs); returns its scalars and the specs it played."""
    played = []
    returns = iter([np.asarray(x, float) for pair in rounds for x in pair])

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


# the deals' luck is shared: per-deal differences are small though each side varies
LUCK = np.array([1.0, -1.0, 2.0, -2.0, 1.0, -1.0, 2.0, -2.0])


def test_a_lead_over_2_se_decides_in_the_first_round(monkeypatch):
    out, played = _check(monkeypatch, (LUCK, LUCK + np.array([0.1, 0.2] * 4)))
    assert out["root_check/diff"] == pytest.approx(0.15)
    assert out["root_check/se"] == pytest.approx(0.05 / np.sqrt(8) * np.sqrt(8 / 7))
    assert out["root_check/c_puct"] == 0.0 and out["root_check/deals"] == 8
    # both matches: the same deals and seed, the planner in seat 0 against so_ismcts
    (a, b) = played
    assert (a.deals, a.seed) == (b.deals, b.seed) == (8, 3)
    assert [s.agent for s in a.seats] == [s.agent for s in b.seats] == ["planner", "so_ismcts"]
    assert "c_puct" not in a.seats[0].knobs and b.seats[0].knobs["c_puct"] == 0.0
    assert a.seats[1].knobs["time_budget"] == a.seats[0].knobs["time_budget"]
    out, played = _check(monkeypatch, (LUCK, LUCK - 0.5))  # UCB behind on every deal
    assert out["root_check/diff"] == pytest.approx(-0.5)
    assert out["root_check/c_puct"] == 1.5 and len(played) == 2


def test_within_2_se_a_second_round_then_the_mean(monkeypatch):
    se = 0.25 / np.sqrt(7)  # one round's SE of the gap
    # the priors 1.9 SE ahead in the first round: undecided, a second round on fresh deals
    first = (LUCK, LUCK - 1.9 * se + np.array([0.25, -0.25] * 4))
    out, played = _check(monkeypatch, first, (LUCK, LUCK - 0.5))
    assert [s.seed for s in played] == [3, 3, 4, 4] and out["root_check/deals"] == 16
    assert out["root_check/diff"] == pytest.approx((-1.9 * se - 0.5) / 2)
    assert out["root_check/c_puct"] == 1.5
    # still within 2 SE after the last round: the mean picks, either way
    level = (LUCK, LUCK + np.array([0.25, -0.25] * 4))
    out, played = _check(monkeypatch, first, level)
    assert len(played) == 4 and 0 < -out["root_check/diff"] < 2 * out["root_check/se"]
    assert out["root_check/c_puct"] == 1.5
    ucb_ahead = (LUCK, LUCK + 0.05 + np.array([0.3, -0.3] * 4))
    out, _ = _check(monkeypatch, ucb_ahead, level)
    assert 0 < out["root_check/diff"] < 2 * out["root_check/se"]
    assert out["root_check/c_puct"] == 0.0
    # level on every deal (Kuhn's pure moves): UCB on a tie
    out, played = _check(monkeypatch, (LUCK, LUCK), (LUCK, LUCK))
    assert (out["root_check/diff"], out["root_check/se"], out["root_check/c_puct"]) == (0, 0, 0)
    assert len(played) == 4


def test_no_check_for_a_ucb_root_or_another_planner(monkeypatch):
    ucb = {"agent": "guided_so_ismcts", "iterations": 64, "c_puct": 0.0}
    assert _check(monkeypatch, [0.0], [0.0], record=ucb) == ({}, [])
    puct = {"agent": "puct_ismcts", "iterations": 64, "c_puct": 1.5}
    assert _check(monkeypatch, [0.0], [0.0], record=puct) == ({}, [])


def test_the_log_line_says_why_the_root_was_recorded():
    from isz.training.loop import root_line

    kept = root_line({"root_check/diff": -0.08, "root_check/se": 0.015,
                      "root_check/deals": 300, "root_check/c_puct": 1.5})
    assert "-0.080 ± 0.015" in kept and "300 deals" in kept
    assert "c_puct=1.5 (the priors ahead by more than 2 SE)" in kept
    close = root_line({"root_check/diff": 0.028, "root_check/se": 0.018,
                       "root_check/deals": 600, "root_check/c_puct": 0.0})
    assert "+0.028 ± 0.018" in close and "c_puct=0 (UCB ahead by the mean, within 2" in close
    tie = root_line({"root_check/diff": 0.0, "root_check/se": 0.0,
                     "root_check/deals": 600, "root_check/c_puct": 0.0})
    assert "c_puct=0 (level: UCB on a tie)" in tie
