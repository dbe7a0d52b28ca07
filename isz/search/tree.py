"""A search tree as flat arrays: no per-node Python objects.

``nodes`` is ``int64[capacity, 7]`` with the fields below, ``value`` is
``float64[capacity]`` (sum of backed-up scores in [0, 1] from the point of view
of the node's ``ACTOR``, the seat whose move led into the node), ``prior`` is
``float64[capacity]`` (the policy prior of the edge into the node; PUCT only),
``pending`` is ``int64[capacity]`` (simulations in flight through the node, the
virtual losses of a PUCT search with several simulations per batch; PUCT only),
``evaluated`` is ``bool[capacity]`` (the evaluator has set the priors of the node's
children; PUCT only), ``count`` is ``int64[1]`` (nodes in use). Children form a
singly linked list in creation order (``CHILD`` -> first, ``SIB`` -> next), which
keeps creation-order tie-breaking identical to the seed's list of children.

Compiled code takes the arrays as one `TreeArrays` (``Tree.arrays``), the hash
index of a node's children as one `IndexArrays` (``ChildIndex.arrays``).
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np

PARENT, CHILD, SIB, LABEL, VISITS, AVAIL, ACTOR = range(7)
NUM_FIELDS = 7
NONE = -1


class TreeArrays(NamedTuple):
    """The arrays of a `Tree`, as compiled search code takes them (one argument)."""

    nodes: np.ndarray
    value: np.ndarray
    prior: np.ndarray
    pending: np.ndarray
    evaluated: np.ndarray
    count: np.ndarray


_ROOT = np.array([NONE, NONE, NONE, NONE, 0, 1, NONE], dtype=np.int64)  # a root's fields
assert _ROOT[VISITS] == 0 and _ROOT[AVAIL] == 1 and _ROOT[PARENT] == _ROOT[ACTOR] == NONE


class Tree:
    """Owner of the arrays of one or more search trees (one root per tree)."""

    def __init__(self, capacity: int, roots: int = 1):
        n = max(capacity, roots + 1)
        self.nodes = np.empty((n, NUM_FIELDS), dtype=np.int64)
        self.value = np.zeros(n, dtype=np.float64)
        self.prior = np.zeros(n, dtype=np.float64)
        self.pending = np.zeros(n, dtype=np.int64)
        self.evaluated = np.zeros(n, dtype=np.bool_)
        self.count = np.zeros(1, dtype=np.int64)
        self.nodes[:roots] = _ROOT  # what init_node writes, without a compiled call each
        self.count[0] = roots

    @property
    def arrays(self) -> TreeArrays:
        """The arrays as one `TreeArrays` (take it again after `grow`)."""
        return TreeArrays(self.nodes, self.value, self.prior, self.pending, self.evaluated,
                          self.count)

    @property
    def capacity(self) -> int:
        return len(self.nodes)

    def grow(self) -> None:
        """Double the capacity, keeping every node."""
        n = self.capacity

        def doubled(a: np.ndarray) -> np.ndarray:
            out = np.zeros((2 * n, *a.shape[1:]), dtype=a.dtype)
            out[:n] = a
            return out

        self.nodes, self.value, self.prior, self.pending, self.evaluated = (
            doubled(a) for a in (self.nodes, self.value, self.prior, self.pending,
                                 self.evaluated))

    def reserve(self, free: int) -> None:
        """Grow until at least ``free`` unused nodes remain."""
        while self.capacity - int(self.count[0]) < free:
            self.grow()

    def children(self, node: int = 0) -> list[int]:
        out, ch = [], int(self.nodes[node, CHILD])
        while ch != NONE:
            out.append(ch)
            ch = int(self.nodes[ch, SIB])
        return out

    def stats(self, node: int = 0) -> dict[int, tuple[int, float]]:
        """label -> (visits, mean score) of ``node``'s children."""
        out = {}
        for ch in self.children(node):
            n = int(self.nodes[ch, VISITS])
            out[int(self.nodes[ch, LABEL])] = (n, self.value[ch] / n if n else 0.0)
        return out


@nb.njit(cache=True, inline="always")
def init_node(t, i, parent, label, actor):
    nodes = t.nodes
    nodes[i, PARENT] = parent
    nodes[i, CHILD] = NONE
    nodes[i, SIB] = NONE
    nodes[i, LABEL] = label
    nodes[i, VISITS] = 0
    nodes[i, AVAIL] = 1  # as the seed: a new child has been available once
    nodes[i, ACTOR] = actor
    t.value[i] = 0.0


@nb.njit(cache=True)
def find_child(t, node, label):
    """Index of the child of ``node`` with ``label``, or NONE."""
    nodes = t.nodes
    ch = nodes[node, CHILD]
    while ch != NONE:
        if nodes[ch, LABEL] == label:
            return ch
        ch = nodes[ch, SIB]
    return NONE


