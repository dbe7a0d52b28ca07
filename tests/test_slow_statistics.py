"""Long statistical checks (``make test-slow``): the seed's matchups, reproduced.

Seed 000's own code at 1,000 iterations (3,000 deals x 2 seats):
so_ismcts vs random 0.664 +- 0.004; cheat_uct vs so_ismcts 0.543 +- 0.0019.
"""

from __future__ import annotations

import math

import pytest

import isz
from isz.evaluation import match

pytestmark = pytest.mark.slow


def _score(a: str, b: str, deals: int) -> tuple[float, float]:
    game = isz.make_game("tricks")
    agents = [isz.make_agent(n, game, **({"iterations": 1000} if n != "random" else {}))
              for n in (a, b)]
    res = match(game, agents, deals=deals, seed=11, progress=False)
    return res.agents[0].score, res.agents[0].score_se


@pytest.mark.parametrize("a,b,seed_score,seed_se", [("so_ismcts", "random", 0.664, 0.004),
                                                    ("cheat_uct", "so_ismcts", 0.543, 0.0019)])
def test_seed_matchup_within_three_combined_se(a, b, seed_score, seed_se):
    score, se = _score(a, b, deals=1500)
    assert abs(score - seed_score) < 3 * math.hypot(se, seed_se), (score, se)
    assert score - 0.5 > 3 * se  # and the stronger agent wins by a clear margin
