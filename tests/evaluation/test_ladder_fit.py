"""The ladder's parts: its schedule, the Bradley-Terry fit with bootstrap SEs (known
strengths recovered, ties, 3-seat games broken into pairs), and a 3-seat ladder."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.evaluation.ladder import LadderSettings, run_ladder
from isz.evaluation.ladder_fit import ELO, TableGames, connected, fit
from isz.evaluation.ladder_schedule import groups, opponents, tables
from isz.nn.checkpoint import save_checkpoint
from isz.nn.model import ModelConfig, build_model


def test_schedule_two_seats():
    cks = ["it1", "it2", "it3", "it4", "it5"]
    assert opponents(cks, 4, ["so"], older=2) == ["it4", "it3", "it1", "so"]
    assert opponents(cks, 1, ["so"], older=2) == ["it1", "so"]
    assert tables(cks[:3], ["so", "pimc"], seats=2, older=1) == [
        ("so", "pimc"), ("it1", "so"), ("it1", "pimc"), ("it2", "it1"), ("it2", "so"),
        ("it2", "pimc"), ("it3", "it2"), ("it3", "it1"), ("it3", "so"), ("it3", "pimc")]


def test_schedule_three_seats_groups_the_opponents():
    assert groups(["a", "b", "c"], 2) == [("a", "b"), ("c", "a")]
    assert groups(["a"], 2) == [("a", "a")]
    assert tables(["g1", "g2"], ["so", "pimc"], seats=3, older=2) == [
        ("so", "pimc", "so"), ("g1", "so", "pimc"), ("g2", "g1", "so"), ("g2", "pimc", "g1")]


def _pl_table(players, strengths, deals, rotations, rng) -> TableGames:
    """Games drawn from a Plackett-Luce model (Gumbel noise on log-strengths)."""
    n = len(players)
    s = np.empty((deals, rotations, n))
    theta = np.array([strengths[p] / ELO for p in players])
    for d in range(deals):
        for r in range(rotations):
            order = np.argsort(-(theta + rng.gumbel(size=n)))
            rank = np.empty(n)
            rank[order] = np.arange(n)
            s[d, r] = (n - 1 - rank) / (n - 1)
    return TableGames(tuple(players), s)


def test_fit_recovers_known_strengths_within_their_ses():
    rng = np.random.default_rng(7)
    truth = {"a": 0.0, "b": 120.0, "c": -150.0, "d": 60.0}
    data = [_pl_table(["a", "b"], truth, 400, 2, rng), _pl_table(["b", "c"], truth, 400, 2, rng),
            _pl_table(["a", "c", "d"], truth, 400, 3, rng)]
    r = fit(data, "a", bootstrap=100, seed=1)
    assert (r.rating["a"], r.se["a"]) == (0.0, 0.0)
    for p in "bcd":
        assert 5 < r.se[p] < 30
        assert abs(r.rating[p] - truth[p]) < 3 * r.se[p], (p, r.rating[p], r.se[p])
    assert r.rating["c"] < r.rating["a"] < r.rating["d"] < r.rating["b"]
    # 400 deals x 2 rotations, one comparison each, plus 400 x 3 games x 2 pairs
    assert r.games["b"] == 2 * 800 and r.games["d"] == 1200 * 2
    assert fit(data, "a", bootstrap=100, seed=1) == r  # seeded bootstrap


def test_ties_are_half_a_win_and_a_player_never_meets_itself():
    tie = TableGames(("a", "b"), np.full((10, 2, 2), 0.5))
    beat = TableGames(("a", "c"), np.tile([1.0, 0.0], (10, 2, 1)))
    beat.scores[:3, 0] = [0.0, 1.0]  # c wins 3 of the 20 games
    r = fit([tie, beat], "a", bootstrap=20)
    # level with a, up to the pull of the fit's pseudo-count towards c (never met)
    assert r.rating["b"] == pytest.approx(0.0, abs=0.1)
    assert r.rating["c"] == pytest.approx(-ELO * np.log(17 / 3), abs=0.5)
    # the same player in two seats: only its comparisons with the others count
    three = TableGames(("a", "b", "b"), np.array([[[1.0, 0.5, 0.0]]]))
    w = three.wins()[0]
    assert w.tolist() == [[0, 1, 1], [0, 0, 0], [0, 0, 0]]
    assert not connected([tie, TableGames(("x", "y"), np.zeros((1, 2, 2)))])


def _fake_run(run, game, iterations):
    cfg = ModelConfig(width=8, depth=1)
    for i in iterations:
        save_checkpoint(run / "checkpoints" / f"iter-{i:06d}.pt", model=build_model(game, cfg),
                        game=game, model_cfg=cfg, counters={"iteration": i},
                        extra={"seconds": {"elapsed": 900.0 * i}})


def test_three_seat_ladder(tmp_path):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    game = isz.make_game("tricks", players=3, suits=3, ranks=4, hand_size=3)
    _fake_run(tmp_path, game, (2, 4))
    s = LadderSettings(time_per_move=None, iterations=8, deals=12,
                       baselines=("so_ismcts", "random"), bootstrap=20)
    ladder = run_ladder(tmp_path, s)
    assert ladder["seats"] == 3 and ladder["game"]["params"]["players"] == 3
    assert ladder["baseline_knobs"]["source"].startswith("none")
    assert sorted(t["name"] for t in ladder["pairings"]) == sorted(
        ["so_ismcts~random~so_ismcts", "it2~so_ismcts~random", "it4~it2~so_ismcts",
         "it4~random~it2"])
    for t in ladder["pairings"]:
        assert (t["deals"], t["games"]) == (12, 36) and len(t["paired"]) == 3
    players = {p["name"]: p for p in ladder["players"]}
    assert set(players) == {"so_ismcts", "random", "it2", "it4"}
    assert [players[n]["hours"] for n in ("it2", "it4")] == [0.5, 1.0]
    assert all(p["se"] > 0 for n, p in players.items() if n != "so_ismcts")
    assert ladder["rating"]["connected"]
    assert run_ladder(tmp_path, s)["played_deals"] == 0
    assert (tmp_path / "ladder" / "ladder.png").stat().st_size > 10_000
