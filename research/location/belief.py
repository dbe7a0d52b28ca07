"""``located``: ``voids`` deals importance-resampled by a card-location net.

Target: the deals consistent with a tricks view, tilted by a net's marginals
``q(c, l)`` of where each unseen card ``c`` lies (`research.location.net`, trained
on the true deals of self-play): a deal's log weight is ``alpha`` times the sum
over unseen cards of ``log q(c, l_c) - log u(c, l_c)``, with ``l_c`` the card's
location in that deal and ``u`` the candidates' own frequency of it (``correct``:
the tilt then moves the pool's marginals toward ``q`` instead of multiplying
``voids``'s constraint effects in twice; without it, ``u`` = 1). With ``bids``,
`sir`'s bid weights are added (the network's policy as a model of the bids).
One net call of one row a decision; the pool is reused for the view, as `sir`'s.
Also ``sir_sharp`` (`SharpSIRBelief`): `sir` with its log weights scaled. `register`
makes both known to `make_belief` (the tools call it).
"""

from __future__ import annotations

import numpy as np

from isz.belief.registry import register_belief
from isz.belief.sir import SIRBelief
from isz.belief.tricks_constraints import constraints
from isz.games.base import Game, View
from isz.types import IszError
from research.location.data import labels, prior_of
from research.location.net import log_probs_np


class LocatedBelief(SIRBelief):
    """``voids`` candidates tilted by a card-location net, optionally times `sir`'s bid
    weights; module docstring."""

    name = "located"
    KNOBS = {**SIRBelief.KNOBS, "weights": None, "alpha": 1.0, "correct": True,
             "bids": False}

    def __init__(self, game: Game, policy=None, weights: str | None = None,
                 alpha: float = 1.0, correct: bool = True, bids: bool = False,
                 candidates: int = 128, plays: int = 0, **voids):
        super().__init__(game, policy=policy, candidates=candidates, plays=plays, **voids)
        if weights is None and not bids:
            raise IszError("belief 'located' needs weights=PATH (an exported "
                           "research.location.net .npz) or bids=true")
        self.w = None if weights is None else [np.load(weights)[f"arr_{i}"] for i in range(6)]
        self.alpha, self.correct, self.bids = float(alpha), bool(correct), bool(bids)

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` worlds int64[n, state_size] from the view's tilted pool."""
        if not self.has_pool(view):
            self.set_pool(view, *self._weighed_pool(view, rng))
        _, worlds, p = self._pool
        return worlds[rng.choice(len(worlds), size=n, p=p)]

    def _weighed_pool(self, view: View, rng: np.random.Generator):
        worlds, counts = self.draw_candidates(view, rng)
        logw = np.zeros(len(worlds))
        if self.w is not None:
            logw += self.location_log_weights(view, worlds, counts)
        if self.bids and self.policy is not None and self.weighs(view):
            logw += self.log_weights(worlds, self.decision_templates(view, worlds[0]))
        return worlds, self.resampling_law(counts, logw)

    def location_log_weights(self, view: View, worlds: np.ndarray,
                             counts: np.ndarray) -> np.ndarray:
        """float64[U]: ``alpha * sum_c (log q - log u)`` at each world's locations."""
        g = self.game
        x = np.asarray(view.tensor(), dtype=np.float32).reshape(1, -1)
        prior = prior_of(constraints(view), g)[None]
        logq = log_probs_np(self.w, x, g.num_cards, prior)[0]  # [C, L]
        loc = labels(worlds, np.full(len(worlds), view.player), g.num_players,
                     g.num_cards).astype(np.int64)  # [U, C]
        unseen = loc >= 0
        cards = np.broadcast_to(np.arange(g.num_cards), loc.shape)
        term = np.where(unseen, logq[cards, np.maximum(loc, 0)], 0.0)
        if self.correct:
            freq = np.zeros_like(logq)
            np.add.at(freq, (cards[unseen], loc[unseen]),
                      np.broadcast_to(counts[:, None], loc.shape)[unseen])
            logu = np.log((freq + 0.5) / (counts.sum() + 0.5 * g.num_players))
            term = term - np.where(unseen, logu[cards, np.maximum(loc, 0)], 0.0)
        return self.alpha * term.sum(axis=1)



class SharpSIRBelief(SIRBelief):
    """``sir_sharp``: `sir` with its log weights times ``sharpness`` (the policy's
    probabilities raised to that power). A search agent plays its most visited move,
    not a draw from the visit distribution its policy head learned, so the actions it
    takes are likelier than the policy says; ``sharpness`` > 1 models that."""

    name = "sir_sharp"
    KNOBS = {**SIRBelief.KNOBS, "sharpness": 2.0}

    def __init__(self, game: Game, sharpness: float = 2.0, **knobs):
        super().__init__(game, **knobs)
        self.sharpness = float(sharpness)

    def log_weights(self, worlds: np.ndarray, decisions) -> np.ndarray:
        return self.sharpness * super().log_weights(worlds, decisions)


NAMES = {"located": LocatedBelief, "sir_sharp": SharpSIRBelief}


def register() -> None:
    """Register ``located`` and ``sir_sharp`` with isz's belief registry (matches'
    workers fork after it, so they know them too)."""
    for name, factory in NAMES.items():
        register_belief(name, factory, replace=True)
