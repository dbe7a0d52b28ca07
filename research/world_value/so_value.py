"""PROTOTYPE (research): so_ismcts whose leaves are valued by the world-value net.

Same loop as `isz.search.so_ismcts.make_so_ismcts` (root PUCT on priors kept),
but at the leaf, after chance is resolved, the backed-up scores are
``(1 - m) * world_scores + m * random playout`` (``m = leaf_mix``; m = 1 is
plain so_ismcts). Kept here as a research prototype, not in `isz.search`: at
equal time these leaves did not pay (docs/results/tricks.md, docs/results/oh_hell_research.md),
so the kernel did not take them as a variant.
"""

from __future__ import annotations

import functools

import numba as nb
import numpy as np

from isz.games.kernel import Kernel
from isz.rng import new_rng, rand_below
from isz.search.driver import Budget
from isz.search.playout import Scratch, make_playout
from isz.search.puct_select import select_puct
from isz.search.so_ismcts import make_select, pick_action, untried_labels
from isz.search.tree import LABEL, NONE, Tree, add_child, backprop, find_child
from isz.types import CHANCE, TERMINAL
from research.world_value.compiled import make_world_value


@functools.cache
def make_so_value(kernel: Kernel):
    """Compiled ``run(dets, params, me, c, root_prior, c_prior, start, stop, t, b, rng, w,
    leaf_mix, h1, h2, vs)``: iterations ``start..stop-1`` into the tree ``t`` (a
    `isz.search.tree.TreeArrays`), scratch ``b`` (`isz.search.playout.Scratch`),
    world-value weights ``w`` and their buffers (``h1``, ``h2`` float32[H], ``vs``
    float64[P]); returns the next iteration (earlier when the tree is full)."""
    current_player = kernel.current_player
    legal_actions = kernel.legal_actions
    apply_action = kernel.apply_action
    observe = kernel.observe
    sample_chance, random_playout, terminal_scores = make_playout(kernel)
    _, world_scores = make_world_value(kernel)
    select = make_select(False, False)

    @nb.njit(cache=True)
    def leaf_scores(s, params, rng, b, w, leaf_mix, h1, h2, vs):
        while current_player(s, params) == CHANCE:
            apply_action(s, params, sample_chance(s, params, rng, b.ca, b.cp))
        scores = b.scores
        if current_player(s, params) == TERMINAL:
            terminal_scores(s, params, b.ret, scores)
            return
        if leaf_mix < 1.0:
            world_scores(s, params, w, b.tbuf, h1, h2, vs)
        if leaf_mix > 0.0:
            random_playout(s, params, rng, b.la, b.ca, b.cp)
            terminal_scores(s, params, b.ret, scores)
            for i in range(scores.shape[0]):
                scores[i] = leaf_mix * scores[i] + (1.0 - leaf_mix) * vs[i]
        else:
            for i in range(scores.shape[0]):
                scores[i] = vs[i]

    @nb.njit(cache=True)
    def run(dets, params, me, c, root_prior, c_prior, start, stop, t, b, rng, w, leaf_mix,
            h1, h2, vs):
        ndet = dets.shape[0]
        cap = t.nodes.shape[0]
        smooth = (0.0, 0.0, 0.0)
        s, la, lab = b.s, b.la, b.lab
        for it in range(start, stop):
            if t.count[0] + 2 > cap:
                return it
            s[:] = dets[it % ndet]
            node = 0
            while True:
                p = current_player(s, params)
                if p == TERMINAL:
                    break
                if p == CHANCE:
                    a = sample_chance(s, params, rng, b.ca, b.cp)
                    label = observe(s, params, a, me)
                    apply_action(s, params, a)
                    ch = find_child(t, node, label)
                    if ch == NONE:
                        node = add_child(t, node, label, -1)
                        break
                    node = ch
                    continue
                n = legal_actions(s, params, la)
                for i in range(n):
                    lab[i] = la[i] if p == me else observe(s, params, la[i], me)
                nu = untried_labels(t, node, lab, n, b.untried)
                if nu > 0:
                    label = b.untried[rand_below(rng, nu)]
                    a = pick_action(la, lab, n, label, rng)
                    if node == 0 and c_prior > 0.0:
                        t.prior[t.count[0]] = root_prior[label]
                    node = add_child(t, node, label, p)
                    apply_action(s, params, a)
                    break
                if node == 0 and c_prior > 0.0:
                    node = select_puct(t, node, lab, n, p, c_prior, 0.5, root_prior, 0.0)
                else:
                    node = select(t, node, lab, n, c, smooth, rng)
                apply_action(s, params, pick_action(la, lab, n, t.nodes[node, LABEL], rng))
            leaf_scores(s, params, rng, b, w, leaf_mix, h1, h2, vs)
            backprop(t, node, b.scores)
        return stop

    return run


def so_value_search(game, sample_worlds, me: int, budget: Budget, *, c: float, seed: int,
                    weights, leaf_mix: float, root_prior=None, c_prior: float = 0.0) -> Tree:
    run = make_so_value(game.kernel)
    first = budget.iterations if budget.iterations is not None else 4 * budget.chunk
    tree, rng, b = Tree(first + 2), new_rng(seed), Scratch.of(game)
    prior = np.zeros(game.num_actions) if root_prior is None else \
        np.asarray(root_prior, dtype=np.float64)
    width = weights[0].shape[1]
    h1, h2 = np.zeros(width, np.float32), np.zeros(width, np.float32)
    vs = np.zeros(game.num_players)
    for n in budget.chunks():
        dets, start = sample_worlds(n), 0
        while start < n:
            start = run(dets, game.kparams, me, c, prior,
                        float(c_prior) if root_prior is not None else 0.0, start, n,
                        tree.arrays, b, rng, weights, float(leaf_mix), h1, h2, vs)
            if start < n:
                tree.grow()
    return tree
