"""The arena: seat rotation, duplicate deals, determinism, the score convention, SEs."""

from __future__ import annotations

import json
from collections import Counter

import numba as nb
import numpy as np
import pytest

import isz
from isz.agents.base import Agent
from isz.evaluation import MatchResult, game_scores, match
from isz.games.base import Game, State
from isz.games.kernel import Kernel
from isz.types import CHANCE, TERMINAL, IllegalActionError, IszError

# -- a 3-player fake game (a minimal compiled kernel) ------------------------
# State [card0, card1, card2, act0, act1, act2, dealt, acted]: chance deals each
# seat a card 0..2 (with replacement, so ties happen), then seats 0, 1, 2 each
# pick 0 or 1; return = (card + 3 * action) / 6 - 0.5, so playing 1 beats every
# seat that played 0.


@nb.njit
def _cur(s, params):
    if s[6] < 3:
        return CHANCE
    return TERMINAL if s[7] == 3 else s[7]


@nb.njit
def _legal(s, params, out):
    out[0], out[1] = 0, 1
    return 2


@nb.njit
def _chance(s, params, out_a, out_p):
    for c in range(3):
        out_a[c], out_p[c] = c, 1 / 3
    return 3


@nb.njit
def _apply(s, params, a):
    if s[6] < 3:
        s[s[6]] = a
        s[6] += 1
    else:
        s[3 + s[7]] = a
        s[7] += 1


@nb.njit
def _returns(s, params, out):
    out[:] = (s[0:3] + 3 * s[3:6]) / 6 - 0.5


@nb.njit
def _observe(s, params, a, player):
    return a


@nb.njit
def _tensor(s, params, player, out):
    out[:] = 0.0


@nb.njit
def _redeterminize(s, params, player, rng, out):
    out[:] = s  # unused: the fake agents below never search


class ThreeCards(Game):
    name = "three_cards"

    def __init__(self):
        super().__init__()
        self.num_players, self.num_actions, self.max_chance_outcomes = 3, 2, 3
        self.state_size, self.tensor_shape, self.max_game_length = 8, (1,), 6
        self.kernel = Kernel(_cur, _legal, _chance, _apply, _returns, _observe, _tensor,
                             _redeterminize)
        self.kparams = np.zeros(1, dtype=np.int64)

    def initial_data(self):
        return np.array([-1, -1, -1, -1, -1, -1, 0, 0], dtype=np.int64)

    def view_data(self, state: State, player: int) -> tuple:
        s = state.data
        return (int(s[player]), *s[3:3 + s[7]].tolist())


# -- fake agents ---------------------------------------------------------------
class Const(Agent):
    """Always the same action (the first legal one if that is not legal)."""

    def __init__(self, game, action, name="const"):
        super().__init__(game)
        self.action, self.name = action, name

    def act(self, view, rng):
        return self.action if self.action in view.legal_actions else view.legal_actions[0]


class CoinSafe(Const):
    def __init__(self, game):
        super().__init__(game, 0, "safe")


class SeatRecorder(Agent):
    """Random play; records the seat of every decision and counts resets."""

    name = "recorder"

    def __init__(self, game):
        super().__init__(game)
        self.seats, self.resets = [], 0

    def reset(self):
        self.resets += 1

    def act(self, view, rng):
        self.seats.append(view.player)
        return int(rng.choice(view.legal_actions))


class CheatRecorder(Agent):
    """Cheats only to record the dealt cards (true state) of every game."""

    name = "cheat_recorder"
    cheats = True

    def __init__(self, game):
        super().__init__(game)
        self.deals = []

    def act_cheating(self, state, rng):
        self.deals.append(tuple(state.data[:3].tolist()))
        return 0


class Illegal(Agent):
    name = "illegal"

    def act(self, view, rng):
        return 99


@pytest.fixture
def kuhn():
    return isz.make_game("kuhn_poker")


def randoms(game, n=None):
    return [isz.make_agent("random", game) for _ in range(n or game.num_players)]


# -- contract --------------------------------------------------------------------
def test_agent_count_must_match_seats(kuhn):
    with pytest.raises(IszError, match=r"2 seat\(s\) but 1 agent"):
        match(kuhn, randoms(kuhn, 1), deals=1, seed=0, progress=False)


def test_same_agent_object_twice_rejected(kuhn):
    a = isz.make_agent("random", kuhn)
    with pytest.raises(IszError, match="same object"):
        match(kuhn, [a, a], deals=1, seed=0, progress=False)


@pytest.mark.parametrize("kw", [{"deals": 0}, {"seed": -1}, {"workers": 0}])
def test_bad_arguments(kuhn, kw):
    args = {"deals": 2, "seed": 0, **kw}
    with pytest.raises(IszError, match=next(iter(kw))):
        match(kuhn, randoms(kuhn), progress=False, **args)


def test_illegal_action_names_the_agent(kuhn):
    with pytest.raises(IllegalActionError, match="agent 'illegal' at seat"):
        match(kuhn, [Illegal(kuhn), *randoms(kuhn, 1)], deals=1, seed=0, progress=False)


