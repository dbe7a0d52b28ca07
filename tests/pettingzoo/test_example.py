"""examples/pettingzoo_planner.py: a tiny planner trained in-process beats PettingZoo's
random agent in PettingZoo's own loop."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

from examples import pettingzoo_planner  # noqa: E402


def test_a_trained_planner_beats_pettingzoo_random(capsys):
    result = pettingzoo_planner.main(["--games", "1000", "--iterations", "16"])
    assert result["games"] == 1000
    assert result["mean_return"] > 3 * result["se"]  # fixed seeds: training and games
    out = capsys.readouterr().out.splitlines()[-1]
    assert out.startswith("kuhn_poker(): guided_so_ismcts(kuhn_poker(); 16 iterations a decision; "
                          "evaluator=NetworkEvaluator) vs PettingZoo random agents")
    assert f"mean return {result['mean_return']:+.3f}" in out
