"""The expansion threshold of PUCT (``expand_after = n``): a leaf's first ``n - 1``
visits are random playouts, no evaluator row; its ``n``-th expands it."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import make_belief
from isz.search.puct_driver import PUCTBatch, PUCTConfig
from isz.search.tree import CHILD, NONE, VISITS
from isz.training.config import validate
from tests.recipes import alphazero_config


class _Eval:
    """Deterministic, state-dependent priors and values (fixed random projections of
    the tensor, rounded so that the search does not hinge on the last float bit);
    counts the rows it evaluates."""

    def __init__(self, game):
        r = np.random.default_rng(3)
        self.wp = r.standard_normal((game.tensor_size, game.num_actions)).astype(np.float32)
        self.wv = r.standard_normal((game.tensor_size, game.num_players)).astype(np.float32)
        self.rows = 0

    def evaluate(self, tensors, masks):
        self.rows += len(tensors)
        z = np.where(masks, np.round(tensors @ self.wp, 3), -np.inf)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        v = np.round(np.tanh(0.1 * (tensors @ self.wv)), 3)
        return p / p.sum(axis=1, keepdims=True), v


def _search(tree="mo", lanes=4, sims=120, **cfg):
    """Seat 0's first decision of 3-player tricks (12 cards: opponents' trees grow)."""
    game = isz.make_game("tricks", players=3)
    st = game.new_initial_state()
    rng = np.random.default_rng(0)
    while st.is_chance_node() or st.current_player() != 0:
        st.apply_action(st.sample_chance(rng) if st.is_chance_node()
                        else int(rng.choice(st.legal_actions())))
    worlds = make_belief("uniform", game).sample_many(st.view(0), sims,
                                                      np.random.default_rng(1))
    batch = PUCTBatch(game, PUCTConfig(tree=tree, **cfg), worlds[None], [0], 7, lanes=lanes)
    ev = _Eval(game)
    batch.run(ev, sims)
    visits = {a: n for a, (n, _) in sorted(batch.root_stats(0).items())}
    return batch, visits, int(batch.tree.count[0]), ev.rows


# root visits, tree size and evaluator rows of `_search` measured on commit 3671d6d,
# before the threshold existed
BEFORE = {
    ("mo", 1, "searcher", 0.0): ({1: 25, 6: 1, 7: 1, 9: 92}, 540, 236),
    ("mo", 4, "searcher", 0.0): ({1: 26, 6: 1, 7: 1, 9: 91}, 537, 236),
    ("so", 1, "searcher", 0.0): ({1: 28, 6: 1, 7: 1, 9: 89}, 324, 197),
    ("so", 4, "searcher", 0.0): ({1: 35, 6: 1, 7: 1, 9: 82}, 320, 201),
    ("mo", 1, "own", 0.5): ({1: 23, 6: 0, 7: 1, 9: 95}, 534, 236),
    ("mo", 4, "own", 0.5): ({1: 38, 6: 0, 7: 2, 9: 79}, 533, 238),
    ("so", 1, "own", 0.5): ({1: 30, 6: 0, 7: 1, 9: 88}, 320, 200),
    ("so", 4, "own", 0.5): ({1: 23, 6: 0, 7: 1, 9: 95}, 308, 205),
}


@pytest.mark.parametrize("key", sorted(BEFORE))
def test_threshold_one_is_the_search_before_it(key):
    tree, lanes, view, mix = key
    _, visits, size, rows = _search(tree, lanes, value_view=view, leaf_mix=mix,
                                    expand_after=1)
    assert (visits, size, rows) == BEFORE[key]


@pytest.mark.parametrize("tree", ["mo", "so"])
def test_a_threshold_saves_evaluator_rows(tree):
    base, _, _, rows1 = _search(tree, expand_after=1)
    batch, visits, _, rows4 = _search(tree, expand_after=4)
    assert base.playouts == 0
    assert rows4 < rows1 / 3
    assert batch.playouts > 120 / 2
    assert sum(visits.values()) == 119  # every simulation after the root's visits a move


def test_a_threshold_above_the_simulations_evaluates_the_root_alone():
    """Nothing below the searcher's root is ever expanded: one evaluator row (the
    root; value_view actor adds no searcher rows), every other simulation a playout
    from one of the root's moves (none ends the game)."""
    batch, visits, _, rows = _search("so", lanes=1, value_view="actor", expand_after=10**6)
    assert rows == 1 and batch.evaluations == 1
    assert batch.playouts == 119
    assert sum(visits.values()) == 119  # the first simulation expanded the root