# -- seat rotation and duplicate deals ------------------------------------------
@pytest.mark.parametrize("game_fn", [lambda: isz.make_game("kuhn_poker"), ThreeCards])
def test_rotation_covers_every_seat_equally(game_fn):
    game = game_fn()
    agents = [SeatRecorder(game) for _ in range(game.num_players)]
    deals, n = 5, game.num_players
    res = match(game, agents, deals=deals, seed=3, progress=False)
    assert res.rotations == n and res.games == deals * n
    for a in agents:
        assert a.resets == deals * n
    for a in agents:
        if n == 3:  # ThreeCards: exactly one decision per seat per game
            assert Counter(a.seats) == {s: deals for s in range(n)}
        else:
            assert set(a.seats) == {0, 1}
    assert all(r.games == deals * n for r in res.agents)


def test_every_rotation_sees_the_same_deal():
    game = ThreeCards()
    agents = [CheatRecorder(game) for _ in range(3)]
    match(game, agents, deals=6, seed=1, progress=False)
    # agent 0 plays once per game; games come deal by deal, 3 rotations each
    per_deal = [agents[0].deals[3 * d:3 * d + 3] for d in range(6)]
    assert all(len(set(d)) == 1 for d in per_deal)
    assert len({d[0] for d in per_deal}) > 1  # but deals differ


# -- determinism -----------------------------------------------------------------
def _stable(res: MatchResult) -> dict:
    d = res.to_dict()
    for k in ("wall_time_s", "games_per_s", "workers"):
        d.pop(k)
    for a in d["agents"]:
        a.pop("seconds_per_decision")  # wall clock
    return d


def test_same_seed_same_result(kuhn):
    a = match(kuhn, randoms(kuhn), deals=30, seed=7, progress=False)
    b = match(kuhn, randoms(kuhn), deals=30, seed=7, progress=False)
    c = match(kuhn, randoms(kuhn), deals=30, seed=8, progress=False)
    assert _stable(a) == _stable(b)
    assert np.array_equal(a.deal_scores, b.deal_scores)
    assert not np.array_equal(a.deal_scores, c.deal_scores)


def test_workers_do_not_change_the_result(kuhn):
    a = match(kuhn, randoms(kuhn), deals=40, seed=5, workers=1, progress=False)
    b = match(kuhn, randoms(kuhn), deals=40, seed=5, workers=2, progress=False)
    assert _stable(a) == _stable(b)
    assert np.array_equal(a.deal_scores, b.deal_scores)
    assert b.workers == 2


# -- score convention --------------------------------------------------------------
@pytest.mark.parametrize("returns, scores", [
    ([0.2], [0.6]), ([1.0], [1.0]), ([-1.0], [0.0]),
    ([0.5, -0.5], [1.0, 0.0]), ([0.0, 0.0], [0.5, 0.5]),
    ([1.0, 0.0, 0.0], [1.0, 0.25, 0.25]), ([0.1, 0.5, -0.3], [0.5, 1.0, 0.0]),
    ([0.3, 0.3, 0.3, -1.0], [2 / 3, 2 / 3, 2 / 3, 0.0]),
])
def test_game_scores(returns, scores):
    assert game_scores(returns) == pytest.approx(scores)


def test_one_player_safe_scores_exactly_point_six():
    game = isz.make_game("coin_guess")
    res = match(game, [CoinSafe(game)], deals=10, seed=0, progress=False)
    (a,) = res.agents
    assert a.name == "safe" and res.rotations == 1 and a.games == 10
    assert a.score == pytest.approx(0.6, abs=1e-12) and a.score_se == pytest.approx(0.0)
    assert a.utility == pytest.approx(0.2, abs=1e-12)


def test_two_player_win_loss_and_chip_utility(kuhn):
    # Always betting against always passing wins 1 chip in both seatings.
    res = match(kuhn, [Const(kuhn, 1, "bet"), Const(kuhn, 0, "pass")], deals=4, seed=0,
                progress=False)
    bet, pas = res.agents
    assert (bet.score, pas.score) == (1.0, 0.0)
    assert (bet.utility, pas.utility) == (1.0, -1.0)  # returns 0.5 * utility_scale 2
    assert bet.score_se == 0.0 and bet.seat_scores == (1.0, 1.0)


def test_three_player_rank_scores():
    game = ThreeCards()
    agents = [Const(game, 1, "high"), Const(game, 0, "low_a"), Const(game, 0, "low_b")]
    res = match(game, agents, deals=20, seed=2, progress=False)
    high, a, b = res.agents
    assert high.score == 1.0 and high.seat_scores == (1.0, 1.0, 1.0)
    assert a.score + b.score == pytest.approx(0.5)  # the two lows split the rest


def test_random_vs_random_is_even(kuhn):
    res = match(kuhn, randoms(kuhn), deals=400, seed=11, progress=False)
    a, b = res.agents
    assert a.score + b.score == pytest.approx(1.0)
    assert abs(a.score - 0.5) < 3 * a.score_se


