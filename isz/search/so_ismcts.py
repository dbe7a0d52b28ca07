"""Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012), compiled per game.

One tree over the searcher's information sets: every iteration takes a fresh
determinization, descends choosing only among children legal in *that* world,
expands one node, plays out randomly and backs up. The UCB term counts
availability ``A_i`` — how often child ``i`` was legal when its parent was
visited — instead of the parent's visits, exactly as the seed does:
``W_i / N_i + c * sqrt(ln A_i / N_i)``.

Edges are labelled by what the searcher observes (`Kernel.observe`). Where an
opponent's move is hidden (ReconGame), all the moves that look alike share one
edge and the move played in the world is drawn uniformly among them (the "+POM"
variant); in card games every move is public and this is plain SO-ISMCTS.

With ``full_labels`` on a single state, labels are the actions themselves and
the kernel is plain UCT (``parent_visits`` selects the ``ln N_parent`` term of
classic UCT), which PIMC and the cheating baseline use.

`make_so_ismcts` builds one loop per game and `SOVariant` (what it does: labels,
selection rule, root prior, leaf scoring); the numbers it reads at run time
travel as one `SOKnobs`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import NamedTuple

import numba as nb
import numpy as np

from isz.games.kernel import Kernel
from isz.rng import rand_below, rand_float
from isz.search.jit import entry, helper
from isz.search.playout import Scratch, load_world, make_leaf, make_playout
from isz.search.puct_select import select_puct, select_ucb_anchored
from isz.search.tree import (
    AVAIL,
    CHILD,
    LABEL,
    NONE,
    SIB,
    VISITS,
    TreeArrays,
    add_child,
    backprop,
    find_child,
)
from isz.types import CHANCE, TERMINAL


@dataclass(frozen=True)
class SOVariant:
    """What a compiled SO-ISMCTS loop does, fixed when `make_so_ismcts` builds it.

    ``full_labels``: edges are the actions themselves (UCT on one known state), not
    the searcher's observations. ``parent_visits``: UCB explores by ``ln N_parent``
    (classic UCT), not by availability. ``smooth``: Smooth UCT selection
    (`make_select`). ``root_prior``: the root's moves, once each is tried, are
    selected by PUCT on ``SOKnobs.root_prior``. ``root_mix`` (without ``root_prior``):
    the root's UCB takes ``SOKnobs.value_mix`` of ``SOKnobs.root_value`` into each
    move's mean (`isz.search.puct_select.select_ucb_anchored`). ``leaf``: how the
    world below the tree is scored, a name of `isz.search.playout.LEAVES`.
    """

    full_labels: bool = False
    parent_visits: bool = False
    smooth: bool = False
    root_prior: bool = False
    root_mix: bool = False
    leaf: str = "playout"


class SOKnobs(NamedTuple):
    """The numbers a compiled SO-ISMCTS loop reads at run time (one argument).

    ``c``: UCB's exploration constant; ``smooth``: ``(eta, gamma, d)`` of Smooth UCT;
    ``c_prior``: c_puct of the root's PUCT; ``root_prior``: float64[num_actions], a
    policy of the searcher's own view; ``root_value``: float64[num_actions], each
    root move's score in [0, 1] for the searcher (a value network's), weighted
    ``value_mix`` against the rollouts' mean in the root's PUCT or UCB
    (`isz.search.puct_select`'s ``anchor`` and ``lam``); ``playout_w``:
    float64[F], the weights of the ``policy`` leaf's moves
    (`isz.search.playout.make_action_score`).
    """

    c: float
    smooth: tuple[float, float, float]
    c_prior: float
    root_prior: np.ndarray
    root_value: np.ndarray
    value_mix: float
    playout_w: np.ndarray


@nb.njit(cache=True)
def pick_action(la, lab, n, label, rng):
    """A legal action whose label is ``label``, uniform among those that share it."""
    k = 0
    for i in range(n):
        if lab[i] == label:
            k += 1
    j = rand_below(rng, k) if k > 1 else 0
    for i in range(n):
        if lab[i] == label:
            if j == 0:
                return la[i]
            j -= 1
    return la[0]


@nb.njit(cache=True)
def untried_labels(t, node, lab, n, untried):
    """Distinct labels among ``lab[:n]`` with no child yet; returns their count."""
    nu = 0
    for i in range(n):
        if find_child(t, node, lab[i]) != NONE:
            continue
        dup = False
        for k in range(nu):
            if untried[k] == lab[i]:
                dup = True
                break
        if not dup:
            untried[nu] = lab[i]
            nu += 1
    return nu


@nb.njit(cache=True)
def select_average(t, node, lab, n, rng):
    """A compatible child drawn in proportion to its visits (the average policy)."""
    nodes = t.nodes
    total = 0
    ch = nodes[node, CHILD]
    while ch != NONE:
        for i in range(n):
            if lab[i] == nodes[ch, LABEL]:
                total += nodes[ch, VISITS]
                break
        ch = nodes[ch, SIB]
    u = rand_below(rng, total)
    ch = nodes[node, CHILD]
    last = NONE
    while ch != NONE:
        for i in range(n):
            if lab[i] == nodes[ch, LABEL]:
                last = ch
                u -= nodes[ch, VISITS]
                break
        if u < 0:
            return ch
        ch = nodes[ch, SIB]
    return last


@functools.cache
def make_select(parent_visits: bool, smooth: bool):
    """Compiled ``select(t, node, lab, n, c, sm, rng)``: the compatible child of ``node``
    (labels ``lab[:n]``) chosen by UCB, bumping the availability of every compatible
    child: ``W_i / N_i + c * sqrt(ln A_i / N_i)``, ``A_i`` the parent's visits with
    ``parent_visits``. With ``smooth``, Smooth UCT (Heinrich & Silver, IJCAI 2015):
    UCB's child with probability ``eta_k = max(gamma, eta / (1 + d * sqrt(N_parent)))``,
    ``sm = (eta, gamma, d)``, else one drawn from the node's average policy
    (children in proportion to their visits); in Kuhn and Leduc this approaches a
    Nash equilibrium where plain UCT does not."""

    @helper
    def select_ucb(t, node, lab, n, c):
        nodes = t.nodes
        best = NONE
        best_v = -1e300
        parent_n = nodes[node, VISITS]
        ch = nodes[node, CHILD]
        while ch != NONE:
            label = nodes[ch, LABEL]
            compatible = False
            for i in range(n):
                if lab[i] == label:
                    compatible = True
                    break
            if compatible:
                nodes[ch, AVAIL] += 1
                nv = nodes[ch, VISITS]
                cnt = parent_n if parent_visits else nodes[ch, AVAIL]
                v = t.value[ch] / nv + c * math.sqrt(math.log(cnt) / nv)
                if v > best_v:
                    best_v = v
                    best = ch
            ch = nodes[ch, SIB]
        return best

    @helper
    def select(t, node, lab, n, c, sm, rng):
        best = select_ucb(t, node, lab, n, c)
        if not smooth:
            return best
        eta_k = max(sm[1], sm[0] / (1.0 + sm[2] * math.sqrt(t.nodes[node, VISITS])))
        if rand_float(rng) < eta_k:
            return best
        return select_average(t, node, lab, n, rng)

    return select


@functools.cache
def make_so_ismcts(kernel: Kernel, variant: SOVariant = SOVariant()):
    """The compiled SO-ISMCTS iteration loop ``run`` for one game and variant.

    ``run(worlds, params, me, start, stop, t, b, rng, k)`` runs iterations
    ``start..stop-1``, iteration ``i`` in world ``worlds[i % len(worlds)]``
    (int64[W, state_size]) for seat ``me``: `descend` to a new node, score the
    world below it (``variant.leaf``), back the scores up. ``t``: the tree's
    `isz.search.tree.TreeArrays` (root 0; ``prior`` holds the root children's
    priors, ``pending`` is all zeros), ``b``: `isz.search.playout.Scratch`, ``rng``:
    `isz.rng` state, ``k``: `SOKnobs`. Returns the next iteration to run: ``stop``,
    or earlier when the tree is full (the caller grows it and calls again).
    """
    current_player = kernel.current_player
    legal_actions = kernel.legal_actions
    apply_action = kernel.apply_action
    observe = kernel.observe
    sample_chance = make_playout(kernel)[0]
    leaf = make_leaf(kernel, variant.leaf)
    select = make_select(variant.parent_visits, variant.smooth)
    full_labels, root_prior, root_mix = variant.full_labels, variant.root_prior, variant.root_mix

    @helper
    def label_of(s, params, a, actor, me):
        """The edge label of move ``a`` of ``actor`` (CHANCE too) as ``me`` sees it."""
        return a if full_labels or actor == me else observe(s, params, a, me)

    @helper
    def try_new(params, node, p, n, nu, t, b, rng, k):
        """The child of one of ``node``'s ``nu`` untried labels, drawn uniformly, its
        move applied to ``b.s``."""
        label = b.untried[rand_below(rng, nu)]
        a = pick_action(b.la, b.lab, n, label, rng)
        if root_prior and node == 0:  # the child add_child makes
            t.prior[t.count[0]] = k.root_prior[label]
        child = add_child(t, node, label, p)
        apply_action(b.s, params, a)
        return child

    @helper
    def choose(node, p, n, t, b, rng, k):
        """The child of ``node`` (every label tried) that ``p`` moves to."""
        if root_prior and node == 0:
            return select_puct(t, node, b.lab, n, p, k.c_prior, 0.5, k.root_value,
                               k.value_mix)
        if root_mix and node == 0:
            return select_ucb_anchored(t, node, b.lab, n, k.c, k.root_value, k.value_mix)
        return select(t, node, b.lab, n, k.c, k.smooth, rng)

    @helper
    def descend(params, me, t, b, rng, k):
        """Walk world ``b.s`` down from the root until a move or a chance outcome makes
        a new node, or the game ends; returns that node (``b.s``: the world there)."""
        s = b.s
        node = 0
        while True:
            p = current_player(s, params)
            if p == TERMINAL:
                return node
            if p == CHANCE:
                a = sample_chance(s, params, rng, b.ca, b.cp)
                label = label_of(s, params, a, p, me)
                apply_action(s, params, a)
                ch = find_child(t, node, label)
                if ch == NONE:
                    return add_child(t, node, label, -1)
                node = ch
                continue
            n = legal_actions(s, params, b.la)
            for i in range(n):
                b.lab[i] = label_of(s, params, b.la[i], p, me)
            nu = untried_labels(t, node, b.lab, n, b.untried)
            if nu > 0:
                return try_new(params, node, p, n, nu, t, b, rng, k)
            node = choose(node, p, n, t, b, rng, k)
            apply_action(s, params, pick_action(b.la, b.lab, n, t.nodes[node, LABEL], rng))

    @entry
    def run(worlds, params, me, start, stop, tree, scratch, rng, knobs):
        t, b, k = TreeArrays(*tree), Scratch(*scratch), SOKnobs(*knobs)
        for it in range(start, stop):
            if t.count[0] + 2 > t.nodes.shape[0]:
                return it
            load_world(b.s, worlds[it % worlds.shape[0]])
            node = descend(params, me, t, b, rng, k)
            leaf(b.s, params, me, rng, b, k)
            backprop(t, node, b.scores)
        return stop

    return run
