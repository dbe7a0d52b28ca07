"""Self-play moves searched by a teacher instead of the network's PUCT.

``teacher = "so_ismcts"``: every decision of a self-play game is searched by the
compiled single-observer ISMCTS (`isz.search.driver.so_search`: random playouts,
no network) with ``teacher_iterations`` iterations on worlds from the actor's
own belief: expert iteration with a fixed expert (the teacher never reads the
network), a way to start.

``teacher = "planner"``: the same search with its root moves selected by PUCT
on the current network's priors for the actor's view (`guided_so_ismcts`, the
planner the run records), on worlds from the actor's belief weighed by the
network's policy where the belief takes one (``sir``, ``posterior``,
``particle``): the teacher of each iteration is the planner of the network
trained so far, so the targets improve as the network does (expert iteration
with an improving expert). Self-play adds Dirichlet noise to the root priors
(``search.dirichlet_alpha``/``dirichlet_eps``), as AlphaZero does.

A run with ``selfplay.playout_fit_games`` hands the teacher the playout fitted to the
planner at the last generation (``playout_weights``, `isz.training.playout_fit`): the
search below the teacher's tree improves with the planner too.

Either way the position's policy target is the teacher's root visit
distribution and its root value q the visit-weighted mean of the root moves'
scores, mapped from the search's [0, 1] scores to the actor's return in
[-1, 1] (``q = 2 s - 1``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from isz.search.driver import Budget, final_policy, so_search
from isz.types import seed_from

TEACHERS = ("none", "so_ismcts", "planner")
TEACHER_C = 0.7  # UCB exploration of the teacher below its root, so_ismcts's default


def teacher_search(game, sample: Callable[[int], np.ndarray], view, iterations: int,
                   rng: np.random.Generator, prior: np.ndarray | None = None,
                   c_puct: float = 0.0, playout_weights=None) -> tuple[np.ndarray, float]:
    """One teacher search at ``view`` on worlds ``sample(n) -> int64[n, state_size]``
    from the actor's belief; with ``prior`` (float[num_actions], the network's policy
    for the view) and ``c_puct > 0`` its root moves follow PUCT; with
    ``playout_weights`` (F numbers) its playouts are the ``policy`` leaf's.

    Returns (pi, q): pi float32[num_actions], the root visits normalised (zero
    off the legal moves); q the acting seat's root value in [-1, 1].
    """
    tree = so_search(game, sample, view.player,
                     Budget(iterations=iterations), c=TEACHER_C, seed=seed_from(rng),
                     root_prior=prior, c_prior=c_puct if prior is not None else 0.0,
                     leaf="playout" if playout_weights is None else "policy",
                     playout_weights=playout_weights)
    stats = tree.stats(0)  # every iteration visits one root move: the visits sum to it
    pi = final_policy(stats, "visit_distribution", game.num_actions)
    score = sum(n * mean for n, mean in stats.values()) / sum(n for n, _ in stats.values())
    return pi.astype(np.float32), float(2.0 * score - 1.0)


def noisy_priors(evaluator, tensors: np.ndarray, masks: np.ndarray, alpha: float,
                 eps: float, rng: np.random.Generator) -> np.ndarray:
    """The evaluator's priors for a batch of roots (one call), each mixed with
    Dirichlet(alpha) noise over its legal moves: ``(1 - eps) P + eps noise``.
    float64[B, num_actions], zero off the legal moves."""
    priors, _ = evaluator.evaluate(tensors, masks)
    priors = np.asarray(priors, dtype=np.float64)
    if eps > 0:
        for b in range(len(priors)):
            legal = np.flatnonzero(masks[b])
            noise = rng.dirichlet([alpha] * len(legal))
            priors[b, legal] = (1 - eps) * priors[b, legal] + eps * noise
    return priors
