"""A search tree as flat arrays: no per-node Python objects.

``nodes`` is ``int64[capacity, 7]`` with the fields below, ``value`` is
``float64[capacity]`` (sum of backed-up scores in [0, 1] from the point of view
of the node's ``ACTOR``, the seat whose move led into the node), ``prior`` is
``float64[capacity]`` (the policy prior of the edge into the node; PUCT only),
``pending`` is ``int64[capacity]`` (simulations in flight through the node, the
virtual losses of a PUCT search with several simulations per batch; PUCT only),
``count`` is ``int64[1]`` (nodes in use). Children form a singly linked list in creation
order (``CHILD`` -> first, ``SIB`` -> next), which keeps creation-order
tie-breaking identical to the seed's list of children.
"""

from __future__ import annotations

import numba as nb
import numpy as np

PARENT, CHILD, SIB, LABEL, VISITS, AVAIL, ACTOR = range(7)
NUM_FIELDS = 7
NONE = -1


class Tree:
    """Owner of the arrays of one or more search trees (one root per tree)."""

    def __init__(self, capacity: int, roots: int = 1):
        self.nodes = np.empty((max(capacity, roots + 1), NUM_FIELDS), dtype=np.int64)
        self.value = np.zeros(len(self.nodes), dtype=np.float64)
        self.prior = np.zeros(len(self.nodes), dtype=np.float64)
        self.pending = np.zeros(len(self.nodes), dtype=np.int64)
        self.count = np.zeros(1, dtype=np.int64)
        for r in range(roots):
            init_node(self.nodes, self.value, r, NONE, NONE, NONE)
        self.count[0] = roots

    @property
    def capacity(self) -> int:
        return len(self.nodes)

    def grow(self) -> None:
        """Double the capacity, keeping every node."""
        n = self.capacity
        nodes = np.empty((2 * n, NUM_FIELDS), dtype=np.int64)
        nodes[:n] = self.nodes
        value = np.zeros(2 * n, dtype=np.float64)
        value[:n] = self.value
        prior = np.zeros(2 * n, dtype=np.float64)
        prior[:n] = self.prior
        pending = np.zeros(2 * n, dtype=np.int64)
        pending[:n] = self.pending
        self.nodes, self.value, self.prior, self.pending = nodes, value, prior, pending

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
def init_node(nodes, value, i, parent, label, actor):
    nodes[i, PARENT] = parent
    nodes[i, CHILD] = NONE
    nodes[i, SIB] = NONE
    nodes[i, LABEL] = label
    nodes[i, VISITS] = 0
    nodes[i, AVAIL] = 1  # as the seed: a new child has been available once
    nodes[i, ACTOR] = actor
    value[i] = 0.0


@nb.njit(cache=True)
def find_child(nodes, node, label):
    """Index of the child of ``node`` with ``label``, or NONE."""
    ch = nodes[node, CHILD]
    while ch != NONE:
        if nodes[ch, LABEL] == label:
            return ch
        ch = nodes[ch, SIB]
    return NONE


@nb.njit(cache=True)
def add_child(nodes, value, count, node, label, actor):
    """Append a new child (caller guarantees capacity); returns its index."""
    i = count[0]
    count[0] = i + 1
    init_node(nodes, value, i, node, label, actor)
    ch = nodes[node, CHILD]
    if ch == NONE:
        nodes[node, CHILD] = i
    else:
        while nodes[ch, SIB] != NONE:
            ch = nodes[ch, SIB]
        nodes[ch, SIB] = i
    return i


@nb.njit(cache=True)
def find_or_add(nodes, value, count, node, label, actor):
    ch = find_child(nodes, node, label)
    if ch == NONE:
        ch = add_child(nodes, value, count, node, label, actor)
    return ch


@nb.njit(cache=True)
def backprop(nodes, value, node, scores):
    """Add one visit and the actor's score along the path from ``node`` to its root."""
    while node != NONE:
        nodes[node, VISITS] += 1
        a = nodes[node, ACTOR]
        if a >= 0:
            value[node] += scores[a]
        node = nodes[node, PARENT]


@nb.njit(cache=True)
def add_pending(nodes, pending, node, delta):
    """Add ``delta`` in-flight simulations along the path from ``node`` to its root."""
    while node != NONE:
        pending[node] += delta
        node = nodes[node, PARENT]


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
def indexed_find_or_add(nodes, value, count, node, label, actor, hkeys, hnodes, meta, row):
    """`find_or_add` for a node whose children are all made here, through an index:
    open addressing over ``hkeys/hnodes[row]`` (int64[H], H a power of two that the
    caller keeps above twice the children; NONE = empty); ``meta[row] = (last child,
    number of children)``. The child list is the one `find_or_add` would build (creation order), in
    O(1) instead of a scan of every child (a root split has one per world)."""
    j = _slot(hkeys, hnodes, row, label)
    if hnodes[row, j] != NONE:
        return hnodes[row, j]
    i = count[0]
    count[0] = i + 1
    init_node(nodes, value, i, node, label, actor)
    if meta[row, 0] == NONE:
        nodes[node, CHILD] = i
    else:
        nodes[meta[row, 0], SIB] = i
    meta[row, 0] = i
    meta[row, 1] += 1
    hkeys[row, j] = label
    hnodes[row, j] = i
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

