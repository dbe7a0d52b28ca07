"""Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012), compiled per game.

One tree over the searcher's information sets: every iteration takes a fresh
determinization, descends choosing only among children legal in *that* world,
expands one node, plays out randomly and backs up. The UCB term counts
availability ``A_i`` — how often child ``i`` was legal when its parent was
visited — instead of the parent's visits, exactly as seed 000:
``W_i / N_i + c * sqrt(ln A_i / N_i)``.

Edges are labelled by what the searcher observes (`Kernel.observe`). Where an
opponent's move is hidden (ReconGame), all the moves that look alike share one
edge and the move played in the world is drawn uniformly among them (the "+POM"
variant); in card games every move is public and this is plain SO-ISMCTS.

With ``label_mode = FULL`` on a single state, labels are the actions themselves
and the kernel is plain UCT (``use_parent_visits`` selects the ``ln N_parent``
term of classic UCT), which PIMC and the cheating baseline use.
"""

from __future__ import annotations

import functools
import math

import numba as nb

from isz.games.kernel import Kernel
from isz.rng import rand_below, rand_float
from isz.search.playout import make_playout
from isz.search.puct_select import select_puct
from isz.search.tree import AVAIL, CHILD, LABEL, NONE, SIB, VISITS, add_child, backprop, find_child
from isz.types import CHANCE, TERMINAL

OBSERVED = 0
"""Label edges by the searcher's observation (information-set tree)."""
FULL = 1
"""Label edges by the actions themselves (UCT on one known state)."""


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
def untried_labels(nodes, node, lab, n, untried):
    """Distinct labels among ``lab[:n]`` with no child yet; returns their count."""
    nu = 0
    for i in range(n):
        if find_child(nodes, node, lab[i]) != NONE:
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
def select_ucb(nodes, value, node, lab, n, c, use_parent_visits):
    """The compatible child maximising UCB; bumps availability of every compatible child."""
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
            cnt = parent_n if use_parent_visits else nodes[ch, AVAIL]
            v = value[ch] / nv + c * math.sqrt(math.log(cnt) / nv)
            if v > best_v:
                best_v = v
                best = ch
        ch = nodes[ch, SIB]
    return best


@nb.njit(cache=True)
def select_average(nodes, node, lab, n, rng):
    """A compatible child drawn in proportion to its visits (the average policy)."""
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


@nb.njit(cache=True)
def select(nodes, value, node, lab, n, c, use_parent_visits, smooth, rng):
    """UCB selection, or Smooth UCT when ``smooth = (eta, gamma, d)`` has eta > 0.

    Smooth UCT (Heinrich & Silver, IJCAI 2015) follows UCB with probability
    ``eta_k = max(gamma, eta / (1 + d * sqrt(N_parent)))`` and otherwise the
    node's average policy (children in proportion to their visits); in Kuhn
    and Leduc this approaches a Nash equilibrium where plain UCT does not.
    """
    best = select_ucb(nodes, value, node, lab, n, c, use_parent_visits)
    if smooth[0] <= 0.0:
        return best
    eta_k = max(smooth[1], smooth[0] / (1.0 + smooth[2] * math.sqrt(nodes[node, VISITS])))
    if rand_float(rng) < eta_k:
        return best
    return select_average(nodes, node, lab, n, rng)


@functools.cache
def make_so_ismcts(kernel: Kernel):
    """The compiled SO-ISMCTS iteration loop for one game (see `run` below)."""
    current_player = kernel.current_player
    legal_actions = kernel.legal_actions
    apply_action = kernel.apply_action
    observe = kernel.observe
    sample_chance, random_playout, terminal_scores = make_playout(kernel)

    @nb.njit(cache=True)
    def run(dets, params, me, label_mode, use_parent_visits, c, smooth, root_prior, c_prior,
            root_value, value_mix, start, stop, nodes, value, prior, pending, count, rng, s,
            la, lab, untried, ca, cp, ret, scores):
        """Iterations ``start..stop-1``, iteration ``i`` in world ``dets[i % len(dets)]``.

        With ``c_prior > 0`` the root's moves, once each is tried, are selected by
        PUCT on ``root_prior`` (float64[num_actions], a policy of the searcher's
        own view; a root child's prior is kept in the tree's ``prior``, and
        ``pending`` is all zeros: `isz.search.puct_select.select_puct`); every
        other node by UCB. With ``value_mix = lam > 0`` too, a root move's mean
        score there is ``(1 - lam)`` its rollouts' + ``lam * root_value[move]``
        (float64[num_actions], scores in [0, 1] of the searcher's view after each
        move, a value network's).

        Returns the next iteration to run: ``stop``, or earlier when the tree
        is full (the caller grows it and calls again). ``smooth``: float64[3]
        Smooth UCT parameters (eta <= 0: plain UCB). ``s``, ``la``, ``lab``,
        ``untried``, ``ca``, ``cp``, ``ret``, ``scores`` are scratch buffers.
        """
        ndet = dets.shape[0]
        cap = nodes.shape[0]
        for it in range(start, stop):
            if count[0] + 2 > cap:
                return it
            s[:] = dets[it % ndet]
            node = 0
            while True:
                p = current_player(s, params)
                if p == TERMINAL:
                    break
                if p == CHANCE:
                    a = sample_chance(s, params, rng, ca, cp)
                    label = a if label_mode == FULL else observe(s, params, a, me)
                    apply_action(s, params, a)
                    ch = find_child(nodes, node, label)
                    if ch == NONE:
                        node = add_child(nodes, value, count, node, label, -1)
                        break
                    node = ch
                    continue
                n = legal_actions(s, params, la)
                for i in range(n):
                    if label_mode == FULL or p == me:
                        lab[i] = la[i]
                    else:
                        lab[i] = observe(s, params, la[i], me)
                nu = untried_labels(nodes, node, lab, n, untried)
                if nu > 0:
                    label = untried[rand_below(rng, nu)]
                    a = pick_action(la, lab, n, label, rng)
                    if node == 0 and c_prior > 0.0:  # the child add_child makes
                        prior[count[0]] = root_prior[label]
                    node = add_child(nodes, value, count, node, label, p)
                    apply_action(s, params, a)
                    break
                if node == 0 and c_prior > 0.0:
                    node = select_puct(nodes, value, prior, count, pending, node, lab, n, p,
                                       c_prior, 0.5, root_value, value_mix)
                else:
                    node = select(nodes, value, node, lab, n, c, use_parent_visits, smooth, rng)
                apply_action(s, params, pick_action(la, lab, n, nodes[node, LABEL], rng))
            random_playout(s, params, rng, la, ca, cp)
            terminal_scores(s, params, ret, scores)
            backprop(nodes, value, node, scores)
        return stop

    return run


