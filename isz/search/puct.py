"""PUCT-ISMCTS, compiled per game and batched over many searches in lockstep.

Each simulation of each search samples a world, walks down by PUCT, and stops
at a leaf: the acting player's unexpanded node. The leaf is evaluated from the
acting player's *own* view in that world (`Kernel.info_tensor`) — never from
the hidden state — and all leaves of a step go to the evaluator in one batch.

Trees. ``mo`` (default): one tree per player, as MO-ISMCTS, each opponent's
tree first branching on that opponent's information state in the sampled
world (the root split of `isz.search.mo_ismcts`); a node of tree ``p`` where
``p`` acts is then ``p``'s information set, so its children (``p``'s legal
moves) are the same in every world and the priors of the network on ``p``'s
view are well defined. ``so``: one tree of the searcher; opponent
moves are labelled by what the searcher observes; an opponent node takes its
priors from the opponent's view in the world that first reached it, and moves
that become legal only in later worlds join with prior ``1/n``.

Opponents: ``opponents = "puct"`` (default) selects for them as for the
searcher; ``"prior"`` draws their moves from the network's policy on their own
view, so the searcher answers the current policy instead of an opponent that
optimises inside the tree with the searcher's true cards fixed in every world
(which makes bluffs look worthless); trained on a replay buffer, the planner
then averages best responses, as fictitious play does. ``"evaluate"``: every
move below the searcher's root, its own included, is drawn from the
network's policy, so a root move's mean value estimates the on-policy action
value ``Q^pi(I, a)`` that the ``mirror`` policy target steps along.

Root selection: ``root_selection = "puct"`` (default) selects the searcher's
root moves by PUCT like every other node; ``"uniform"`` gives them visits in
turn (the least visited compatible move, first in order on ties), so how often
a root move is visited never depends on the values seen. A move PUCT abandons
after an unlucky first sample keeps that sample as its mean: PUCT's root means
are biased against rarely tried moves, and a mirror step along them pushes
such moves toward zero; with equal visits each root mean is an unbiased
Monte Carlo estimate of its action value (under ``opponents = "evaluate"``).

Selection: ``Q + c_puct * P * sqrt(A) / (1 + N)``, where ``A`` counts the
visits of the parent in which the move was legal (availability, the ISMCTS
analogue of the parent visit count; in ``mo`` trees it equals the parent's
visits after expansion, i.e. AlphaZero's PUCT). ``Q`` is the mean score in
[0, 1] of the acting player, ``fpu`` for unvisited moves. Leaf values: the
evaluator's value for every player, ``(v + 1) / 2``; terminals use the true
returns; with ``rollouts`` a random playout replaces the evaluator (uniform
priors), giving a knowledge-free PUCT-ISMCTS.

Whose view values a leaf. Priors at a leaf must come from the actor's view,
but when the actor is an opponent, its value estimate for the searcher
averages over the searcher's possible cards: a strong hand looks average and
a bluff looks like a strong hand. With ``value_view = "searcher"`` (default)
the searcher's entry is taken from the searcher's own view in the same world
(one more row in the batch), so the searcher's Q values condition on what it
knows; the other players keep the actor's estimate. ``value_view = "own"``
(zero-sum games, for a value head trained on own entries only, see
``trainer.value_other_weight``): as ``searcher``, and every other seat gets an
equal share of minus the sum of those two own-view values. ``leaf_mix = m``:
a leaf's value is ``(1 - m)`` times the network's plus ``m`` times one random
playout from the leaf's world (AlphaGo's lambda).

Expansion threshold (``expand_after = n``, AlphaGo's n_thr): a leaf other than
the searcher's root is expanded only when a simulation reaches it for the n-th
time (visits plus simulations in flight through it); before, the simulation
stops there and backs up a random playout from its world, with no evaluator
row. Most leaves of a search are reached once, so most network calls go; n = 1
(default) expands every leaf on its first visit, as before. In ``mo`` trees an
opponent's node is nearly always fresh (its information set differs in nearly
every world), so this stops at the first opponent move: a one-level search.
``below_threshold = "search"`` goes on instead: the searcher's nodes below the
threshold are searched with uniform priors (the knowledge-free PUCT) until the
n-th visit brings the network's, and an opponent's fresh node has its move
picked in the searcher's tree, as so_ismcts models opponents (see `descend`).
"""

from __future__ import annotations

import functools

import numba as nb
import numpy as np

