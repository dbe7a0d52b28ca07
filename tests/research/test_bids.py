"""`research.bids`: self-play bid rows with one explorer, view-only bid features, and
the planners whose bids are moved (``bid_shift``) or picked by a bid net
(``bid_model``)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.agents import registry
from isz.games import tricks_kernel as K
from isz.games.base import State
from isz.nn import ModelConfig, build_model, save_checkpoint
from isz.types import IszError
from research.bids import agents, model
from research.bids.data import explore_bid, play_game
from research.bids.features import _suit_order, bid_features, features, size
from tests.belief.tricks_reference import after_decisions, twin_states

SMALL = {"players": 3, "suits": 3, "ranks": 4, "hand_size": 3, "trump": "card",
         "bidding": True, "dealer": "chance", "hook": True}


@pytest.fixture
def game():
    return isz.make_game("tricks", **SMALL)


@pytest.fixture
def checkpoint(tmp_path, game):
    torch.manual_seed(0)
    net = build_model(game, ModelConfig(width=8, depth=1))
    return str(save_checkpoint(tmp_path / "p.pt", model=net, game=game,
                               model_cfg=ModelConfig(width=8, depth=1),
                               extra={"planner": {"agent": "guided_so_ismcts",
                                                  "iterations": 16}}))


@pytest.fixture
def registered():
    agents.register()
    try:
        yield
    finally:
        for name in ("bid_shift", "bid_model"):
            registry._AGENTS.pop(name, None)
            registry._SETTINGS.pop(name, None)


def _bid_state(game, seed: int, bids: int = 0) -> State:
    """A state where the seat to move bids, after ``bids`` earlier bids."""
    st = after_decisions(game, bids, np.random.default_rng(seed))
    assert st.data[K.PHASE] == K.PH_BID
    return st


def test_features_read_the_view_only():
    game = isz.make_game("oh_hell")
    for seed, steps in [(0, 0), (1, 1), (5, 2)]:
        state, twin, p = twin_states(game, steps, seed)
        np.testing.assert_array_equal(features(state.view(p)), features(twin.view(p)))
        f = features(state.view(p))
        assert f.shape == (size(game),)
        assert f[:52].sum() == 10  # the hand, every card once
        assert f[52:65].sum() == 1  # the trump card's rank


def test_suit_order_puts_trump_first_and_ignores_plain_suit_names():
    r = 4
    hand = 0b0011 | (0b1000 << r) | (0b0111 << 2 * r)  # suit 0: 2 cards, 1: 1, 2: 3
    assert _suit_order(hand, 1, 3, r) == [1, 2, 0]
    swapped = 0b0111 | (0b1000 << r) | (0b0011 << 2 * r)  # suits 0 and 2 swapped
    assert _suit_order(swapped, 1, 3, r) == [1, 0, 2]
    assert _suit_order(hand, -1, 3, r) == [2, 0, 1]


def test_bid_features_one_hot_and_scaled():
    game = isz.make_game("oh_hell")
    f = bid_features(3, game)
    assert f.shape == (12,) and f[3] == 1 and f[:11].sum() == 1 and f[-1] == pytest.approx(0.3)


def test_explore_bid_stays_legal_and_within_one(game):
    c = game.num_cards
    rng = np.random.default_rng(0)
    for seed in range(20):
        st = _bid_state(game, seed, bids=seed % 3)
        view = st.view(st.current_player())
        for own in [a - c for a in view.legal_actions]:
            got = {explore_bid(view, own, rng, c) for _ in range(30)}
            assert got <= set(view.legal_actions)
            assert all(abs(a - c - own) <= 1 for a in got)
            assert c + own in got


def test_self_play_rows_are_consistent(game):
    rng = np.random.default_rng(0)
    agent = isz.make_agent("so_ismcts", game, iterations=8)
    for _ in range(10):
        rows = play_game(agent, game, rng)
        assert sorted(rows["seats"]) == [0, 1, 2] and sum(rows["explored"]) == 1
        assert sum(rows["won"]) == SMALL["hand_size"]
        for own, bid, ex, won, pts in zip(rows["own"], rows["bid"], rows["explored"],
                                          rows["won"], rows["points"], strict=True):
            assert abs(bid - own) <= (1 if ex else 0)
            assert pts == won + 10 * (won == bid)
        for s, p, bid in zip(rows["states"], rows["seats"], rows["bid"], strict=True):
            st = State(game, s.copy())
            assert st.data[K.PHASE] == K.PH_BID and st.current_player() == p
            assert game.num_cards + bid in st.legal_actions()


def test_bid_shift_moves_bids_only(game, checkpoint, registered):
    c = game.num_cards
    plain = isz.load_planner(checkpoint, game, device="cpu")
    for shift in (1, -1):
        moved = isz.make_agent("bid_shift", game, checkpoint=checkpoint, shift=shift,
                               device="cpu")
        for seed in range(12):
            st = _bid_state(game, seed, bids=seed % 3)
            view = st.view(st.current_player())
            own = plain.act(view, np.random.default_rng(seed))
            got = moved.act(view, np.random.default_rng(seed))
            want = own + shift if own + shift in view.legal_actions else own
            assert got == want and got >= c
        st = after_decisions(game, 4, np.random.default_rng(0))  # cards are played
        view = st.view(st.current_player())
        assert moved.act(view, np.random.default_rng(1)) == plain.act(
            view, np.random.default_rng(1))


def test_bid_model_picks_the_net_s_best_neighbour(game, checkpoint, registered, tmp_path):
    torch.manual_seed(0)
    net = model.BidNet(size(game), game.params["hand_size"] + 2, game.params["hand_size"] + 1,
                       width=8)
    with torch.no_grad():  # the return head: tanh(b / H), higher bids are better
        for prm in net.parameters():
            prm.zero_()
        net.body[0].weight[0, size(game) + game.params["hand_size"] + 1] = 1.0
        net.body[2].weight[0, 0] = 1.0
        net.ret.weight[0, 0] = 1.0
    model.save(net, game, str(tmp_path / "b.pt"), {})
    plain = isz.load_planner(checkpoint, game, device="cpu")
    up = isz.make_agent("bid_model", game, checkpoint=checkpoint, model=str(tmp_path / "b.pt"),
                        device="cpu")
    c = game.num_cards
    for seed in range(12):
        st = _bid_state(game, seed, bids=seed % 3)
        view = st.view(st.current_player())
        own = plain.act(view, np.random.default_rng(seed))
        want = own + 1 if own + 1 in view.legal_actions else own
        assert up.act(view, np.random.default_rng(seed)) == want >= c
    with pytest.raises(ValueError, match="trained for"):
        model.load(str(tmp_path / "b.pt"), isz.make_game("oh_hell"))
    with pytest.raises(IszError, match="bid_model needs checkpoint=PATH"):
        isz.make_agent("bid_model", game, model=str(tmp_path / "b.pt"))
    with pytest.raises(IszError, match="rule must be 'ret' or 'exact', got 'best'"):
        isz.make_agent("bid_model", game, checkpoint=checkpoint, model=str(tmp_path / "b.pt"),
                       rule="best", device="cpu")
    with pytest.raises(IszError, match="bid_shift needs a trick game with bidding"):
        isz.make_agent("bid_shift", isz.make_game("tricks"), checkpoint=checkpoint)


def test_model_trains_on_rows_and_round_trips(game, tmp_path):
    from research.bids.data import play

    rows = play(isz.make_agent("so_ismcts", game, iterations=8), game, 40, seed=0,
                progress=False)
    np.savez(tmp_path / "rows.npz", **rows)
    d = model.dataset([str(tmp_path / "rows.npz")], game)
    assert d["x"].shape == (120, size(game)) and len(np.unique(d["game"])) == 40
    net, info = model.train(d, game, epochs=3, width=16, seed=0, held=0.25)
    assert len(info["log"]) == 3 and info["test_rows"] == 30  # 10 games, 3 rows each
    assert info["baselines"]["bid_only_ce"] > 0
    off = info["offline"]["ret"]
    assert off["planner"]["rows"] + off["net"]["rows"] > 0 and 0 <= off["moved"] <= 1
    model.save(net, game, str(tmp_path / "b.pt"), info)
    back = model.load(str(tmp_path / "b.pt"), game)
    x, b = torch.from_numpy(d["x"][:5]), torch.from_numpy(d["b"][:5])
    with torch.no_grad():
        for got, want in zip(back(x, b), net.eval()(x, b), strict=True):
            torch.testing.assert_close(got, want)


def test_outcomes_summary_counts_each_bid_and_each_move():
    from research.bids.outcomes import summary

    d = {"own": np.array([2, 2, 2, 3, 3, 3]), "bid": np.array([1, 2, 3, 3, 3, 3]),
         "explored": np.array([1, 1, 1, 0, 0, 0]), "won": np.array([1, 3, 2, 3, 4, 2]),
         "ret": np.array([1.0, -1.0, 0.0, 0.5, -0.5, 0.0])}
    s = summary(d, min_rows=1)
    assert s["totals"] == {"exact": 1 / 3, "over": 1 / 3, "under": 1 / 3}
    assert s["by_bid"][3] == {"rows": 4, "exact": 0.25, "over": 0.25, "under": 0.5,
                              "ret": 0.0}
    assert set(s["by_move"]) == set()  # one explorer row per move: no SE
    d["explored"][:] = 1
    d["own"] = d["bid"] - np.array([-1, -1, 0, 0, 1, 1])
    s = summary(d, min_rows=1)
    assert s["by_move"][-1]["ret"]["mean"] == 0.0 and s["by_move"][1]["rows"] == 2
