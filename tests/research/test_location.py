"""`research.location`: the truth it learns from, its public prior, and the ``located``
belief (a card-location net tilting ``voids`` deals) seeing only the view."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest
import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.belief import registry
from isz.games import tricks_kernel as K
from isz.nn import ModelConfig, build_model
from isz.search.evaluator import make_search_belief
from research.location.belief import NAMES, LocatedBelief, register
from research.location.data import labels, log_prior
from research.location.net import LocationNet, log_probs_np
from tests.belief.tricks_reference import after_decisions, twin_states


@contextmanager
def research_beliefs():
    """``located`` and ``sir_sharp`` known to `make_belief` inside, gone after: other
    tests list the registry."""
    register()
    try:
        yield
    finally:
        for name in NAMES:
            registry._BELIEFS.pop(name, None)


@pytest.fixture
def registered():
    with research_beliefs():
        yield


def test_labels_mark_what_the_seat_sees_and_where_the_rest_lies():
    game = isz.make_game("oh_hell")
    state = after_decisions(game, 9, np.random.default_rng(3))  # bids and some plays
    s, p = np.asarray(state.data), state.current_player()
    lab = labels(s[None], np.array([p]), game.num_players, game.num_cards)[0]
    seen = int(s[K.INIT + p]) | int(s[K.PLAYED]) | (1 << int(s[K.TCARD]))
    for c in range(game.num_cards):
        if (seen >> c) & 1:
            assert lab[c] == -1
            continue
        holder = [q for q in range(game.num_players) if (int(s[K.HAND + q]) >> c) & 1]
        assert lab[c] == ((holder[0] - p) % game.num_players if holder else 0)
    assert (lab == 0).sum() == game.num_cards - 1 - 30  # the stock: 52 - trump - hands


def test_public_prior_is_a_law_and_zero_on_a_shown_void():
    game = isz.make_game("tricks", players=3, suits=3, ranks=4, hand_size=3, trump="card",
                         bidding=True)
    rng = np.random.default_rng(0)
    for steps in range(3, 9):
        state = after_decisions(game, steps, rng)
        s, p = np.asarray(state.data), state.current_player()
        lp = log_prior(s[None], np.array([p]), game)[0]
        lab = labels(s[None], np.array([p]), game.num_players, game.num_cards)[0]
        unseen = lab >= 0
        np.testing.assert_allclose(np.exp(lp[unseen]).sum(axis=1), 1.0, rtol=1e-5)
        assert np.all(lp[unseen, lab[unseen]] > -30)  # the truth is never ruled out
    # a hand where seat 1 did not follow the led suit: its suit gets no probability
    s = np.asarray(after_decisions(game, 3, np.random.default_rng(0)).data).copy()
    seat_of = (int(s[int(game.kparams[K.K_TLEAD])]) + 1) % 3
    suit = game.kparams[K.K_SUITOF:K.K_SUITOF + game.num_cards]
    led = next(c for c in range(game.num_cards) if suit[c] == 0)
    off = next(c for c in range(game.num_cards) if suit[c] == 1)
    s[K.NPLAYED], s[K.PLAYS], s[K.PLAYS + 1] = 2, led, off
    me = (seat_of + 1) % 3
    lp = log_prior(s[None], np.array([me]), game)[0]
    r = (seat_of - me) % 3
    assert np.all(lp[suit == 0, r] == -30)


def _weights(game, path, sharp=1.0):
    torch.manual_seed(0)
    net = LocationNet(game.tensor_size, game.num_cards, game.num_players, width=16)
    with torch.no_grad():
        for prm in net.body[-1].parameters():
            prm.mul_(sharp)  # sharp > 1: a random net whose tilt matters
    np.savez(path, *net.export())
    return net


def test_exported_net_matches_torch(tmp_path):
    game = isz.make_game("oh_hell")
    net = _weights(game, tmp_path / "w.npz")
    x = (np.random.default_rng(0).random((3, game.tensor_size)) < 0.1).astype(np.float32)
    d = np.load(tmp_path / "w.npz")
    got = log_probs_np([d[f"arr_{i}"] for i in range(6)], x, game.num_cards)
    want = torch.log_softmax(net(torch.from_numpy(x)), dim=2).detach().numpy()
    np.testing.assert_allclose(got, want, atol=1e-4)


def test_located_tilts_worlds_by_view_only(tmp_path, registered):
    """Twin states (one view, other hidden hands): the same worlds, with the bids
    weighed too; every world consistent with the view; and the tilt moves the law."""
    game = isz.make_game("oh_hell")
    _weights(game, tmp_path / "w.npz", sharp=30.0)
    torch.manual_seed(0)
    ev = NetworkEvaluator(build_model(game, ModelConfig(width=16, depth=1)), "cpu")
    spec = {"name": "located", "weights": str(tmp_path / "w.npz"), "bids": True,
            "plays": 0}
    for seed, steps in [(0, 2), (2, 12)]:
        state, twin, p = twin_states(game, steps, seed)
        worlds = [make_search_belief(spec, game, ev).sample_many(
            s.view(p), 200, np.random.default_rng(seed)) for s in (state, twin)]
        np.testing.assert_array_equal(worlds[0], worlds[1])
        for w in worlds[0][:20]:
            assert isz.games.base.State(game, w.copy()).view(p).key == state.view(p).key
        b = LocatedBelief(game, weights=str(tmp_path / "w.npz"))
        b.sample_many(state.view(p), 10, np.random.default_rng(seed))
        assert b.last_ess < 0.9 * b.candidates  # the net's tilt is not flat


def test_sir_sharp_at_sharpness_one_is_sir_and_sharper_above(registered):
    game = isz.make_game("oh_hell")
    torch.manual_seed(0)
    ev = NetworkEvaluator(build_model(game, ModelConfig(width=16, depth=1)), "cpu")
    state = after_decisions(game, 2, np.random.default_rng(0))  # after two bids
    view = state.view(state.current_player())
    runs = {}
    for spec in ({"name": "sir", "plays": 0},
                 {"name": "sir_sharp", "plays": 0, "sharpness": 1.0},
                 {"name": "sir_sharp", "plays": 0, "sharpness": 3.0}):
        b = make_search_belief(spec, game, ev)
        runs[spec.get("sharpness", 0)] = (b.sample_many(view, 50, np.random.default_rng(4)),
                                          b.last_ess)
    np.testing.assert_array_equal(runs[0][0], runs[1.0][0])
    assert runs[0][1] == runs[1.0][1]
    assert runs[3.0][1] < runs[0][1]  # squaring the weights concentrates the pool


def test_registering_is_undone():
    before = set(registry.belief_names())
    with research_beliefs():
        assert set(registry.belief_names()) == before | {"located", "sir_sharp"}
    assert set(registry.belief_names()) == before
