"""The compiled selection rules of PUCT-ISMCTS (see `isz.search.puct`).

Children of a node are a linked list in `isz.search.tree`'s arrays (``t``: its
`TreeArrays`); ``lab[:n]`` are the edge labels of the moves legal in the
simulation's world, so a rule looks only at compatible children (the
subset-armed bandit of ISMCTS).
"""

from __future__ import annotations

import math

import numba as nb

from isz.rng import rand_float
from isz.search.tree import AVAIL, CHILD, LABEL, NONE, SIB, VISITS, add_child, find_child


@nb.njit(cache=True)
def add_edge(t, node, label, actor, p):
    """A new child of ``node`` with prior ``p``; returns it."""
    ch = add_child(t, node, label, actor)
    t.nodes[ch, AVAIL] = 0  # PUCT counts availability from the first selection on
    t.prior[ch] = p
    return ch


@nb.njit(cache=True)
def select_puct(t, node, lab, n, actor, c_puct, fpu, anchor, lam):
    """The compatible child maximising PUCT; new labels join with prior 1/n.

    A simulation in flight through a child counts as a visit that scored 0
    (virtual loss), so that the simulations of one batch spread over the tree.
    With ``lam > 0`` a visited child's mean is ``(1 - lam) * mean + lam *
    anchor[label]`` (``anchor``: float64[num_actions], a score in [0, 1] per
    move, e.g. a value network's; not read when ``lam == 0``).
    """
    for i in range(n):
        if find_child(t, node, lab[i]) == NONE:
            add_edge(t, node, lab[i], actor, 1.0 / n)
    nodes, value, prior, pending = t.nodes, t.value, t.prior, t.pending
    best = NONE
    best_v = -1e300
    ch = nodes[node, CHILD]
    while ch != NONE:
        label = nodes[ch, LABEL]
        for i in range(n):
            if lab[i] == label:
                nodes[ch, AVAIL] += 1
                nv = nodes[ch, VISITS] + pending[ch]
                q = value[ch] / nv if nv > 0 else fpu
                if lam > 0.0 and nv > 0:
                    q = (1.0 - lam) * q + lam * anchor[label]
                v = q + c_puct * prior[ch] * math.sqrt(nodes[ch, AVAIL]) / (1.0 + nv)
                if v > best_v:
                    best_v = v
                    best = ch
                break
        ch = nodes[ch, SIB]
    return best


@nb.njit(cache=True)
def select_ucb_anchored(t, node, lab, n, c, anchor, lam):
    """The compatible child maximising ``(1 - lam) * W_i / N_i + lam * anchor[label]
    + c * sqrt(ln A_i / N_i)`` (SO-ISMCTS's UCB, `isz.search.so_ismcts.make_select`,
    on a mean mixed with a score in [0, 1] per move: ``anchor``, float64[num_actions],
    e.g. a value network's); every compatible child must have been tried. The root's
    rule when the network's values are mixed in without its priors (``c_puct=0``)."""
    nodes = t.nodes
    best = NONE
    best_v = -1e300
    ch = nodes[node, CHILD]
    while ch != NONE:
        label = nodes[ch, LABEL]
        for i in range(n):
            if lab[i] == label:
                nodes[ch, AVAIL] += 1
                nv = nodes[ch, VISITS]
                q = (1.0 - lam) * t.value[ch] / nv + lam * anchor[label]
                v = q + c * math.sqrt(math.log(nodes[ch, AVAIL]) / nv)
                if v > best_v:
                    best_v = v
                    best = ch
                break
        ch = nodes[ch, SIB]
    return best


@nb.njit(cache=True)
def least_visited(t, node, lab, n):
    """The compatible child with the fewest visits (in flight included); the first
    in sibling order on ties. Call after `select_puct`, which adds missing labels."""
    nodes, pending = t.nodes, t.pending
    best = NONE
    best_n = 1 << 62
    ch = nodes[node, CHILD]
    while ch != NONE:
        for i in range(n):
            if lab[i] == nodes[ch, LABEL]:
                nv = nodes[ch, VISITS] + pending[ch]
                if nv < best_n:
                    best_n = nv
                    best = ch
                break
        ch = nodes[ch, SIB]
    return best


@nb.njit(cache=True)
def sample_prior(t, node, lab, n, rng):
    """A compatible child drawn in proportion to its prior (the opponent model)."""
    nodes, prior = t.nodes, t.prior
    total = 0.0
    ch = nodes[node, CHILD]
    while ch != NONE:
        for i in range(n):
            if lab[i] == nodes[ch, LABEL]:
                total += prior[ch]
                break
        ch = nodes[ch, SIB]
    u = rand_float(rng) * total
    last = NONE
    ch = nodes[node, CHILD]
    while ch != NONE:
        for i in range(n):
            if lab[i] == nodes[ch, LABEL]:
                last = ch
                u -= prior[ch]
                break
        if u < 0.0 and last == ch:
            return ch
        ch = nodes[ch, SIB]
    return last