@nb.njit(cache=True)
def add_child(t, node, label, actor):
    """Append a new child (caller guarantees capacity); returns its index."""
    nodes = t.nodes
    i = t.count[0]
    t.count[0] = i + 1
    init_node(t, i, node, label, actor)
    ch = nodes[node, CHILD]
    if ch == NONE:
        nodes[node, CHILD] = i
    else:
        while nodes[ch, SIB] != NONE:
            ch = nodes[ch, SIB]
        nodes[ch, SIB] = i
    return i


@nb.njit(cache=True)
def find_or_add(t, node, label, actor):
    ch = find_child(t, node, label)
    if ch == NONE:
        ch = add_child(t, node, label, actor)
    return ch


@nb.njit(cache=True)
def backprop(t, node, scores):
    """Add one visit and the actor's score along the path from ``node`` to its root."""
    nodes = t.nodes
    while node != NONE:
        nodes[node, VISITS] += 1
        a = nodes[node, ACTOR]
        if a >= 0:
            t.value[node] += scores[a]
        node = nodes[node, PARENT]


@nb.njit(cache=True)
def add_pending(t, node, delta):
    """Add ``delta`` in-flight simulations along the path from ``node`` to its root."""
    while node != NONE:
        t.pending[node] += delta
        node = t.nodes[node, PARENT]


_HASH_MUL = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing


@nb.njit(cache=True)
def _slot(hkeys, hnodes, row, label):
    """Probe of ``label`` in index row ``row``: its slot, holding it or empty (NONE)."""
    mask = hkeys.shape[1] - 1
    j = np.int64((np.uint64(label) * _HASH_MUL) >> np.uint64(32)) & mask
    while hnodes[row, j] != NONE and hkeys[row, j] != label:
        j = (j + 1) & mask
    return j


@nb.njit(cache=True)
def indexed_find_or_add(t, node, label, actor, ix, row):
    """`find_or_add` for a node whose children are all made here, through an index:
    open addressing over ``ix.keys/ix.nodes[row]`` (int64[H], H a power of two that the
    caller keeps above twice the children; NONE = empty); ``ix.meta[row] = (last child,
    number of children)``. The child list is the one `find_or_add` would build (creation
    order), in O(1) instead of a scan of every child (a root split has one per world)."""
    j = _slot(ix.keys, ix.nodes, row, label)
    if ix.nodes[row, j] != NONE:
        return ix.nodes[row, j]
    i = t.count[0]
    t.count[0] = i + 1
    init_node(t, i, node, label, actor)
    if ix.meta[row, 0] == NONE:
        t.nodes[node, CHILD] = i
    else:
        t.nodes[ix.meta[row, 0], SIB] = i
    ix.meta[row, 0] = i
    ix.meta[row, 1] += 1
    ix.keys[row, j] = label
    ix.nodes[row, j] = i
    return i


@nb.njit(cache=True)
def rebuild_index(nodes, roots, hkeys, hnodes):
    """Fill the (emptied) index rows with the children of ``roots[row]``."""
    hnodes[:, :] = NONE
    for row in range(roots.shape[0]):
        ch = nodes[roots[row], CHILD]
        while ch != NONE:
            label = nodes[ch, LABEL]
            j = _slot(hkeys, hnodes, row, label)
            hkeys[row, j] = label
            hnodes[row, j] = ch
            ch = nodes[ch, SIB]


class IndexArrays(NamedTuple):
    """The arrays of a `ChildIndex`, as compiled search code takes them (one argument)."""

    keys: np.ndarray
    nodes: np.ndarray
    meta: np.ndarray


class ChildIndex:
    """Hash indexes of the children of some nodes (`indexed_find_or_add`): row ``r``
    indexes ``roots[r]``; doubled by `reserve` before it can fill past one half."""

    def __init__(self, roots: np.ndarray, expected: int):
        self.roots = np.asarray(roots, dtype=np.int64)
        size = 16
        while size < 2 * expected:
            size *= 2
        self.hkeys = np.zeros((len(self.roots), size), dtype=np.int64)
        self.hnodes = np.full((len(self.roots), size), NONE, dtype=np.int64)
        self.meta = np.zeros((len(self.roots), 2), dtype=np.int64)
        self.meta[:, 0] = NONE

    @property
    def arrays(self) -> IndexArrays:
        """The arrays as one `IndexArrays` (take it again after `reserve`)."""
        return IndexArrays(self.hkeys, self.hnodes, self.meta)

    def reserve(self, nodes: np.ndarray, more: int) -> None:
        """Make room for ``more`` new children in every row."""
        most = int(self.meta[:, 1].max()) if len(self.roots) else 0
        size = self.hkeys.shape[1]
        if 2 * (most + more) <= size:
            return
        while 2 * (most + more) > size:
            size *= 2
        self.hkeys = np.zeros((len(self.roots), size), dtype=np.int64)
        self.hnodes = np.full((len(self.roots), size), NONE, dtype=np.int64)
        rebuild_index(nodes, self.roots, self.hkeys, self.hnodes)

