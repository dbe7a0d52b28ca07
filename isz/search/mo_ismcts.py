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

import numba as nb

from isz.games.kernel import Kernel
from isz.rng import rand_below
from isz.search.playout import make_info_label, make_playout
from isz.search.so_ismcts import select, untried_labels
from isz.search.tree import LABEL, backprop, find_or_add, indexed_find_or_add
from isz.types import CHANCE, TERMINAL


@functools.cache
def make_mo_ismcts(kernel: Kernel):
    """The compiled MO-ISMCTS iteration loop for one game (see `run`)."""
    current_player = kernel.current_player
    legal_actions = kernel.legal_actions
    apply_action = kernel.apply_action
    observe = kernel.observe
    sample_chance, random_playout, terminal_scores = make_playout(kernel)
    info_label = make_info_label(kernel)

    @nb.njit(cache=True)
    def follow(nodes, value, count, cur, s, params, a, actor):
        """Move every tree's cursor along what its owner observes of ``a``."""
        for j in range(cur.shape[0]):
            label = a if j == actor else observe(s, params, a, j)
            cur[j] = find_or_add(nodes, value, count, cur[j], label, actor)

    @nb.njit(cache=True)
    def run(dets, params, me, split, c, smooth, start, stop, max_new, nodes, value, count,
            rng, s, cur, la, untried, ca, cp, ret, scores, tbuf, hkeys, hnodes, meta):
        """Iterations ``start..stop-1`` over worlds ``dets[i % len(dets)]``.

        Roots of the trees are nodes ``0..n_players-1``. Returns the next
        iteration (``stop`` unless fewer than ``max_new`` free nodes remain
        at the start of an iteration; the caller grows the tree and resumes).
        ``smooth``: Smooth UCT parameters as in `isz.search.so_ismcts.select`;
        ``split``: branch opponents' roots on their information state (``tbuf``:
        float32 scratch of the tensor size; ``hkeys/hnodes/meta``: the roots'
        `ChildIndex`, with room for ``stop - start`` more children a row);
        ``me``: the searching seat.
        """
        ndet = dets.shape[0]
        cap = nodes.shape[0]
        n_players = cur.shape[0]
        for it in range(start, stop):
            if count[0] + max_new > cap:
                return it
            s[:] = dets[it % ndet]
            for j in range(n_players):
                cur[j] = j
                if split and j != me:
                    cur[j] = indexed_find_or_add(nodes, value, count, j,
                                                 info_label(s, params, j, tbuf), -1,
                                                 hkeys, hnodes, meta, j)
            while True:
                p = current_player(s, params)
                if p == TERMINAL:
                    break
                if p == CHANCE:
                    a = sample_chance(s, params, rng, ca, cp)
                    follow(nodes, value, count, cur, s, params, a, -1)
                    apply_action(s, params, a)
                    continue
                n = legal_actions(s, params, la)
                nu = untried_labels(nodes, cur[p], la, n, untried)
                if nu > 0:
                    a = untried[rand_below(rng, nu)]
                    follow(nodes, value, count, cur, s, params, a, p)
                    apply_action(s, params, a)
                    break
                ch = select(nodes, value, cur[p], la, n, c, False, smooth, rng)
                a = nodes[ch, LABEL]
                follow(nodes, value, count, cur, s, params, a, p)
                apply_action(s, params, a)
            random_playout(s, params, rng, la, ca, cp)
            terminal_scores(s, params, ret, scores)
            for j in range(n_players):
                backprop(nodes, value, cur[j], scores)
        return stop

    return run
