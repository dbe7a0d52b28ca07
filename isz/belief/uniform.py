"""The game's own uniform sampler: reshuffle everything the player has not seen.

As seed 000 and TAG's ``_copy(playerId)``: start from one state built from the
view alone (`Game.state_from_view`) and redraw its hidden part uniformly with
`Kernel.redeterminize`. In trick-taking games this ignores what play revealed
(a player who did not follow suit holds none of that suit); the ``voids`` and
``gibbs`` beliefs do not.
"""

from __future__ import annotations

import functools

import numba as nb
import numpy as np

from isz.belief.base import Belief
from isz.games.base import Game, View
from isz.games.kernel import Kernel
from isz.rng import new_rng
from isz.types import seed_from


@functools.cache
def make_batch_redeterminize(kernel: Kernel):
    """Compiled ``fill(template, params, player, rng, out)``: one redraw per row of out."""
    redeterminize = kernel.redeterminize

    @nb.njit(cache=True)
    def fill(template, params, player, rng, out):
        for i in range(out.shape[0]):
            redeterminize(template, params, player, rng, out[i])

    return fill


class UniformBelief(Belief):
    """Uniform over the hidden part, given only the view (see module docstring)."""

    name = "uniform"

    def __init__(self, game: Game):
        super().__init__(game)
        self._fill = make_batch_redeterminize(game.kernel)
        self._template_key = None
        self._template = None

    def template(self, view: View) -> np.ndarray:
        """`Game.state_from_view` of ``view``, cached for the last view key."""
        if view.key != self._template_key:
            self._template = self.game.state_from_view(view).data
            self._template_key = view.key
        return self._template

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        out = np.empty((n, self.game.state_size), dtype=np.int64)
        self._fill(self.template(view), self.game.kparams, view.player,
                   new_rng(seed_from(rng)), out)
        return out
