"""``voids``: exact uniform sampling over the deals consistent with a tricks view.

The game's uniform sampler reshuffles every unseen card, so a seat that showed
out of a suit can be dealt that suit again: an illegal history. ``voids``
draws uniformly from the deals that respect every public constraint (row
sizes and revealed voids, `isz.belief.tricks_constraints`) by weighting each
suit-length assignment by the deals it stands for (`isz.belief.suit_tables`).
Uniform over consistent deals is the posterior of an opponent model whose
play does not depend on its cards beyond the rules; ``gibbs`` weights deals
by a policy's reach instead.

Knob ``max_tables`` (default 400,000): past this many feasible suit-length
assignments the exact DP sampler replaces the enumeration (same law). Knob
``shuffle`` (default True): where no revealed void binds (every Oh Hell bid,
and card play until a seat shows out), every split of the unseen cards is
consistent and a world is one shuffle, with no tables to build (a new Oh Hell
view's first world: 0.23 ms on average, where the tables take 3.3 ms and up to
43; `scripts/bench.py --only belief`); False builds the tables anyway (same
law, for comparison).
Caches (functions of the view only): the last few constraint sets' tables.
"""

from __future__ import annotations

import math

import numpy as np

from isz.belief.base import Belief
from isz.belief.suit_tables import TableSampler
from isz.belief.tricks_constraints import (
    Constraints,
    check_tricks,
    constraints,
    construct_table,
    deal_table,
    write_worlds,
)
from isz.games.base import Game, State, View
from isz.rng import new_rng
from isz.types import IszError, check_int, seed_from

_KEEP = 16  # constraint sets cached: a game's views change one card at a time


class VoidsBelief(Belief):
    """Exact uniform over consistent deals (tricks, oh_hell); see module docstring."""

    name = "voids"
    KNOBS = {"max_tables": 400_000, "shuffle": True}

    def __init__(self, game: Game, max_tables: int = 400_000, shuffle: bool = True):
        check_tricks(f"belief {self.name!r}", game)
        super().__init__(game)
        self.max_tables = check_int("max_tables", max_tables, lo=0)
        if not isinstance(shuffle, bool):
            raise IszError(f"shuffle must be true or false, got {shuffle!r}")
        self.shuffle = shuffle
        self.reset()

    def reset(self) -> None:
        self._views: dict = {}
        self._samplers: dict = {}

    # -- per view --------------------------------------------------------
    def prepare(self, view: View) -> tuple[Constraints, np.ndarray]:
        """(constraints, template int64[state_size]) of ``view`` (cached by key)."""
        if view.key not in self._views:
            _trim(self._views)
            self._views[view.key] = (constraints(view), self.game.state_from_view(view).data)
        return self._views[view.key]

    def tables(self, view: View) -> TableSampler:
        """The exact table sampler of ``view``'s constraint set (cached)."""
        c, _ = self.prepare(view)
        if c.key not in self._samplers:
            _trim(self._samplers)
            self._samplers[c.key] = TableSampler(c, self.max_tables, self.shuffle)
        return self._samplers[c.key]

    def deals(self, view: View, n: int, rng: np.ndarray) -> np.ndarray:
        """``n`` uniform consistent deals int64[n, R] (card mask per row), kernel RNG."""
        return self.tables(view).draw(n, rng)

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` worlds int64[n, state_size], uniform over the consistent deals."""
        c, template = self.prepare(view)
        return write_worlds(template, c, self.deals(view, n, new_rng(seed_from(rng))))

    def construct(self, view: View) -> State:
        """One consistent world by max-flow alone (seed 003's construction; deterministic)."""
        c, template = self.prepare(view)
        masks = deal_table(c, construct_table(c))
        return State(self.game, write_worlds(template, c, masks[None])[0])

    # -- diagnostics -----------------------------------------------------
    def log_count(self, view: View) -> float:
        """log of the number of deals consistent with ``view``."""
        return self.tables(view).log_count

    def rejection_acceptance(self, view: View) -> float:
        """P(a uniform reshuffle of the unseen cards respects the voids): the acceptance
        rate of plain rejection sampling on top of the game's uniform sampler."""
        c, _ = self.prepare(view)
        every = math.lgamma(len(c.unknown) + 1) - sum(math.lgamma(k + 1) for k in c.sizes)
        return float(np.exp(self.log_count(view) - every))


def _trim(cache: dict) -> None:
    while len(cache) >= _KEEP:
        cache.pop(next(iter(cache)))
