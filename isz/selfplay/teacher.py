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

With ``teacher_value_mix = lam > 0`` (a run's generation checks found the network's
values pay, `isz.training.checks`) the planner teacher also mixes the network's values
of the views after its root moves (`root_values`) into its root, as the planner it
records does: the teacher is then the whole planner of the network so far, its priors,
its belief and its values.

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
from isz.search.evaluator import after_move_rows, move_scores
from isz.types import seed_from

TEACHERS = ("none", "so_ismcts", "planner")
TEACHER_C = 0.7  # UCB exploration of the teacher below its root, so_ismcts's default


def teacher_search(game, sample: Callable[[int], np.ndarray], view, iterations: int,
                   rng: np.random.Generator, prior: np.ndarray | None = None,
                   c_puct: float = 0.0, playout_weights=None,
                   root_value: np.ndarray | None = None,
                   value_mix: float = 0.0) -> tuple[np.ndarray, float]:
    """One teacher search at ``view`` on worlds ``sample(n) -> int64[n, state_size]``
    from the actor's belief; with ``prior`` (float[num_actions], the network's policy
    for the view) and ``c_puct > 0`` its root moves follow PUCT; with
    ``playout_weights`` (F numbers) its playouts are the ``policy`` leaf's; with
    ``root_value`` (float64[num_actions], the root moves' scores in [0, 1],
    `root_values`) and ``value_mix = lam > 0`` its root takes ``(1 - lam)`` the
    rollouts' mean + ``lam`` that score (the tree's means, and so q, stay the rollouts').

    Returns (pi, q): pi float32[num_actions], the root visits normalised (zero
    off the legal moves); q the acting seat's root value in [-1, 1].
    """
    tree = so_search(game, sample, view.player,
                     Budget(iterations=iterations), c=TEACHER_C, seed=seed_from(rng),
                     root_prior=prior, c_prior=c_puct if prior is not None else 0.0,
                     leaf="playout" if playout_weights is None else "policy",
                     playout_weights=playout_weights, root_value=root_value,
                     value_mix=value_mix)  # so_search ignores the mix without root_value
    stats = tree.stats(0)  # every iteration visits one root move: the visits sum to it
    pi = final_policy(stats, "visit_distribution", game.num_actions)
    score = sum(n * mean for n, mean in stats.values()) / sum(n for n, _ in stats.values())
    return pi.astype(np.float32), float(2.0 * score - 1.0)


def root_values(game, evaluator, views, worlds: Callable[[int], np.ndarray]) -> list:
    """The network's values of a batch of B roots' moves, in one evaluator call: for
    each root b, the seat's view after each legal move in ``worlds(b)`` (one world,
    int64[state_size], of its belief; `after_move_rows`) valued and mapped to the
    moves' scores (`move_scores`, float64[num_actions]); None where a root has nothing
    to value (a single move, or one that ends the game or meets chance)."""
    rows = [after_move_rows(game, worlds(b), v.player, v.legal_actions)
            if len(v.legal_actions) > 1 else None for b, v in enumerate(views)]
    have = [r for r in rows if r is not None]
    if not have:
        return rows
    tensors = np.concatenate(have)
    _, values = evaluator.evaluate(tensors, np.ones((len(tensors), game.num_actions),
                                                    np.bool_))
    out, at = [], 0
    for view, r in zip(views, rows, strict=True):
        out.append(None if r is None else move_scores(
            values[at:at + len(r)], view.player, view.legal_actions, game.num_actions))
        at += 0 if r is None else len(r)
    return out


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