from isz.games.kernel import Kernel
from isz.search.playout import make_info_label, make_playout
from isz.search.puct_select import add_edge, least_visited, sample_prior, select_puct
from isz.search.so_ismcts import pick_action
from isz.search.tree import (
    CHILD,
    LABEL,
    NONE,
    VISITS,
    add_pending,
    backprop,
    find_child,
    find_or_add,
    indexed_find_or_add,
)
from isz.types import CHANCE, TERMINAL

NEEDS_EVAL = 1
IDLE = 2  # a lane that runs no simulation in this wave
PLAYOUT = 3  # a lane that stopped at a leaf below the expansion threshold (played out)
FRESH_C = 1.5  # c_puct of fresh_move's uniform-prior PUCT (the rollout puct_ismcts default)


@functools.cache
def make_puct(kernel: Kernel):
    """Compiled ``descend`` and ``expand`` for one game (see their docstrings)."""
    current_player = kernel.current_player
    legal_actions = kernel.legal_actions
    apply_action = kernel.apply_action
    observe = kernel.observe
    info_tensor = kernel.info_tensor
    sample_chance, random_playout, terminal_scores = make_playout(kernel)
    info_label = make_info_label(kernel)

    @nb.njit(cache=True)
    def label_of(s, params, a, actor, owner):
        return a if actor == owner else observe(s, params, a, owner)

    @nb.njit(cache=True)
    def fresh_move(s, params, p, me, y, n, la, lab, nodes, value, prior, count, pending, fpu,
                   rng):
        """(action, child of ``y``) of opponent ``p`` at a node of its own tree below the
        expansion threshold: the searcher's tree picks it, at its node ``y``, by
        PUCT with uniform priors over ``p``'s moves as the searcher sees them: the
        opponent model of so_ismcts (``y`` is shared by every world that looks the
        same to the searcher, so ``p``'s replies are learnt there)."""
        for i in range(n):
            lab[i] = label_of(s, params, la[i], p, me)
        ch = select_puct(nodes, value, prior, count, pending, y, lab, n, p, FRESH_C, fpu,
                         prior, 0.0)
        return pick_action(la, lab, n, nodes[ch, LABEL], rng), ch

    @nb.njit(cache=True)
    def descend(worlds, sim0, lanes, active, params, me, mo, c_puct, fpu, rollouts,
                prior_moves, own_values, uniform_root, leaf_rollout, expand_after, search,
                evaluated, nodes, value,
                prior, count, pending, rng, cur, leaf, status, tensors, masks, labels,
                my_tensors, s, la, lab, ca, cp, ret, scores, tbuf, roll, hkeys, hnodes, meta):
        """One wave: ``active`` simulations of every search down to a leaf or a terminal.

        Lane ``l`` (of ``L = B * lanes``) runs a simulation of search
        ``b = l // lanes`` in world ``worlds[b, (sim0 + l % lanes) % W]``
        (worlds: int64[B, W, state_size]); lanes with ``l % lanes >= active``
        idle (``status[l] == IDLE``). Lanes descend one after another, each
        leaving a virtual loss on its path until `expand` backs its value up.
        me: int64[B] searching seat; mo: 1 for one tree per player, 0 for one.
        uniform_root: the searcher's root moves visited in turn (`least_visited`).
        cur: int64[L, T] tree cursors (tree ``t`` of search ``b`` has root
        ``b * T + t``). On return ``status[l] == NEEDS_EVAL`` when the actor
        ``leaf[l, 0]`` must be evaluated at node ``cur[l, leaf[l, 1]]``: its
        tensor is in ``tensors[l]``, its legal mask in ``masks[l]`` and the
        edge label of each legal action in ``labels[l]``; otherwise the
        simulation ended at a terminal (or a rollout) and is backed up. With
        ``own_values`` and an opponent leaf, ``leaf[l, 2] == 1`` and the
        searcher's own view in that world is in ``my_tensors[l]`` (its value
        for the searcher conditions on the searcher's true cards). With
        ``leaf_rollout`` a leaf to evaluate is also played out at random from its
        world, its scores in ``roll[l]`` (float64[L, P], in [0, 1]) for `expand`.
        expand_after = n >= 1: a leaf other than the searcher's root reached for
        the k-th time (its visits plus simulations in flight through it, plus
        this one) with k < n is not evaluated nor given children: a random
        playout from the simulation's world is backed up through it and
        ``status[l] == PLAYOUT`` (the expansion threshold of AlphaGo); n = 1
        evaluates every leaf. ``search`` (below_threshold ``search``; not with
        ``rollouts``): a node below the threshold is not a stop. A node of the
        searcher (or any node of an ``so`` tree) is searched as by the
        knowledge-free PUCT: children with uniform priors on its first visit, a
        random playout, then PUCT, until its n-th visit evaluates it and the
        network's priors replace the uniform ones (``evaluated``: bool[nodes],
        set by `expand`). An opponent's node in its own ``mo`` tree leaves that
        tree for the rest of the simulation (``off``: it stays at the node) and
        its move is picked in the searcher's tree (`fresh_move`); an opponent's
        information set is nearly unique per world, so without ``search``
        almost every simulation stops at the first opponent move.
        hkeys, hnodes, meta: with ``mo``, the `isz.search.tree.ChildIndex` of the
        tree roots (row ``b * T + t``): an opponent's root split has a child for
        nearly every world, too many to scan at every simulation.
        """
        n_trees = cur.shape[1]
        n_worlds = worlds.shape[1]
        off = np.zeros(n_trees, dtype=np.bool_)  # search: trees left for this simulation
        search = search and not rollouts
        for lane in range(cur.shape[0]):
            b = lane // lanes
            if lane % lanes >= active:
                status[lane] = IDLE
                continue
            s[:] = worlds[b, (sim0 + lane % lanes) % n_worlds]
            for t in range(n_trees):
                cur[lane, t] = b * n_trees + t
                if mo and t != me[b]:  # root split: opponents by their own information
                    cur[lane, t] = indexed_find_or_add(
                        nodes, value, count, cur[lane, t], info_label(s, params, t, tbuf),
                        -1, hkeys, hnodes, meta, b * n_trees + t)
            status[lane] = 0
            off[:] = False
            while True:
                p = current_player(s, params)
                if p == TERMINAL:
                    terminal_scores(s, params, ret, scores)
                    break
                if p == CHANCE:
                    a = sample_chance(s, params, rng, ca, cp)
                    for t in range(n_trees):
                        if off[t]:
                            continue
                        owner = t if mo else me[b]
                        cur[lane, t] = find_or_add(nodes, value, count, cur[lane, t],
                                                observe(s, params, a, owner), -1)
                    apply_action(s, params, a)
                    continue
                at = p if mo else 0
                owner = p if mo else me[b]
                x = cur[lane, at]
                at_root = p == me[b] and x == b * n_trees + (me[b] if mo else 0)
                below = not at_root and nodes[x, VISITS] + pending[x] + 1 < expand_after
                if not search and below and nodes[x, CHILD] == NONE:
                    random_playout(s, params, rng, la, ca, cp)  # below the threshold
                    terminal_scores(s, params, ret, scores)
                    status[lane] = PLAYOUT
                    break
                if search and below and mo and p != me[b] and not evaluated[x]:
                    off[at] = True  # a fresh opponent node: the searcher's tree picks
                n = legal_actions(s, params, la)
                if off[at]:
                    a, mine = fresh_move(s, params, p, me[b], cur[lane, me[b]], n, la, lab,
                                         nodes, value, prior, count, pending, fpu, rng)
                    for t in range(n_trees):
                        if t == me[b]:
                            cur[lane, t] = mine
                        elif not off[t]:
                            cur[lane, t] = find_or_add(nodes, value, count, cur[lane, t],
                                                       label_of(s, params, a, p, t), p)
                    apply_action(s, params, a)
                    continue
                for i in range(n):
                    lab[i] = label_of(s, params, la[i], p, owner)
                leaf_here = nodes[x, CHILD] == NONE
                if search:  # the network's priors replace the uniform ones on the n-th visit
                    leaf_here = not evaluated[x] and (leaf_here or not below)
                if leaf_here:
                    if rollouts or search and below:  # uniform priors, a random playout
                        for i in range(n):
                            if find_child(nodes, x, lab[i]) == NONE:
                                add_edge(nodes, value, prior, count, x, lab[i], p, 1.0 / n)
                        random_playout(s, params, rng, la, ca, cp)
                        terminal_scores(s, params, ret, scores)
                        if below:
                            status[lane] = PLAYOUT
                        break
                    info_tensor(s, params, p, tensors[lane])
                    masks[lane, :] = False
                    for i in range(n):
                        masks[lane, la[i]] = True
                        labels[lane, la[i]] = lab[i]
                    leaf[lane, 0] = p
                    leaf[lane, 1] = at
                    leaf[lane, 2] = 0
                    if own_values and p != me[b]:
                        info_tensor(s, params, me[b], my_tensors[lane])
                        leaf[lane, 2] = 1
                    if leaf_rollout:  # the tensors and masks are taken: s may move on
                        random_playout(s, params, rng, la, ca, cp)
                        terminal_scores(s, params, ret, scores)
                        for i in range(scores.shape[0]):
                            roll[lane, i] = scores[i]
                    status[lane] = NEEDS_EVAL
                    break
                ch = select_puct(nodes, value, prior, count, pending, x, lab, n, p, c_puct,
                                 fpu, prior, 0.0)
                # prior_moves 1: opponents play the prior; 2: so does the searcher
                # below its root (the root's values are then on-policy Q)
                if prior_moves == 1 and p != me[b] or prior_moves == 2 and not at_root:
                    ch = sample_prior(nodes, prior, x, lab, n, rng)
                elif uniform_root and at_root:
                    ch = least_visited(nodes, pending, x, lab, n)
                a = pick_action(la, lab, n, nodes[ch, LABEL], rng)
                for t in range(n_trees):
                    if t == at:
                        cur[lane, t] = ch
                    elif not off[t]:
                        cur[lane, t] = find_or_add(nodes, value, count, cur[lane, t],
                                                label_of(s, params, a, p, t), p)
                apply_action(s, params, a)
            for t in range(n_trees):
                if status[lane] == NEEDS_EVAL:
                    add_pending(nodes, pending, cur[lane, t], 1)
                else:
                    backprop(nodes, value, cur[lane, t], scores)

    @nb.njit(cache=True)
    def expand(priors, values, my_values, me, lanes, own_only, leaf_mix, roll, evaluated,
               nodes, value, prior, count, pending, cur, leaf, status, masks, labels, scores):
        """Create the children of every evaluated leaf and back its values up.

        Rows are lanes (see `descend`): priors: float32[L, A]; values:
        float32[L, num_players] in [-1, 1] from the actor's view; my_values:
        float32[L, num_players] from the searcher's view, whose searcher entry
        replaces the actor's estimate where ``leaf[l, 2] == 1`` (rows whose
        ``status`` is not NEEDS_EVAL are ignored). When several lanes of a
        wave stopped at the same leaf, the first one creates its children (or
        sets their priors: ``evaluated``, see `descend`);
        every lane backs up its own value and lifts its virtual loss. With
        ``own_only`` (value_view ``own``) only own-view entries are used: the
        actor's entry from the actor's view and the searcher's from its own;
        the other seats share the rest of a zero sum equally (clipped to
        [-1, 1]). With ``leaf_mix = m > 0`` every score backed up is ``(1 - m)``
        times the network's plus ``m`` times the leaf's random playout
        (``roll``, from `descend`): AlphaGo's mixed leaf evaluation.
        """
        n_trees = cur.shape[1]
        for lane in range(cur.shape[0]):
            if status[lane] != NEEDS_EVAL:
                continue
            b = lane // lanes
            actor = leaf[lane, 0]
            x = cur[lane, leaf[lane, 1]]
            if not evaluated[x]:  # children with uniform priors (below_threshold search)
                for a in range(masks.shape[1]):  # take the network's
                    if masks[lane, a]:
                        ch = find_child(nodes, x, labels[lane, a])
                        if ch == NONE:
                            add_edge(nodes, value, prior, count, x, labels[lane, a], actor,
                                     priors[lane, a])
                        else:
                            prior[ch] = priors[lane, a]
                evaluated[x] = True
            for i in range(scores.shape[0]):
                scores[i] = 0.5 * (values[lane, i] + 1.0)
            if leaf[lane, 2] == 1:
                scores[me[b]] = 0.5 * (my_values[lane, me[b]] + 1.0)
            if own_only:
                own_sum = values[lane, actor]
                n_known = 1
                if leaf[lane, 2] == 1:
                    own_sum += my_values[lane, me[b]]
                    n_known = 2
                n_rest = scores.shape[0] - n_known
                if n_rest > 0:
                    rest = min(1.0, max(-1.0, -own_sum / n_rest))
                    for i in range(scores.shape[0]):
                        if i != actor and not (leaf[lane, 2] == 1 and i == me[b]):
                            scores[i] = 0.5 * (rest + 1.0)
            if leaf_mix > 0.0:
                for i in range(scores.shape[0]):
                    scores[i] = (1.0 - leaf_mix) * scores[i] + leaf_mix * roll[lane, i]
            for t in range(n_trees):
                add_pending(nodes, pending, cur[lane, t], -1)
                backprop(nodes, value, cur[lane, t], scores)

    return descend, expand
