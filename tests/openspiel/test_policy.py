"""isz agents scored by OpenSpiel's tools through `to_tabular_policy`."""

from __future__ import annotations

import pytest

import isz
from isz.evaluation import agent_policy, exploitability
from isz.openspiel import to_tabular_policy

pytest.importorskip("pyspiel")
os_exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")
best_response = pytest.importorskip("open_spiel.python.algorithms.best_response")


@pytest.mark.parametrize("name, expected", [("kuhn_poker", 0.458333), ("leduc_poker", 2.373611)])
def test_uniform_random_agent(name, expected):
    game = isz.make_game(name)
    table = to_tabular_policy(isz.make_agent("random", game), game)
    assert os_exploitability.exploitability(table.game, table) == pytest.approx(expected,
                                                                                abs=1e-6)
    assert exploitability(game, agent_policy(isz.make_agent("random", game))) \
        .exploitability == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("name, agent, knobs", [
    ("kuhn_poker", "so_ismcts", {"iterations": 30, "final": "visit_distribution"}),
    ("leduc_poker", "so_ismcts", {"iterations": 8, "final": "visit_distribution"}),
])
def test_search_agent_matches_isz_exact_exploitability(name, agent, knobs):
    game = isz.make_game(name)
    table = to_tabular_policy(isz.make_agent(agent, game, **knobs), game, seed=3)
    ours = exploitability(game, agent_policy(isz.make_agent(agent, game, **knobs), seed=3))
    theirs = os_exploitability.exploitability(table.game, table)
    assert theirs == pytest.approx(ours.exploitability, abs=1e-9)
    assert 0.01 < ours.exploitability < (0.4583 if name == "kuhn_poker" else 2.3736)
    for p in range(2):  # OpenSpiel's best response per seat, in chips as isz's
        br = best_response.BestResponsePolicy(table.game, p, table)
        assert br.value(table.game.new_initial_state()) == pytest.approx(ours.br_values[p],
                                                                         abs=1e-9)


def test_plain_policy_callable_and_bad_policies():
    game = isz.make_game("kuhn_poker")
    always_bet = lambda view: [0.0, 1.0]  # noqa: E731
    table = to_tabular_policy(always_bet, game)
    assert (table.action_probability_array[:, 1] == 1.0).all()
    with pytest.raises(isz.IszError, match="sums to"):
        to_tabular_policy(lambda view: [0.3, 0.3], game)
    with pytest.raises(isz.IszError, match="Agent or a callable"):
        to_tabular_policy(42, game)


def test_oh_hell_is_too_large_to_tabulate():
    with pytest.raises(isz.IszError, match="too large"):
        to_tabular_policy(isz.make_agent("random", isz.make_game("oh_hell")),
                          isz.make_game("oh_hell"))
