"""`indexed_find_or_add`: the hashed root split builds the tree `find_or_add` builds;
the rollout MO-ISMCTS uses it."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief
from isz.search.driver import Budget, mo_search
from isz.search.tree import (
    LABEL,
    VISITS,
    ChildIndex,
    Tree,
    find_or_add,
    indexed_find_or_add,
)
from tests.conftest import random_decision


def test_index_builds_the_same_children_in_the_same_order_through_growth():
    rng = np.random.default_rng(0)
    labels = rng.integers(-(1 << 62), 1 << 62, size=300)
    labels = np.concatenate([labels, labels[rng.integers(0, 300, size=700)]])  # repeats
    plain, hashed = Tree(2000, roots=2), Tree(2000, roots=2)
    index = ChildIndex(np.arange(2), expected=4)  # 16 slots: must grow many times
    got_plain, got_hashed = [], []
    for k, lab in enumerate(labels):
        root = k % 2
        got_plain.append(find_or_add(plain.arrays, root, lab, -1))
        index.reserve(hashed.nodes, 1)
        got_hashed.append(indexed_find_or_add(hashed.arrays, root, lab, -1, index.arrays,
                                              root))
    assert got_plain == got_hashed
    n = int(plain.count[0])
    assert n == int(hashed.count[0]) == 2 + len(set(zip(np.arange(1000) % 2, labels,
                                                                   strict=True)))
    np.testing.assert_array_equal(plain.nodes[:n], hashed.nodes[:n])
    assert index.hkeys.shape[1] >= 2 * int(index.meta[:, 1].max())
    for root in (0, 1):  # the children, in creation order, and the index agree
        kids = plain.children(root)
        assert index.meta[root, 1] == len(kids) and index.meta[root, 0] == kids[-1]
        assert set(plain.nodes[kids, LABEL]) == set(labels[root::2])


@pytest.mark.parametrize("budget", [Budget(iterations=3000), Budget(seconds=0.5)])
def test_mo_search_root_splits_stay_one_child_per_information_state(budget):
    """The rollout MO-ISMCTS splits opponents' roots through the index (grown between
    chunks under a time budget): one child per label, and every iteration passes one."""
    game = isz.make_game("oh_hell")
    s = random_decision(game, np.random.default_rng(3), 8)
    me = s.current_player()
    belief, view, wrng = UniformBelief(game), s.view(me), np.random.default_rng(4)
    sampler = lambda n: belief.sample_many(view, n, wrng)  # noqa: E731
    mo_search(game, sampler, me, Budget(iterations=10), c=0.7, seed=0)  # compile first
    tree = mo_search(game, sampler, me, budget, c=0.7, seed=0)
    iterations = int(tree.nodes[me, VISITS])
    # A count, not a speed: a slow machine runs fewer iterations in 0.5 s, but always
    # several chunks (the first is 16), so the index is grown between them.
    assert iterations >= (3000 if budget.seconds is None else 300)
    for j in set(range(game.num_players)) - {me}:
        kids = tree.children(j)
        labels = tree.nodes[kids, LABEL]
        assert len(set(labels.tolist())) == len(kids) > 100  # a split per world, no repeats
        assert int(tree.nodes[kids, VISITS].sum()) == iterations == int(tree.nodes[j, VISITS])
