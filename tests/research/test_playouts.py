"""`research.playouts`: the hand-written ``tricks_greedy`` leaf plays by its rules, and a
so_ismcts that uses it still decides from the view alone."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.games import tricks_kernel as K
from isz.games.tricks_features import card_score
from isz.search import playout
from isz.types import IszError
from research.playouts.greedy import NAME, make_greedy_policy, register
from tests.belief.tricks_reference import after_decisions, twin_states


@pytest.fixture
def registered():
    register()
    try:
        yield
    finally:
        playout.LEAVES.pop(NAME, None)


def _reference_card(s, game, p, legal):
    """The rule of `greedy_card`, written plainly."""
    r = game.params["ranks"]
    tsuit = int(s[K.TSUIT])
    want = s[K.WON + p] < s[K.BID + p]
    if s[K.POS] == 0:
        return (max if want else min)(legal, key=lambda c: c % r)
    w = int(s[K.WCARD])

    def takes(c):
        return (c // r == w // r and c > w) or (c // r == tsuit and w // r != tsuit)

    winners = [c for c in legal if takes(c)]
    losers = [c for c in legal if not takes(c)]
    if want:
        return min(winners, key=lambda c: c % r) if winners else min(legal, key=lambda c: c % r)
    return max(losers, key=lambda c: c % r) if losers else max(legal, key=lambda c: c % r)


def test_greedy_card_follows_its_rule():
    game = isz.make_game("oh_hell")
    _, card = make_greedy_policy(game.kernel)
    rng = np.random.default_rng(0)
    la = np.empty(game.num_actions, dtype=np.int64)
    seen = set()
    for _ in range(200):
        st = after_decisions(game, int(rng.integers(3, 33)), rng)
        if st.data[K.PHASE] != K.PH_PLAY:
            continue
        s, p = np.asarray(st.data), st.current_player()
        legal = st.legal_actions()
        la[:len(legal)] = legal
        got = card(s, game.kparams, p, la, len(legal))
        want = _reference_card(s, game, p, legal)
        r = game.params["ranks"]
        assert got in legal and got % r == want % r  # ties of rank across suits: any
        seen.add((bool(s[K.POS] == 0), bool(s[K.WON + p] < s[K.BID + p])))
    assert len(seen) == 4  # leading and following, wanting tricks and not


def test_greedy_bid_is_the_legal_bid_nearest_its_count():
    game = isz.make_game("oh_hell")
    bid, _ = make_greedy_policy(game.kernel)
    la = np.empty(game.num_actions, dtype=np.int64)
    r, c = game.params["ranks"], game.num_cards
    for seed in range(30):
        st = after_decisions(game, seed % 3, np.random.default_rng(seed))
        s, p = np.asarray(st.data), st.current_player()
        legal = st.legal_actions()
        la[:len(legal)] = legal
        hand, tsuit = int(s[K.HAND + p]), int(s[K.TSUIT])
        count = sum(1 for k in range(c) if (hand >> k) & 1 and (
            (k // r == tsuit and k % r >= r - 5) or (k // r != tsuit and k % r >= r - 2)))
        got = bid(s, game.kparams, p, la, len(legal))
        assert got in legal
        assert abs(got - c - count) == min(abs(a - c - count) for a in legal)


@pytest.mark.parametrize("name", ["so_ismcts", "guided_so_ismcts"])
def test_search_with_the_leaf_decides_from_the_view(registered, name):
    game = isz.make_game("oh_hell")
    agent = isz.make_agent(name, game, iterations=300, belief="voids", leaf=NAME)
    plain = isz.make_agent(name, game, iterations=300, belief="voids")
    differs = 0
    for seed, steps in [(0, 1), (1, 5), (2, 14)]:
        state, twin, p = twin_states(game, steps, seed)
        a = [agent.policy(s.view(p), np.random.default_rng(seed)) for s in (state, twin)]
        np.testing.assert_array_equal(a[0], a[1])
        differs += not np.array_equal(a[0], plain.policy(state.view(p),
                                                         np.random.default_rng(seed)))
    assert differs  # the leaf changes what the search sees


def test_unknown_leaf_is_refused_with_the_allowed_names():
    game = isz.make_game("oh_hell")
    with pytest.raises(IszError, match="leaf must be one of playout, policy, got 'nope'"):
        isz.make_agent("so_ismcts", game, leaf="nope")
    with pytest.raises(IszError, match="trick games"):
        make_greedy_policy(isz.make_game("kuhn_poker").kernel)


def test_learned_features_score_and_fit_agree(tmp_path):
    from research.location.data import play
    from research.playouts import learned

    game = isz.make_game("tricks", players=3, suits=3, ranks=4, hand_size=3, trump="card",
                         bidding=True, dealer="chance", hook=True)
    states, seats = play(isz.make_agent("so_ismcts", game, iterations=16), game, 30, seed=0,
                         progress=False)
    np.savez(tmp_path / "pos.npz", states=states, seats=seats)
    m = learned.moves([str(tmp_path / "pos.npz")], game)
    assert len(m["played"]) > 100
    for card, leg in zip(m["played"][:50], m["legal"][:50], strict=True):
        assert card in leg  # the move made is one of the row's legal cards
    feats, mask, target = learned.design(m, game)
    w = np.random.default_rng(0).normal(size=learned.F)
    for i in range(20):  # the leaf's buffer-free score is w . the fit's features
        for j in np.where(mask[i])[0]:
            want = feats[i, j] @ w
            got = card_score(m["states"][i], game.kparams, m["seats"][i],
                                     m["legal"][i, j], w)
            assert got == pytest.approx(want)
    fitted = learned.fit(feats, mask, target, steps=50)
    j = learned.judge(feats, mask, target, fitted, game, m)
    assert j["nll"] < j["uniform_nll"] and j["top1"] > j["uniform_top1"]


def test_learned_leaf_decides_from_the_view(tmp_path):
    import json

    from research.playouts import learned

    (tmp_path / "w.json").write_text(json.dumps({"weights": [1.0] * learned.F}))
    learned.register(str(tmp_path / "w.json"))
    try:
        game = isz.make_game("oh_hell")
        agent = isz.make_agent("so_ismcts", game, iterations=300, belief="voids",
                               leaf=learned.NAME)
        for seed, steps in [(0, 1), (2, 14)]:
            state, twin, p = twin_states(game, steps, seed)
            a = [agent.policy(s.view(p), np.random.default_rng(seed)) for s in (state, twin)]
            np.testing.assert_array_equal(a[0], a[1])
            assert a[0].sum() == pytest.approx(1.0)
        with pytest.raises(IszError, match="takes 20 weights"):
            learned.make_learned_leaf(game.kernel, (1.0,))
    finally:
        playout.LEAVES.pop(learned.NAME, None)


def test_features_tool_fits_both_feature_sets_on_the_same_games(tmp_path):
    """`research.playouts.features`: the same held-out rows judge a fit of the first 24
    features and of all 48; the card-choice rows are card plays with a choice; the
    weights written are what a seat knob takes (a refit of 24 plays as padded)."""
    import torch

    from isz.nn import ModelConfig, build_model, save_checkpoint
    from research.playouts.features import main

    game = isz.make_game("tricks", players=3, suits=3, ranks=4, hand_size=3, trump="card",
                         bidding=True, dealer="chance", hook=True)
    torch.manual_seed(0)
    cfg = ModelConfig(width=8, depth=1)
    ck = save_checkpoint(tmp_path / "c.pt", model=build_model(game, cfg), game=game,
                         model_cfg=cfg, extra={"planner": {"agent": "guided_so_ismcts",
                                                           "iterations": 30,
                                                           "belief": "voids"}})
    out = main([str(ck), "--games", "8", "--test-games", "4", "--seed", "3",
                "--output", str(tmp_path / "f.json")])
    old, full = out["old"], out["all"]
    assert (len(old["weights"]), len(full["weights"])) == (24, 48)
    assert old["held_out"]["rows"] == full["held_out"]["rows"] > 20
    choices = full["held_out_card_choices"]
    assert 0 < choices["rows"] < full["held_out"]["rows"] and choices["uniform_top1"] <= 0.5
    for w in (old["weights"], full["weights"]):
        isz.make_agent("so_ismcts", game, leaf="policy", playout_weights=w)
