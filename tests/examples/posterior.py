"""The check two token-history example games (Crazy Eights, Lost Cities) share: on a
game small enough to enumerate, the game's uniform resampler draws each history the
view allows as often as the exact posterior of histories weighed alike says."""

from __future__ import annotations

import numpy as np

from isz.belief import PosteriorBelief, UniformBelief
from isz.games.base import Game
from tests.conftest import random_history


def assert_resampler_is_uniform_posterior(game: Game, lo: int, hi: int, rich: int) -> None:
    """For 12 views (a random history of ``lo`` to ``hi - 1`` steps, a random seat;
    generator seed 0), 2,000 worlds' hidden tokens against the posterior with a policy
    that says nothing (the chance odds alone): every world is one the view allows and a
    chi-square within 5 SD of its degrees of freedom. At least 3 of the views must have
    more than ``rich`` consistent histories (a test of something)."""
    post = PosteriorBelief(game, policy=lambda view: np.ones(game.num_actions))
    rng, checked = np.random.default_rng(0), 0
    for seed in range(12):
        state = random_history(game, rng, int(rng.integers(lo, hi)))
        view = state.view(int(rng.integers(game.num_players)))
        hidden = [i for i, x in enumerate(view.data) if x < 0]
        exact: dict[tuple, float] = {}
        for row, q in zip(*post.worlds(view), strict=True):
            key = tuple(post.table.states[row][hidden].tolist())
            exact[key] = exact.get(key, 0.0) + q
        n, counts = 2000, {}
        for w in UniformBelief(game).sample_many(view, n, np.random.default_rng(seed)):
            key = tuple(w[hidden].tolist())
            assert key in exact  # a history the view allows
            counts[key] = counts.get(key, 0) + 1
        chi = sum((counts.get(k, 0) - n * q) ** 2 / (n * q) for k, q in exact.items())
        dof = max(len(exact) - 1, 1)
        assert chi < dof + 5 * np.sqrt(2 * dof), (chi, dof)
        checked += len(exact) > rich
    assert checked >= 3, f"only {checked} views had more than {rich} histories"
