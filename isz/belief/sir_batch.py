"""Many ``sir`` pools weighed with one policy call.

Lockstep self-play searches one decision in each of its games per round. Each
game's ``sir`` belief would weigh its pool with its own policy call, and at a few
dozen rows a call the network's per-call overhead costs more than its rows. Here
the pools of all the round's decisions are weighed by one call: each belief draws
its candidates and finds its templates as in `SIRBelief.sample_many`, the rows of
all of them go to the policy together, and each belief gets its own slice back.
The law is each belief's own; only the draws are made in a different order.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from isz.belief.sir import SIRBelief, call_policy, groups_of, log_weights_from
from isz.games.base import View


def weigh_pools(pairs: Iterable[tuple[object, View]], rng: np.random.Generator) -> int:
    """Ready the pool of each ``(belief, view)`` whose belief is a `SIRBelief` with a
    policy, has something to weigh in ``view`` and has no pool for it yet; other pairs
    are left alone. Candidates are drawn from ``rng`` in pair order, then one policy
    call per distinct policy weighs them all. Returns the number of pools made."""
    todo: dict[int, list] = {}
    for b, view in pairs:
        if not isinstance(b, SIRBelief) or b.policy is None or b.has_pool(view) \
                or not b.weighs(view):
            continue
        worlds, counts = b.draw_candidates(view, rng)
        todo.setdefault(id(b.policy), []).append(
            (b, view, worlds, counts, b.decision_templates(view, worlds[0])))
    for items in todo.values():
        _weigh(items)
    return sum(len(items) for items in todo.values())


def _weigh(items: list) -> None:
    """One policy call for the pools of ``items`` ``(belief, view, worlds, counts,
    decisions)``, all with the same policy: their decision rows stacked, each
    belief's templates offset in the stacked ``base``."""
    policy = items[0][0].policy
    parts = [b.decision_parts(w, d) for b, _, w, _, d in items]
    offsets = np.cumsum([0] + [len(d) for *_, d in items])
    base = np.concatenate([p[0] for p in parts])
    cols = parts[0][1]
    vals = np.concatenate([p[2] for p in parts])
    masks = np.concatenate([p[3] for p in parts])
    groups = np.concatenate([groups_of(d, w) + off
                             for (_, _, w, _, d), off in zip(items, offsets[:-1], strict=True)])
    probs = np.asarray(call_policy(policy, base, groups, cols, vals, masks), dtype=np.float64)
    start = 0
    for b, view, worlds, counts, decisions in items:
        stop = start + len(worlds) * len(decisions)
        logw = log_weights_from(probs[start:stop], masks[start:stop], len(worlds), decisions)
        b.set_pool(view, worlds, b.resampling_law(counts, logw))
        start = stop
