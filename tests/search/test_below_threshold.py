"""``below_threshold = "search"``: below the expansion threshold a simulation goes on
(uniform priors until a node's n-th visit brings the evaluator's; a fresh opponent
node of an ``mo`` tree has its move picked in the searcher's tree) instead of
stopping in a playout, which in ``mo`` trees stops nearly every simulation at the
first opponent move."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.search.tree import ACTOR, CHILD, NONE, PARENT, SIB, VISITS
from tests.search.test_expand_after import BEFORE, _Eval, _search


def _depth(nodes, x):
    d = 0
    while nodes[x, PARENT] != NONE:
        x, d = nodes[x, PARENT], d + 1
    return d


def _children(nodes, x):
    out, ch = [], nodes[x, CHILD]
    while ch != NONE:
        out.append(ch)
        ch = nodes[ch, SIB]
    return out


def _own_decisions(batch, size):
    """Nodes of the searcher's (seat 0's) tree where seat 0 moves, with children."""
    nodes = batch.tree.nodes[:size]
    tree_of = np.zeros(size, dtype=np.int64)
    tree_of[:batch.n_trees] = np.arange(batch.n_trees)  # the roots come first
    for x in range(batch.n_trees, size):  # and parents before their children
        tree_of[x] = tree_of[nodes[x, PARENT]]
    kids = [x for x in range(size) if tree_of[x] == 0 and nodes[x, CHILD] != NONE]
    return [x for x in kids if nodes[nodes[x, CHILD], ACTOR] == 0]


@pytest.mark.parametrize("key", sorted(BEFORE))
def test_at_threshold_one_search_is_the_search_before(key):
    """Nothing is below a threshold of one: the same visits, tree and rows."""
    tree, lanes, view, mix = key
    _, visits, size, rows = _search(tree, lanes, value_view=view, leaf_mix=mix,
                                    expand_after=1, below_threshold="search")
    assert (visits, size, rows) == BEFORE[key]


def test_mo_playouts_stop_at_the_first_opponent_and_search_goes_deeper():
    """mo, n = 8, 600 simulations: with playouts no decision of the searcher below
    its root ever gets children (each simulation stops at an opponent's fresh
    information set); with search, the searcher's own nodes two tricks down do."""
    deepest = {}
    for mode in ("playout", "search"):
        batch, _, size, _ = _search("mo", lanes=4, sims=600, expand_after=8,
                                    below_threshold=mode)
        own = _own_decisions(batch, size)
        deepest[mode] = max(_depth(batch.tree.nodes, x) for x in own)
        assert int(batch.tree.pending[:size].sum()) == 0  # every virtual loss lifted
    assert deepest["playout"] == 0
    assert deepest["search"] >= 6  # root, then three moves a trick: two tricks down


@pytest.mark.parametrize("tree", ["mo", "so"])
def test_the_evaluators_priors_replace_the_uniform_ones_on_the_nth_visit(tree):
    """Every searcher decision with children: evaluated (non-uniform priors, as the
    projections of `_Eval` give) only after n visits; below n its children carry the
    uniform 1/k of the knowledge-free PUCT."""
    n = 5
    batch, _, size, rows = _search(tree, lanes=4, sims=600, expand_after=n,
                                   below_threshold="search")
    nodes, prior = batch.tree.nodes, batch.tree.prior
    evaluated = uniform = 0
    for x in _own_decisions(batch, size):
        kids = _children(nodes, x)
        if len(kids) < 2:  # one legal move: its prior is 1 either way
            continue
        p = prior[kids]
        if batch.evaluated[x]:
            evaluated += 1
            assert x == batch.root(0) or nodes[x, VISITS] >= n
            assert not np.allclose(p, 1.0 / len(kids))
            assert p.sum() == pytest.approx(1.0, abs=1e-5)
        else:
            uniform += 1
            assert nodes[x, VISITS] < n + 4  # lanes in flight may pass the threshold
            assert np.allclose(p, p[0])
    assert evaluated >= 3 and uniform >= 10
    assert 0 < rows < 600 / 2


def test_search_below_the_threshold_through_the_agent_on_oh_hell():
    """A decision of the planner on Oh Hell, every card hidden but its own: more
    than the root is evaluated, far fewer rows than simulations."""
    game = isz.make_game("oh_hell")
    st = game.new_initial_state()
    rng = np.random.default_rng(4)
    while st.is_chance_node() or st.current_player() != 1:
        st.apply_action(st.sample_chance(rng) if st.is_chance_node()
                        else int(rng.choice(st.legal_actions())))
    ev = _Eval(game)
    agent = isz.make_agent("puct_ismcts", game, iterations=400, evaluator=ev,
                           expand_after=4, below_threshold="search", belief="voids")
    a = agent.act(st.view(1), np.random.default_rng(0))
    assert a in st.legal_actions()
    assert agent.last_simulations == 400 and 1 < ev.rows < 400 / 2


@pytest.mark.parametrize("bad", ["searched", "", None, 1])
def test_bad_below_threshold_is_named(bad):
    game = isz.make_game("kuhn_poker")
    with pytest.raises(isz.IszError, match="below_threshold .*allowed: playout, search"):
        isz.make_agent("puct_ismcts", game, below_threshold=bad)