# -- standard errors ---------------------------------------------------------------
def test_se_is_over_deals_not_games(kuhn):
    # Seat luck that cancels within each deal leaves no error at all.
    scores = np.array([[[1.0, 0.0], [0.0, 1.0]]] * 4)  # [deals, rotations, agents]
    res = MatchResult.from_deals(kuhn, ["a", "b"], scores, scores * 2, seed=0, workers=1,
                                 wall_time_s=1.0)
    assert res.agents[0].score == 0.5 and res.agents[0].score_se == 0.0
    assert res.agents[0].seat_scores == (1.0, 0.0)
    # Per-deal means 1, 0, 1, 0 -> std 0.5774, SE = std / sqrt(4).
    scores = np.array([[[1.0, 0.0]] * 2, [[0.0, 1.0]] * 2] * 2)
    res = MatchResult.from_deals(kuhn, ["a", "b"], scores, scores, seed=0, workers=1,
                                 wall_time_s=1.0)
    assert res.agents[0].score_se == pytest.approx(np.std([1, 0, 1, 0], ddof=1) / 2)


def test_paired_by_utility_counts_chips_not_hands(kuhn):
    """a wins three small pots of four and loses one big one: ahead in hands (score),
    behind in chips (utility); each measure's paired SE from its own per-deal values."""
    scores = np.array([[[1.0, 0.0]] * 2] * 3 + [[[0.0, 1.0]] * 2])
    utils = np.array([[[1.0, -1.0]] * 2] * 3 + [[[-5.0, 5.0]] * 2])
    res = MatchResult.from_deals(kuhn, ["a", "b"], scores, utils, seed=0, workers=1,
                                 wall_time_s=1.0)
    (by_score,), (by_utility,) = res.paired(), res.paired("utility")
    assert by_score["diff"] == pytest.approx(0.5)  # 0.75 - 0.25
    assert by_utility["diff"] == pytest.approx(-1.0)  # (3 * 2 - 10) / 4
    assert by_utility["se"] == pytest.approx(np.std([2, 2, 2, -10], ddof=1) / 2)


def test_se_matches_deal_scores(kuhn):
    res = match(kuhn, randoms(kuhn), deals=50, seed=4, progress=False)
    ds = res.deal_scores[:, 0]
    assert res.deal_scores.shape == (50, 2)
    assert res.agents[0].score == pytest.approx(ds.mean())
    assert res.agents[0].score_se == pytest.approx(ds.std(ddof=1) / np.sqrt(50))


def test_single_deal_has_no_se(kuhn):
    res = match(kuhn, randoms(kuhn), deals=1, seed=0, progress=False)
    assert np.isnan(res.agents[0].score_se)
    assert res.to_dict()["agents"][0]["score_se"] is None


# -- output and hooks ------------------------------------------------------------
def test_to_dict_is_json_and_table_names_agents(kuhn):
    res = match(kuhn, [Const(kuhn, 1, "bet"), Const(kuhn, 0, "pass")], deals=3, seed=0,
                progress=False)
    d = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    assert d["game"]["name"] == "kuhn_poker" and d["games"] == 6 and d["deals"] == 3
    assert [a["name"] for a in d["agents"]] == ["bet", "pass"]
    (pair,) = d["paired"]
    per_deal = res.deal_scores[:, 0] - res.deal_scores[:, 1]
    assert pair["a"] == "bet" and pair["b"] == "pass"
    assert pair["diff"] == pytest.approx(d["agents"][0]["score"] - d["agents"][1]["score"])
    assert pair["se"] == pytest.approx(per_deal.std(ddof=1) / np.sqrt(3))
    table = res.table()
    assert "bet" in table and "pass" in table and "kuhn_poker" in table


def test_on_decision_sees_true_state_and_view(kuhn):
    calls = []

    def hook(state, seat, view, agent):
        assert state.current_player() == seat == view.player
        assert view.key == state.view(seat).key
        calls.append(agent.name)

    agents = [SeatRecorder(kuhn), Const(kuhn, 0, "pass")]
    match(kuhn, agents, deals=5, seed=0, progress=False, on_decision=hook)
    assert calls.count("recorder") == len(agents[0].seats) > 0
    assert "pass" in calls


def test_on_decision_needs_one_worker(kuhn):
    with pytest.raises(IszError, match="on_decision needs workers=1"):
        match(kuhn, randoms(kuhn), deals=2, seed=0, workers=2, progress=False,
              on_decision=lambda *a: None)


def test_cheating_agent_gets_no_hook_call():
    game = ThreeCards()
    calls = []
    match(game, [CheatRecorder(game), *randoms(game, 2)], deals=2, seed=0, progress=False,
          on_decision=lambda state, seat, view, agent: calls.append(agent.name))
    assert calls and "cheat_recorder" not in calls


def test_progress_names_the_preset_not_its_family(monkeypatch, capsys):
    """An Oh Hell match's progress lines say oh_hell (its preset), not tricks (its family)."""
    monkeypatch.setenv("ISZ_PROGRESS_EVERY_S", "0")
    game = isz.make_game("oh_hell")
    agents = [isz.make_agent("random", game) for _ in range(3)]
    match(game, agents, deals=2, seed=0, progress=True)
    lines = capsys.readouterr().err.splitlines()
    assert lines and all(line.startswith("oh_hell: ") for line in lines), lines
