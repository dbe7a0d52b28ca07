"""Multiple-observer ISMCTS (Cowling, Powley & Whitehouse 2012), compiled per game.

One tree per player; tree ``j`` branches on what player ``j`` observes
(`Kernel.observe`). In each determinization the acting player chooses by UCB
(with availability counts, as SO-ISMCTS) in *its own* tree, and every other
tree follows the observation that move produces for its owner. Opponents
therefore choose by their own information sets instead of being fused with
the searcher's, which is what SO-ISMCTS gets wrong. When the acting player's
node has an untried legal move, it is expanded in every tree and the
iteration plays out randomly from there.

Root split (on by default, beyond the 2012 paper): the cards an opponent was
dealt before the root differ between worlds, and a single opponent root would
fuse them, so the opponent would choose without regard to its own hand. With
``split``, each opponent's tree first branches on that opponent's information
state in the sampled world (a hash of its `Kernel.info_tensor`), so every
opponent decision is made per its own information set. A root split has about
one child per world, so it is looked up through a hash index (`ChildIndex`,
row ``j`` for tree ``j``), not a scan of its children.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

from isz.games.kernel import Kernel
from isz.rng import rand_below
from isz.search.jit import entry, helper
from isz.search.playout import Scratch, load_world, make_info_label, make_leaf, make_playout
from isz.search.so_ismcts import make_select, untried_labels
from isz.search.tree import (
    LABEL,
    IndexArrays,
    TreeArrays,
    backprop,
    find_or_add,
    indexed_find_or_add,
)
from isz.types import CHANCE, TERMINAL


@dataclass(frozen=True)
class MOVariant:
    """What a compiled MO-ISMCTS loop does, fixed when `make_mo_ismcts` builds it.

    ``split``: opponents' trees branch on their information state at the root;
    ``smooth``: Smooth UCT selection (`isz.search.so_ismcts.make_select`);
    ``leaf``: how the world below the trees is scored (`isz.search.playout.LEAVES`).
    """

    split: bool = True
    smooth: bool = False
    leaf: str = "playout"


class MOKnobs(NamedTuple):
    """The numbers a compiled MO-ISMCTS loop reads at run time: ``c``, UCB's
    exploration constant; ``smooth``, ``(eta, gamma, d)`` of Smooth UCT."""

    c: float
    smooth: tuple[float, float, float]


@functools.cache
def make_mo_ismcts(kernel: Kernel, variant: MOVariant = MOVariant()):
    """The compiled MO-ISMCTS iteration loop ``run`` for one game and variant.

    ``run(worlds, params, me, start, stop, max_new, t, ix, b, rng, k)`` runs
    iterations ``start..stop-1`` over worlds ``worlds[i % len(worlds)]``
    (int64[W, state_size]) for seat ``me``: enter the trees at their roots
    (nodes ``0..n_players-1`` of ``t``, a `isz.search.tree.TreeArrays`), `descend`
    them all, score the world below (``variant.leaf``), back the scores up every
    tree. ``ix``: the roots' `isz.search.tree.IndexArrays` (row ``j`` for tree
    ``j``, room for ``stop - start`` more children a row); ``b``:
    `isz.search.playout.Scratch` (``b.cur[j]``: tree ``j``'s node); ``k``: `MOKnobs`.
    Returns the next iteration (``stop`` unless fewer than ``max_new`` free nodes
    remain at the start of an iteration; the caller grows the tree and resumes).
    """
    current_player = kernel.current_player
    legal_actions = kernel.legal_actions
    apply_action = kernel.apply_action
    observe = kernel.observe
    sample_chance = make_playout(kernel)[0]
    info_label = make_info_label(kernel)
    leaf = make_leaf(kernel, variant.leaf)
    select = make_select(False, variant.smooth)
    split = variant.split

    @helper
    def follow(t, cur, s, params, a, actor):
        """Move every tree's cursor along what its owner observes of ``a``."""
        for j in range(cur.shape[0]):
            label = a if j == actor else observe(s, params, a, j)
            cur[j] = find_or_add(t, cur[j], label, actor)

    @helper
    def enter(params, me, t, ix, b):
        """Every tree's cursor at its root, an opponent's at its split for world ``b.s``."""
        for j in range(b.cur.shape[0]):
            b.cur[j] = j
            if split and j != me:
                b.cur[j] = indexed_find_or_add(t, j, info_label(b.s, params, j, b.tbuf), -1,
                                               ix, j)

    @helper
    def descend(params, t, b, rng, k):
        """Walk world ``b.s`` down every tree until the acting player's node has an
        untried move (drawn uniformly, expanded in every tree) or the game ends."""
        s = b.s
        while True:
            p = current_player(s, params)
            if p == TERMINAL:
                return
            if p == CHANCE:
                a = sample_chance(s, params, rng, b.ca, b.cp)
                follow(t, b.cur, s, params, a, -1)
                apply_action(s, params, a)
                continue
            n = legal_actions(s, params, b.la)
            nu = untried_labels(t, b.cur[p], b.la, n, b.untried)
            if nu > 0:
                a = b.untried[rand_below(rng, nu)]
            else:
                a = t.nodes[select(t, b.cur[p], b.la, n, k.c, k.smooth, rng), LABEL]
            follow(t, b.cur, s, params, a, p)
            apply_action(s, params, a)
            if nu > 0:
                return

    @entry
    def run(worlds, params, me, start, stop, max_new, tree, index, scratch, rng, knobs):
        t, ix, b = TreeArrays(*tree), IndexArrays(*index), Scratch(*scratch)
        k = MOKnobs(*knobs)
        for it in range(start, stop):
            if t.count[0] + max_new > t.nodes.shape[0]:
                return it
            load_world(b.s, worlds[it % worlds.shape[0]])
            enter(params, me, t, ix, b)
            descend(params, t, b, rng, k)
            leaf(b.s, params, me, rng, b, k)
            for j in range(b.cur.shape[0]):
                backprop(t, b.cur[j], b.scores)
        return stop

    return run
