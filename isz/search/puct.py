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
picked in the searcher's tree, as so_ismcts models opponents (see `isz.search.puct_descend`).

Code. `make_puct` builds, per game and `PUCTVariant` (the choices above, fixed
when the kernel is built), the compiled ``descend`` (`isz.search.puct_descend`)
and ``expand`` (below) of one wave; the numbers they read at run time travel as
one `PUCTKnobs`, the tree as one `isz.search.tree.TreeArrays`, the per-lane
buffers as one `LaneBuffers`, the scratch as one `isz.search.playout.Scratch`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from isz.games.kernel import Kernel
from isz.search.jit import entry, helper
from isz.search.playout import Scratch
from isz.search.puct_descend import (
    DONE,
    IDLE,
    NEEDS_EVAL,
    PLAYOUT,
    LaneBuffers,
    PUCTKnobs,
    make_descend,
)
from isz.search.puct_select import add_edge
from isz.search.tree import NONE, TreeArrays, add_pending, backprop, find_child
from isz.settings.search import BELOW_THRESHOLD, OPPONENTS, ROOT_SELECTION, TREE, VALUE_VIEW

__all__ = ["DONE", "IDLE", "NEEDS_EVAL", "PLAYOUT", "LaneBuffers", "PUCTKnobs", "PUCTVariant",
           "make_expand", "make_puct"]


@dataclass(frozen=True)
class PUCTVariant:
    """What the compiled PUCT kernels do, fixed when `make_puct` builds them (the
    module docstring says what each choice means). ``leaf_playout``: a leaf to
    evaluate is also played out at random, for a leaf mix (``leaf_mix > 0``)."""

    tree: str = "mo"
    rollouts: bool = False
    opponents: str = "puct"
    value_view: str = "searcher"
    root_selection: str = "puct"
    leaf_playout: bool = False
    below_threshold: str = "playout"

    def __post_init__(self):  # the choices are the settings' (isz.settings.search)
        for setting in (TREE, OPPONENTS, VALUE_VIEW, ROOT_SELECTION, BELOW_THRESHOLD):
            setting.validate(getattr(self, setting.name))


@functools.cache
def make_puct(kernel: Kernel, variant: PUCTVariant = PUCTVariant()):
    """Compiled ``(descend, expand)`` of one wave for one game and variant.

    ``descend(worlds, sim0, active, params, me, t, ix, w, b, rng, k)`` (see
    `isz.search.puct_descend.make_descend`) walks every lane down to a leaf;
    the caller evaluates the leaves with ``w.status == NEEDS_EVAL`` in one batch;
    ``expand(priors, values, my_values, me, t, w, b, k)`` (see `make_expand`)
    gives them children and backs their values up. Each is compiled for the
    choices it reads (``expand`` does not depend on the game).
    """
    own = variant.value_view == "own"  # descend treats own as searcher
    return (make_descend(kernel, replace(variant, value_view="searcher") if own else variant),
            make_expand(own, variant.leaf_playout))


@functools.cache
def make_expand(own_only: bool, leaf_playout: bool):
    """Compiled ``expand(priors, values, my_values, me, t, w, b, k)``: create the
    children of every evaluated leaf and back its values up.

    Rows are lanes (see `LaneBuffers`): priors: float32[L, A]; values:
    float32[L, P] in [-1, 1] from the actor's view; my_values: float32[L, P] from
    the searcher's view, whose searcher entry replaces the actor's estimate where
    ``w.leaf[l, 2] == 1`` (rows whose ``w.status`` is not NEEDS_EVAL are ignored);
    me: int64[B]. When several lanes of a wave stopped at the same leaf, the first
    one creates its children (or sets their priors: ``t.evaluated``, see
    `isz.search.puct_descend`); every lane backs up its own value and lifts its
    virtual loss. With ``own_only`` (value_view ``own``) only own-view entries are
    used: the actor's entry from the actor's view and the searcher's from its own;
    the other seats share the rest of a zero sum equally (clipped to [-1, 1]).
    With ``leaf_playout``, every score backed up is ``(1 - m)`` times the
    network's plus ``m = k.leaf_mix`` times the leaf's random playout (``w.roll``,
    from ``descend``): AlphaGo's mixed leaf evaluation.
    """

    @helper
    def set_priors(priors, lane, x, t, w):
        """The network's priors on the children of leaf ``x`` (made here, or made with
        uniform priors by a below-threshold search)."""
        actor = w.leaf[lane, 0]
        for a in range(w.masks.shape[1]):
            if w.masks[lane, a]:
                ch = find_child(t, x, w.labels[lane, a])
                if ch == NONE:
                    add_edge(t, x, w.labels[lane, a], actor, priors[lane, a])
                else:
                    t.prior[ch] = priors[lane, a]
        t.evaluated[x] = True

    @helper
    def leaf_scores(values, my_values, me, lane, w, scores, k):
        """Each player's score in [0, 1] of the leaf of ``lane`` into ``scores``."""
        actor, mine = w.leaf[lane, 0], w.leaf[lane, 2] == 1
        for i in range(scores.shape[0]):
            scores[i] = 0.5 * (values[lane, i] + 1.0)
        if mine:
            scores[me] = 0.5 * (my_values[lane, me] + 1.0)
        if own_only:
            own_sum = values[lane, actor]
            n_known = 1
            if mine:
                own_sum += my_values[lane, me]
                n_known = 2
            n_rest = scores.shape[0] - n_known
            if n_rest > 0:
                rest = min(1.0, max(-1.0, -own_sum / n_rest))
                for i in range(scores.shape[0]):
                    if i != actor and not (mine and i == me):
                        scores[i] = 0.5 * (rest + 1.0)
        if leaf_playout:
            m = k.leaf_mix
            for i in range(scores.shape[0]):
                scores[i] = (1.0 - m) * scores[i] + m * w.roll[lane, i]

    @entry
    def expand(priors, values, my_values, me, tree, lanes, scratch, knobs):
        t, w = TreeArrays(*tree), LaneBuffers(*lanes)
        b, k = Scratch(*scratch), PUCTKnobs(*knobs)
        for lane in range(w.cur.shape[0]):
            if w.status[lane] != NEEDS_EVAL:
                continue
            x = w.cur[lane, w.leaf[lane, 1]]
            if not t.evaluated[x]:
                set_priors(priors, lane, x, t, w)
            leaf_scores(values, my_values, me[lane // k.lanes], lane, w, b.scores, k)
            for j in range(w.cur.shape[1]):
                add_pending(t, w.cur[lane, j], -1)
                backprop(t, w.cur[lane, j], b.scores)

    return expand