@pytest.mark.parametrize("lanes", [1, 4])
@pytest.mark.parametrize("n", [2, 5])
def test_every_expanded_node_was_reached_n_times(n, lanes):
    """In one observer tree of tricks (no chance below the deal) a node gets children
    only when it is expanded, so every node with children but the root has at least
    ``n`` visits; leaves below the threshold exist."""
    batch, _, size, _ = _search("so", lanes=lanes, sims=300, expand_after=n)
    nodes = batch.tree.nodes[:size]
    expanded = np.flatnonzero(nodes[:, CHILD] != NONE)
    assert len(expanded) > 3
    assert all(nodes[x, VISITS] >= n for x in expanded if x != batch.root(0))
    leaves = np.flatnonzero(nodes[:, CHILD] == NONE)
    assert np.any(nodes[leaves, VISITS] < n)
    assert int(batch.tree.pending[:size].sum()) == 0  # every virtual loss lifted


def test_a_threshold_plays_through_the_agent_and_records_its_playouts():
    game = isz.make_game("tricks", players=3)
    st = game.new_initial_state()
    rng = np.random.default_rng(2)
    while st.is_chance_node():
        st.apply_action(st.sample_chance(rng))
    ev = _Eval(game)
    agent = isz.make_agent("puct_ismcts", game, iterations=64, evaluator=ev, expand_after=3)
    a = agent.act(st.view(st.current_player()), np.random.default_rng(0))
    assert a in st.legal_actions()
    assert 0 < ev.rows < 64


@pytest.mark.parametrize("bad", [0, -2, 1.5, "4", True, None])
def test_bad_expand_after_is_named(bad):
    game = isz.make_game("kuhn_poker")
    with pytest.raises(isz.IszError, match="expand_after must be"):
        isz.make_agent("puct_ismcts", game, expand_after=bad)
    with pytest.raises(isz.IszError, match="expand_after must be"):
        _search(expand_after=bad)


def test_search_expand_after_reaches_planner_and_selfplay_and_is_checked():
    from isz.training.evaluation import planner_knobs
    from isz.training.loop import _selfplay_cfg

    cfg = alphazero_config()
    assert planner_knobs(cfg)["expand_after"] == 1
    cfg.search.expand_after = 8
    validate(cfg)
    assert planner_knobs(cfg)["expand_after"] == 8
    assert _selfplay_cfg(cfg).puct.expand_after == 8
    cfg.search.expand_after = 0
    with pytest.raises(isz.IszError, match=r"search.expand_after must be in \[1, inf\]"):
        validate(cfg)
    cfg.search.expand_after = 8
    assert planner_knobs(cfg)["below_threshold"] == "playout"
    cfg.search.below_threshold = "search"
    validate(cfg)
    assert planner_knobs(cfg)["below_threshold"] == "search"
    assert _selfplay_cfg(cfg).puct.below_threshold == "search"
    cfg.search.below_threshold = "stop"
    with pytest.raises(isz.IszError, match="search.below_threshold 'stop'; allowed: playout"):
        validate(cfg)


def test_selfplay_with_a_threshold_plays_games_with_fewer_evaluations():
    from dataclasses import replace

    from isz.selfplay import SelfPlayConfig, play

    game = isz.make_game("tricks", players=3)
    ev = _Eval(game)
    cfg = SelfPlayConfig(parallel_games=2, simulations=16)
    out = {}
    for n in (1, 4):
        c = replace(cfg, puct=replace(cfg.puct, expand_after=n))
        pos, stats = play(game, ev, c, 2, np.random.default_rng(0))
        assert stats.games == 2 and stats.positions > 0
        sums = pos.policies.sum(1)  # value-only rows (the other seats') have none
        assert np.all(np.isfinite(pos.policies)) and np.any(sums > 0)
        assert np.allclose(sums[sums > 0], 1)
        out[n] = stats.evaluations
    assert out[4] < out[1] / 2
