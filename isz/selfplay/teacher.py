"""Self-play moves searched by a rollout teacher instead of the network's PUCT.

With ``teacher = "so_ismcts"`` every decision of a self-play game is searched by
the compiled single-observer ISMCTS (`isz.search.driver.so_search`: random
playouts, no network) with ``teacher_iterations`` iterations on worlds from the
actor's own belief. The position's policy target is the teacher's root visit
distribution and its root value q the visit-weighted mean of the root moves'
scores, mapped from the teacher's [0, 1] scores to the actor's return in
[-1, 1] (``q = 2 s - 1``). The network then distils a search that is tens of
times faster per simulation than its own PUCT with playouts, so the same
minutes give priors from a much deeper search (expert iteration with a fixed
expert: the teacher never reads the network).
"""

from __future__ import annotations

import numpy as np

from isz.search.driver import Budget, final_policy, so_search
from isz.types import seed_from

TEACHERS = ("none", "so_ismcts")
TEACHER_C = 0.7  # UCB exploration of the teacher, so_ismcts's default


def teacher_search(game, belief, view, iterations: int,
                   rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """One teacher search at ``view``.

    Returns (pi, q): pi float32[num_actions], the root visits normalised (zero
    off the legal moves); q the acting seat's root value in [-1, 1].
    """
    tree = so_search(game, lambda n: belief.sample_many(view, n, rng), view.player,
                     Budget(iterations=iterations), c=TEACHER_C, seed=seed_from(rng))
    stats = tree.stats(0)  # every iteration visits one root move: the visits sum to it
    pi = final_policy(stats, "visit_distribution", game.num_actions)
    score = sum(n * mean for n, mean in stats.values()) / sum(n for n, _ in stats.values())
    return pi.astype(np.float32), float(2.0 * score - 1.0)
