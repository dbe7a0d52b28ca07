"""Belief diagnostics for whoever knows the truth (a trainer, the arena's hook).

`true_state_probability` compares a belief with the TRUE state, so it must
never run inside an agent: the arena calls it through
``match(..., on_decision=...)``, which hands the hook the true state, e.g.

    probs = []
    hook = lambda state, seat, view, agent: probs.append(
        true_state_probability(agent.belief, view, state))

"Hidden part" per game (`hidden_part`): the opponent's private card in poker,
the adversary's current slot for the recon (its sensor readings for the
adversary), the other seats' current hands in trick-taking games, and the
whole state array elsewhere (a sample must be the very
same world); ``()`` when nothing is hidden yet.
"""

from __future__ import annotations

import numpy as np

from isz.belief.base import Belief
from isz.games.base import State, View
from isz.types import IszError, check_int


def effective_sample_size(weights) -> float:
    """``(sum w)^2 / sum w^2`` of non-negative weights (float[N]); 0 when all are 0."""
    w = np.asarray(weights, dtype=np.float64).ravel()
    if w.size == 0 or not np.all(np.isfinite(w)) or np.any(w < 0):
        raise IszError(f"weights must be a non-empty array of finite numbers >= 0, got {w!r}")
    sq = float(np.sum(w * w))
    return 0.0 if sq == 0.0 else float(np.sum(w)) ** 2 / sq


def entropy(probs) -> float:
    """Shannon entropy in nats of a distribution (float[K] or {outcome: p}), normalised."""
    p = np.asarray(list(probs.values()) if isinstance(probs, dict) else probs,
                   dtype=np.float64).ravel()
    if p.size == 0 or not np.all(np.isfinite(p)) or np.any(p < 0) or p.sum() <= 0:
        raise IszError(f"probs must be finite numbers >= 0 with a positive sum, got {p!r}")
    p = p[p > 0] / p.sum()
    return float(-np.sum(p * np.log(p)))


def hidden_part(game, state: np.ndarray, player: int) -> tuple:
    """What ``player`` cannot see of kernel state ``state`` (see module docstring)."""
    if game.name in ("kuhn_poker", "leduc_poker"):
        return (int(state[1 - player]),) if state[1 - player] >= 0 else ()
    if game.name == "recon":
        if player == 0:
            return (int(state[1]),) if state[1] >= 0 else ()
        turns = game.params["turns"]
        return tuple(state[6 + turns:6 + 2 * turns].tolist())
    if game.name == "tricks":  # the other seats' current hands (bitmasks)
        return tuple(int(state[15 + p]) for p in range(game.num_players) if p != player)
    return tuple(state.tolist())


def sampled_diagnostics(belief: Belief, view: View, true_state: State, samples: int,
                        rng: np.random.Generator) -> tuple[float, float]:
    """(probability of the true hidden part, entropy in nats of the hidden part) estimated
    from ``samples`` worlds of ``belief``; for trainers, which know the truth."""
    game = belief.game
    truth = hidden_part(game, true_state.data, view.player)
    counts: dict[tuple, int] = {}
    for w in belief.sample_many(view, samples, rng):
        h = hidden_part(game, w, view.player)
        counts[h] = counts.get(h, 0) + 1
    return counts.get(truth, 0) / samples, entropy(np.array(list(counts.values()), float))


def true_state_probability(belief: Belief, view: View, true_state: State, *,
                           samples: int = 1000, rng: np.random.Generator | None = None) -> float:
    """The probability ``belief`` gives to the true hidden part at ``view``.

    Exact for beliefs with an explicit distribution (``posterior``; ``marginal``
    for the recon player); otherwise the fraction of ``samples`` worlds whose
    hidden part equals the true one (``rng`` default: seed 0).
    """
    game = belief.game
    if true_state.view(view.player).key != view.key:
        raise IszError("true_state does not match the view: wrong state or wrong player")
    truth = hidden_part(game, true_state.data, view.player)
    if truth == ():  # not dealt / not placed yet: nothing is hidden
        return 1.0
    if hasattr(belief, "posterior"):
        return float(belief.posterior(view).get(truth, 0.0))
    if hasattr(belief, "marginal") and game.name == "recon" and view.player == 0:
        return float(belief.marginal(view)[truth[0]])
    samples = check_int("samples", samples, lo=1)
    worlds = belief.sample_many(view, samples, rng or np.random.default_rng(0))
    hits = sum(hidden_part(game, w, view.player) == truth for w in worlds)
    return hits / samples
