"""The compiled ``descend`` of PUCT-ISMCTS: one wave of simulations down to their leaves.

`make_descend` builds it per game and `isz.search.puct.PUCTVariant`: the tree kind
(``mo``: one tree per player, ``so``: the searcher's), rollouts, the opponents'
and the root's selection, the leaf playout of a leaf mix and the below-threshold
search are constants of the compiled code, not flags read at every step. The
walk of one simulation is `simulate`; each kind of step is a helper of its own.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from isz.games.kernel import Kernel
from isz.search.jit import entry, helper
from isz.search.playout import (
    Scratch,
    load_world,
    make_info_label,
    make_playout,
    make_playout_scores,
)
from isz.search.puct_select import add_edge, least_visited, sample_prior, select_puct
from isz.search.so_ismcts import pick_action
from isz.search.tree import (
    CHILD,
    LABEL,
    NONE,
    VISITS,
    IndexArrays,
    TreeArrays,
    add_pending,
    backprop,
    find_child,
    find_or_add,
    indexed_find_or_add,
)
from isz.types import CHANCE, TERMINAL

if TYPE_CHECKING:
    from isz.search.puct import PUCTVariant

DONE = 0  # a lane whose simulation was backed up in descend (a terminal or a rollout)
NEEDS_EVAL = 1  # a lane that stopped at a leaf for the evaluator
IDLE = 2  # a lane that runs no simulation in this wave
PLAYOUT = 3  # a lane that stopped at a leaf below the expansion threshold (played out)
FRESH_C = 1.5  # c_puct of fresh_step's uniform-prior PUCT (the rollout puct_ismcts default)


class PUCTKnobs(NamedTuple):
    """The numbers the compiled PUCT kernels read at run time (one argument):
    ``lanes`` simulations of each search per wave; PUCT's ``c_puct`` and ``fpu``;
    the expansion threshold ``expand_after``; the leaf mix ``leaf_mix``."""

    lanes: int
    c_puct: float
    fpu: float
    expand_after: int
    leaf_mix: float


class LaneBuffers(NamedTuple):
    """Per-lane buffers of a wave (row ``l``: lane ``l`` of ``L``), one argument.

    ``cur``: int64[L, T], the lane's node in each tree; ``status``: int64[L]
    (`DONE`, `NEEDS_EVAL`, `IDLE`, `PLAYOUT`); ``leaf``: int64[L, 3], a leaf to
    evaluate: (actor, its tree, 1 when the searcher's own view is in
    ``my_tensors``); ``tensors``, ``my_tensors``: float32[L, tensor_size], the
    actor's and the searcher's views at the leaf; ``masks``: bool[L, A], the
    actor's legal moves; ``labels``: int64[L, A], each legal move's edge label;
    ``roll``: float64[L, P], the leaf's random playout scores (leaf mix); ``off``:
    bool[T], the trees a simulation has left (below-threshold search).
    """

    cur: np.ndarray
    status: np.ndarray
    leaf: np.ndarray
    tensors: np.ndarray
    my_tensors: np.ndarray
    masks: np.ndarray
    labels: np.ndarray
    roll: np.ndarray
    off: np.ndarray

    @classmethod
    def of(cls, lanes: int, trees: int, tensor_size: int, actions: int,
           players: int) -> LaneBuffers:
        return cls(np.zeros((lanes, trees), dtype=np.int64), np.zeros(lanes, dtype=np.int64),
                   np.zeros((lanes, 3), dtype=np.int64),
                   np.zeros((lanes, tensor_size), dtype=np.float32),
                   np.zeros((lanes, tensor_size), dtype=np.float32),
                   np.zeros((lanes, actions), dtype=np.bool_),
                   np.zeros((lanes, actions), dtype=np.int64),
                   np.zeros((lanes, players), dtype=np.float64),
                   np.zeros(trees, dtype=np.bool_))


@functools.cache
def make_descend(kernel: Kernel, variant: PUCTVariant):
    """Compiled ``descend(worlds, sim0, active, params, me, t, ix, w, b, rng, k)``:
    one wave, ``active`` simulations of every search down to a leaf or a terminal.

    Lane ``l`` (of ``L = B * k.lanes``) runs a simulation of search
    ``sb = l // k.lanes`` in world ``worlds[sb, (sim0 + l % k.lanes) % W]``
    (int64[B, W, state_size]) for seat ``me[sb]`` (me: int64[B]); lanes with
    ``l % k.lanes >= active`` idle (``w.status[l] == IDLE``). Lanes descend one
    after another, each leaving a virtual loss on its path until ``expand``
    (`isz.search.puct.make_expand`) backs its value up. ``t``: the trees'
    `isz.search.tree.TreeArrays` (tree ``j`` of search ``sb`` has root
    ``sb * T + j``); ``ix``: with ``mo``, the `isz.search.tree.IndexArrays` of
    the roots (row ``sb * T + j``: an opponent's root split has a child for
    nearly every world, too many to scan at every simulation); ``w``:
    `LaneBuffers`; ``b``: `isz.search.playout.Scratch`; ``k``: `PUCTKnobs`.

    On return ``w.status[l] == NEEDS_EVAL`` when the simulation stopped at a leaf
    of player ``w.leaf[l, 0]`` in tree ``w.leaf[l, 1]`` (see `at_leaf`); otherwise
    it ended at a terminal, in a rollout or below the expansion threshold
    (``PLAYOUT``) and is backed up.

    Expansion threshold ``k.expand_after = n >= 1``: a leaf other than the
    searcher's root reached for the j-th time (its visits plus simulations in
    flight through it, plus this one) with j < n is not evaluated nor given
    children: a random playout from the simulation's world is backed up through
    it (``PLAYOUT``). Below-threshold ``search`` (not with rollouts): such a node
    is not a stop. A node of the searcher (or any node of an ``so`` tree) is
    searched as by the knowledge-free PUCT: children with uniform priors on its
    first visit, a random playout, then PUCT, until its n-th visit evaluates it
    and the network's priors replace the uniform ones (``t.evaluated``, set by
    ``expand``). An opponent's node in its own ``mo`` tree leaves that tree for
    the rest of the simulation (``w.off``: its cursor stays there) and its move is
    picked in the searcher's tree (`fresh_step`); an opponent's information set
    is nearly unique per world, so without ``search`` almost every simulation
    stops at the first opponent move.
    """
    current_player = kernel.current_player
    legal_actions = kernel.legal_actions
    apply_action = kernel.apply_action
    observe = kernel.observe
    info_tensor = kernel.info_tensor
    sample_chance, _, terminal_scores = make_playout(kernel)
    playout_scores = make_playout_scores(kernel)
    info_label = make_info_label(kernel)
    mo = variant.tree == "mo"
    rollouts = variant.rollouts
    search = variant.below_threshold == "search" and not rollouts
    opponents_prior = variant.opponents == "prior"
    all_prior = variant.opponents == "evaluate"  # the searcher too, below its root
    uniform_root = variant.root_selection == "uniform"
    own_values = variant.value_view != "actor"
    leaf_playout = variant.leaf_playout

    @helper
    def label_of(s, params, a, actor, owner):
        return a if actor == owner else observe(s, params, a, owner)

    @helper
    def enter(params, me, sb, lane, t, ix, w, b):
        """Lane's cursors at its search's roots; an opponent's ``mo`` tree at the root
        split of its information state in world ``b.s``."""
        n_trees = w.cur.shape[1]
        for j in range(n_trees):
            w.cur[lane, j] = sb * n_trees + j
            if mo and j != me:
                w.cur[lane, j] = indexed_find_or_add(t, w.cur[lane, j],
                                                     info_label(b.s, params, j, b.tbuf), -1,
                                                     ix, sb * n_trees + j)

    @helper
    def follow(params, me, lane, a, actor, at, ch, t, w, b):
        """Move the lane's cursors along move ``a`` of ``actor`` (CHANCE too): tree
        ``at`` to its child ``ch``, every other tree still in use to the label its
        owner sees (created if new)."""
        for j in range(w.cur.shape[1]):
            if j == at:
                w.cur[lane, j] = ch
            elif not w.off[j]:
                owner = j if mo else me
                w.cur[lane, j] = find_or_add(t, w.cur[lane, j],
                                             label_of(b.s, params, a, actor, owner), actor)

    @helper
    def label_moves(params, p, owner, n, b):
        for i in range(n):
            b.lab[i] = label_of(b.s, params, b.la[i], p, owner)

    @helper
    def fresh_step(params, p, me, lane, n, t, w, b, rng, k):
        """Opponent ``p``'s move at a node of its own tree below the threshold: the
        searcher's tree picks it, at the searcher's node, by PUCT with uniform priors
        over ``p``'s moves as the searcher sees them: the opponent model of so_ismcts
        (that node is shared by every world that looks the same to the searcher, so
        ``p``'s replies are learnt there)."""
        label_moves(params, p, me, n, b)
        ch = select_puct(t, w.cur[lane, me], b.lab, n, p, FRESH_C, k.fpu, t.prior, 0.0)
        a = pick_action(b.la, b.lab, n, t.nodes[ch, LABEL], rng)
        follow(params, me, lane, a, p, me, ch, t, w, b)
        apply_action(b.s, params, a)

    @helper
    def choose(x, p, me, at_root, n, t, b, rng, k):
        """The child of ``x`` that ``p`` moves to: PUCT, or the variant's rule."""
        ch = select_puct(t, x, b.lab, n, p, k.c_puct, k.fpu, t.prior, 0.0)
        if opponents_prior and p != me or all_prior and not at_root:
            return sample_prior(t, x, b.lab, n, rng)  # the on-policy moves
        if uniform_root and at_root:
            return least_visited(t, x, b.lab, n)
        return ch

    @helper
    def ask_evaluator(params, p, me, at, lane, n, w, b):
        """Leave leaf ``(p, tree at)`` for the evaluator: the actor's view, legal mask
        and labels (and the searcher's own view for the searcher's value)."""
        info_tensor(b.s, params, p, w.tensors[lane])
        for a in range(w.masks.shape[1]):
            w.masks[lane, a] = False
        for i in range(n):
            w.masks[lane, b.la[i]] = True
            w.labels[lane, b.la[i]] = b.lab[i]
        w.leaf[lane, 0] = p
        w.leaf[lane, 1] = at
        w.leaf[lane, 2] = 0
        if own_values and p != me:
            info_tensor(b.s, params, me, w.my_tensors[lane])
            w.leaf[lane, 2] = 1

    @helper
    def at_leaf(params, p, me, at, x, below, lane, n, t, w, b, rng):
        """The simulation stops at leaf ``x``: rollouts (or a below-threshold node of
        ``search``) give it uniform priors and play out; otherwise the evaluator
        gets it (with ``leaf_playout`` its world is also played out, into
        ``w.roll``). Returns the lane's status."""
        if rollouts or search and below:
            for i in range(n):
                if find_child(t, x, b.lab[i]) == NONE:
                    add_edge(t, x, b.lab[i], p, 1.0 / n)
            playout_scores(b.s, params, rng, b)
            return PLAYOUT if below else DONE
        ask_evaluator(params, p, me, at, lane, n, w, b)
        if leaf_playout:  # the tensors and masks are taken: b.s may move on
            playout_scores(b.s, params, rng, b)
            for i in range(b.scores.shape[0]):
                w.roll[lane, i] = b.scores[i]
        return NEEDS_EVAL

    @helper
    def simulate(params, me, sb, lane, t, w, b, rng, k):
        """Walk world ``b.s`` down the lane's trees to where the simulation stops;
        returns its status (``b.scores``: its scores unless NEEDS_EVAL)."""
        s = b.s
        for j in range(w.off.shape[0]):
            w.off[j] = False
        while True:
            p = current_player(s, params)
            if p == TERMINAL:
                terminal_scores(s, params, b.ret, b.scores)
                return DONE
            if p == CHANCE:
                a = sample_chance(s, params, rng, b.ca, b.cp)
                follow(params, me, lane, a, p, -1, NONE, t, w, b)
                apply_action(s, params, a)
                continue
            at = p if mo else 0
            x = w.cur[lane, at]
            at_root = p == me and x == sb * w.cur.shape[1] + (me if mo else 0)
            below = not at_root and t.nodes[x, VISITS] + t.pending[x] + 1 < k.expand_after
            if not search and below and t.nodes[x, CHILD] == NONE:
                playout_scores(s, params, rng, b)  # below the threshold
                return PLAYOUT
            if search and mo and below and p != me and not t.evaluated[x]:
                w.off[at] = True  # a fresh opponent node: the searcher's tree picks
            n = legal_actions(s, params, b.la)
            if w.off[at]:
                fresh_step(params, p, me, lane, n, t, w, b, rng, k)
                continue
            label_moves(params, p, p if mo else me, n, b)
            leaf_here = t.nodes[x, CHILD] == NONE
            if search:  # the network's priors replace the uniform ones on the n-th visit
                leaf_here = not t.evaluated[x] and (leaf_here or not below)
            if leaf_here:
                return at_leaf(params, p, me, at, x, below, lane, n, t, w, b, rng)
            ch = choose(x, p, me, at_root, n, t, b, rng, k)
            a = pick_action(b.la, b.lab, n, t.nodes[ch, LABEL], rng)
            follow(params, me, lane, a, p, at, ch, t, w, b)
            apply_action(s, params, a)

    @entry
    def descend(worlds, sim0, active, params, me, tree, index, lanes, scratch, rng, knobs):
        t, ix, w = TreeArrays(*tree), IndexArrays(*index), LaneBuffers(*lanes)
        b, k = Scratch(*scratch), PUCTKnobs(*knobs)
        for lane in range(w.cur.shape[0]):
            if lane % k.lanes >= active:
                w.status[lane] = IDLE
                continue
            sb = lane // k.lanes
            load_world(b.s, worlds[sb, (sim0 + lane % k.lanes) % worlds.shape[1]])
            enter(params, me[sb], sb, lane, t, ix, w, b)
            w.status[lane] = simulate(params, me[sb], sb, lane, t, w, b, rng, k)
            for j in range(w.cur.shape[1]):
                if w.status[lane] == NEEDS_EVAL:
                    add_pending(t, w.cur[lane, j], 1)
                else:
                    backprop(t, w.cur[lane, j], b.scores)

    return descend
