"""`indexed_find_or_add`: the hashed root split builds the tree `find_or_add` builds."""

from __future__ import annotations

import numpy as np

from isz.search.tree import (
    LABEL,
    ChildIndex,
    Tree,
    find_or_add,
    indexed_find_or_add,
)


def test_index_builds_the_same_children_in_the_same_order_through_growth():
    rng = np.random.default_rng(0)
    labels = rng.integers(-(1 << 62), 1 << 62, size=300)
    labels = np.concatenate([labels, labels[rng.integers(0, 300, size=700)]])  # repeats
    plain, hashed = Tree(2000, roots=2), Tree(2000, roots=2)
    index = ChildIndex(np.arange(2), expected=4)  # 16 slots: must grow many times
    got_plain, got_hashed = [], []
    for k, lab in enumerate(labels):
        root = k % 2
        got_plain.append(find_or_add(plain.nodes, plain.value, plain.count, root, lab, -1))
        index.reserve(hashed.nodes, 1)
        got_hashed.append(indexed_find_or_add(hashed.nodes, hashed.value, hashed.count, root,
                                              lab, -1, index.hkeys, index.hnodes, index.meta,
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
