"""The run's final checks, each judged against so_ismcts on the same deals, paired over
deals, by one rule: the values (with and without), then the root's rule (the priors' PUCT
or so_ismcts's UCB), each in rounds of fresh deals until one variant leads by more than 2
SE, else the one ahead on the mean after the last; each variant played once."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.nn.model import ModelConfig, build_model
from isz.training import checks
from isz.training.config import TrainConfig

RECORD = {"agent": "guided_so_ismcts", "iterations": 64, "c_puct": 1.5, "belief": "auto",
          "belief_policy": "network", "final": "most_visits", "value_mix": 0.0}


class _Played:
    """What `play_match` returns, as far as the checks read it."""

    def __init__(self, seat0):
        self.deal_utilities = np.stack([seat0, -seat0], axis=1)


def _checks(monkeypatch, *matches, record=None, value_deals=0, root_deals=8, say=None,
            played=None, rounds=2):
    """`final_checks` with each match's seat-0 returns a deal given (``matches``, in the
    order played), at most ``rounds`` rounds a check (the default is one; two test the
    rounds' rule); returns its scalars and the specs it played (into ``played``)."""
    played = [] if played is None else played
    returns = iter([np.asarray(x, float) for x in matches])

    def fake(spec, backend, progress=None):
        played.append(spec)
        return _Played(next(returns))

    monkeypatch.setattr(checks, "play_match", fake)
    cfg = TrainConfig()
    cfg.game.name = "kuhn_poker"
    cfg.trainer.value_check_deals = value_deals
    cfg.trainer.root_check_deals = root_deals
    if rounds is not None:
        cfg.trainer.value_check_rounds = cfg.trainer.root_check_rounds = rounds
    cfg.trainer.eval_workers = 1
    game = isz.make_game("kuhn_poker")
    model = build_model(game, ModelConfig(width=8, depth=1))
    out = checks.final_checks(game, model, cfg, "cpu", 3, record=record or dict(RECORD),
                              say=say)
    return out, played


def _check(monkeypatch, *rounds, record=None):
    """The root check alone, each round's two matches (puct, ucb) given."""
    return _checks(monkeypatch, *[x for pair in rounds for x in pair], record=record)


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
    assert a.seats[0].knobs["c_puct"] == 1.5 and b.seats[0].knobs["c_puct"] == 0.0
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


def test_no_root_check_for_a_ucb_root_nor_any_check_for_another_planner(monkeypatch):
    def no_backend(cfg, device):
        raise AssertionError("a backend opened with nothing to play")

    monkeypatch.setattr(checks, "eval_backend", no_backend)  # nothing to play: none opens
    ucb = {**RECORD, "c_puct": 0.0}
    assert _check(monkeypatch, [0.0], [0.0], record=ucb) == ({}, [])
    puct = {**RECORD, "agent": "puct_ismcts"}
    assert _checks(monkeypatch, [0.0], [0.0], record=puct, value_deals=8) == ({}, [])


def test_the_values_are_kept_on_a_lead_over_2_se_against_so_ismcts(monkeypatch):
    # values +0.15 on average over none, SE 0.05/sqrt(7): kept; then the root check's
    # first round reuses the values' match as its PUCT arm and plays only UCB
    values = LUCK + np.array([0.1, 0.2] * 4)
    out, played = _checks(monkeypatch, values, LUCK, values - 0.5, value_deals=8)
    assert out["value_check/diff"] == pytest.approx(0.15)
    assert out["value_check/value_mix"] == checks.VALUE_CHECK_MIX
    assert out["value_check/deals"] == 8
    assert len(played) == 3 and {s.seed for s in played} == {3}
    assert [s.seats[1].agent for s in played] == ["so_ismcts"] * 3  # not head to head
    mixes = [(s.seats[0].knobs["value_mix"], s.seats[0].knobs["c_puct"]) for s in played]
    assert mixes == [(0.25, 1.5), (0.0, 1.5), (0.25, 0.0)]  # UCB keeps the values
    assert out["root_check/diff"] == pytest.approx(-0.5) and out["root_check/c_puct"] == 1.5
    # behind none: not kept; a value check of other deals than the root's shares nothing
    out, played = _checks(monkeypatch, LUCK[:6] - 1, LUCK[:6], LUCK, LUCK + 1, value_deals=6,
                          root_deals=8)
    assert out["value_check/diff"] == -1 and out["value_check/value_mix"] == 0.0
    assert [s.deals for s in played] == [6, 6, 8, 8]


def test_by_default_one_round_and_its_mean_decide_both_checks(monkeypatch):
    """The defaults play one round a check: values 1.9 SE ahead are kept, the priors 1.9
    SE ahead stay, and no match is played on fresh deals."""
    assert (TrainConfig().trainer.value_check_rounds,
            TrainConfig().trainer.root_check_rounds) == (1, 1)
    se = 0.25 / np.sqrt(7)
    close = LUCK + 1.9 * se + np.array([0.25, -0.25] * 4)
    ucb = close - 1.9 * se + np.array([0.25, -0.25] * 4)
    out, played = _checks(monkeypatch, close, LUCK, ucb, value_deals=8, rounds=None)
    assert {s.seed for s in played} == {3} and len(played) == 3
    assert out["value_check/value_mix"] == checks.VALUE_CHECK_MIX
    assert out["value_check/deals"] == out["root_check/deals"] == 8
    assert 0 < -out["root_check/diff"] < 2 * out["root_check/se"]
    assert out["root_check/c_puct"] == 1.5
    # behind by the mean, within 2 SE: out, and UCB's mean ahead: UCB
    out, _ = _checks(monkeypatch, LUCK - 1.9 * se + np.array([0.25, -0.25] * 4), LUCK,
                     LUCK + 0.5 * se + np.array([0.25, -0.25] * 4), value_deals=8,
                     rounds=None)
    assert out["value_check/value_mix"] == 0.0 and out["root_check/c_puct"] == 0.0


def test_values_within_2_se_get_a_second_round_then_the_mean(monkeypatch):
    """Ahead of none by 1.9 SE after a round: undecided, so fresh deals; still within 2 SE
    after the last round, the mean keeps them. The root check's rounds then reuse both
    rounds' matches with values as their PUCT arm."""
    se = 0.25 / np.sqrt(7)
    close = LUCK + 1.9 * se + np.array([0.25, -0.25] * 4)
    level = LUCK + np.array([0.25, -0.25] * 4)
    out, played = _checks(monkeypatch, close, LUCK, level, LUCK,  # values: 2 rounds
                          LUCK, LUCK + 0.05 + level - LUCK,  # UCB, rounds 1 and 2
                          value_deals=8)
    assert [s.seed for s in played[:4]] == [3, 3, 4, 4] and out["value_check/deals"] == 16
    assert 0 < out["value_check/diff"] < 2 * out["value_check/se"]
    assert out["value_check/value_mix"] == checks.VALUE_CHECK_MIX
    ucb = [s for s in played[4:]]
    assert [(s.seed, s.seats[0].knobs["c_puct"], s.seats[0].knobs["value_mix"])
            for s in ucb] == [(3, 0.0, 0.25), (4, 0.0, 0.25)]  # PUCT arms reused
    assert out["root_check/deals"] == 16
    # ahead in the first round, behind on the mean of two: no values
    out, played = _checks(monkeypatch, close, LUCK, LUCK - 0.5, LUCK, LUCK, LUCK, LUCK, LUCK,
                          value_deals=8)
    assert out["value_check/diff"] < 0 and out["value_check/value_mix"] == 0.0
    assert out["value_check/deals"] == 16
    # behind after a round, however little: out at once, no fresh deals (nor on a tie)
    for first in (LUCK - 1.9 * se + level - LUCK, LUCK):
        out, played = _checks(monkeypatch, first, LUCK, LUCK, LUCK, value_deals=8,
                              root_deals=0)
        assert out["value_check/value_mix"] == 0.0 and out["value_check/deals"] == 8
        assert len(played) == 2


def test_each_verdict_is_told_as_it_is_reached(monkeypatch):
    said, played = [], []
    values = LUCK + np.array([0.1, 0.2] * 4)
    _checks(monkeypatch, values, LUCK, values - 0.5, value_deals=8, played=played,
            say=lambda line: said.append((line.split(":")[0], len(played))))
    # the value check's verdict after its two matches, before the root check's one
    assert said == [("value check", 2), ("root check", 3)]


def test_the_value_check_alone(monkeypatch):
    out, played = _checks(monkeypatch, LUCK + 0.2, LUCK, value_deals=8, root_deals=0)
    assert out["value_check/value_mix"] == 0.25 and "root_check/c_puct" not in out
    assert len(played) == 2


def test_the_log_lines_say_what_was_recorded_and_why():
    from isz.training.checks import root_line, value_line

    kept = value_line({"value_check/diff": 0.08, "value_check/se": 0.02,
                       "value_check/deals": 300, "value_check/value_mix": 0.25})
    assert "+0.080 ± 0.020 in returns over none, each against so_ismcts, 300 deals" in kept
    assert kept.endswith("value_mix=0.25 (the values ahead by more than 2 SE)")
    assert value_line({"value_check/diff": 0.03, "value_check/se": 0.02,
                       "value_check/deals": 600, "value_check/value_mix": 0.25}).endswith(
        "value_mix=0.25 (the values ahead by the mean, within 2 SE)")
    assert value_line({"value_check/diff": -0.03, "value_check/se": 0.02,
                       "value_check/deals": 600, "value_check/value_mix": 0.0}).endswith(
        "value_mix=0 (no values ahead by the mean, within 2 SE)")

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
