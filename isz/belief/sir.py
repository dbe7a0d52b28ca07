"""``sir``: ``voids`` deals importance-resampled by a policy's probability of the bids.

Policy-based inference (Rebstock et al., 2019: it beat card-location inference in
Skat) restricted to the bids, so that one batched policy call weighs every
candidate. Target: the deals consistent with a tricks view, each with probability
proportional to the product, over the *other* seats' bids so far, of the policy's
probability of the bid taken on that seat's view at its bid in that deal. Card plays
weigh nothing beyond consistency, as in ``voids`` (``gibbs`` weighs them too, at a
policy call per seat, hand and decision: milliseconds a world).

How: per view, ``candidates`` deals ``M`` are drawn from ``voids``. A seat's view at
its bid is public (seat, dealer, trump card, the bids before it) plus its hand, so
the ``D`` bid rows of all ``M`` candidates are one template row per bid with the hand
written in: a single ``policy.many(float32[D * M, tensor_size], bool[D * M,
num_actions])``. `sample_many` then draws its worlds from the ``M`` with probability
proportional to their weights, with replacement (sampling-importance-resampling: the
law tends to the target as ``M`` grows, its bias O(1 / M); `last_ess` is the pool's
effective sample size). Every call for the same view reuses the pool, so a search
pays the policy call once a decision. Before any other seat has bid, or with no
policy, it is ``voids`` itself: fresh worlds.

Knobs: ``policy`` (an object with ``many(tensors, masks) -> float[B, num_actions]``,
e.g. `isz.search.evaluator.EvaluatorPolicy`; None: no weights, i.e. ``voids``),
``candidates`` (128), ``max_tables`` and ``shuffle`` (``voids``'s).
"""

from __future__ import annotations

import math

import numpy as np

from isz.belief.base import Belief
from isz.belief.tricks_constraints import check_tricks, parse_view, replay
from isz.belief.voids import VoidsBelief, _trim
from isz.games import tricks_kernel as K
from isz.games.base import Game, View
from isz.types import IszError, check_int


class SIRBelief(Belief):
    """``voids`` deals resampled by the policy's reach of the bids; module docstring."""

    name = "sir"
    KNOBS = {"policy": None, "candidates": 128, "max_tables": 400_000, "shuffle": True}

    def __init__(self, game: Game, policy=None, candidates: int = 128,
                 max_tables: int = 400_000, shuffle: bool = True):
        check_tricks(f"belief {self.name!r}", game)
        if policy is not None and not callable(getattr(policy, "many", None)):
            raise IszError(f"policy must have many(tensors, masks) -> probabilities (e.g. "
                           f"isz.search.evaluator.EvaluatorPolicy), got {policy!r}")
        super().__init__(game)
        self.policy = policy
        self.candidates = check_int("candidates", candidates, lo=1)
        self.voids = VoidsBelief(game, max_tables=max_tables, shuffle=shuffle)
        self.last_ess = math.nan
        self.reset()

    def reset(self) -> None:
        self.voids.reset()
        self._pool: tuple = (None, None, None)  # (view key, worlds, probabilities)
        self._templates: dict = {}

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` worlds int64[n, state_size]: the view's pool resampled by weight."""
        bids = self.bid_templates(view) if self.policy is not None else []
        if not bids:
            return self.voids.sample_many(view, n, rng)
        if self._pool[0] != view.key:
            worlds = self.voids.sample_many(view, self.candidates, rng)
            logw = self.log_weights(worlds, bids)
            w = np.exp(logw - logw.max())
            p = w / w.sum()
            self.last_ess = float(1.0 / np.sum(p * p))
            self._pool = (view.key, worlds, p)
        _, worlds, p = self._pool
        return worlds[rng.choice(len(worlds), size=n, p=p)]

    def bid_templates(self, view: View) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
        """The other seats' bids in ``view``'s history: (seat, action, template
        float32[tensor_size] with the hand entries zeroed, legal mask bool[num_actions]),
        in bid order (cached per seat and public bidding)."""
        if not self.game.params.get("bidding"):
            return []
        _, _, dealer, tcard, bids, _ = parse_view(view)
        if not bids:
            return []
        key = (view.player, dealer, tcard, bids)
        if key not in self._templates:
            _trim(self._templates)
            self._templates[key] = self._find_templates(view)
        return self._templates[key]

    def _find_templates(self, view: View) -> list:
        """Replay the history in one consistent world (the max-flow one: its hands are
        written over, and everything else in a bid's view is public)."""
        g, out = self.game, []
        world = self.voids.construct(view)
        hand_entries = self._hand_entries()

        def visit(state, action):
            p = state.current_player()
            if p != view.player and action >= g.num_cards:
                v = state.view(p)
                row = np.asarray(v.tensor(), dtype=np.float32).reshape(-1).copy()
                row[hand_entries] = 0.0
                mask = np.zeros(g.num_actions, dtype=np.bool_)
                mask[list(v.legal_actions)] = True
                out.append((p, int(action), row, mask))

        replay(g, view, world.data[K.INIT:K.INIT + g.num_players], visit)
        return out

    def _hand_entries(self) -> np.ndarray:
        """int64[2 * num_cards]: the tensor entries of a seat's hand and initial hand."""
        c, ti = self.game.num_cards, int(self.game.kparams[K.K_T_INIT])
        return np.concatenate([np.arange(c), ti + np.arange(c)])

    def bid_rows(self, worlds: np.ndarray, bids: list) -> tuple[np.ndarray, np.ndarray]:
        """(float32[D * M, tensor_size], bool[D * M, num_actions]): the bidder's view at
        each of the ``D`` bids in each of the ``M`` worlds, bid-major. At its bid a seat
        holds its whole initial hand, so hand and initial hand are the same cards."""
        g, m = self.game, len(worlds)
        c, ti = g.num_cards, int(g.kparams[K.K_T_INIT])
        rows = np.empty((len(bids), m, g.tensor_size), dtype=np.float32)
        masks = np.empty((len(bids), m, g.num_actions), dtype=np.bool_)
        cards = np.arange(c, dtype=np.int64)
        for d, (p, _, row, mask) in enumerate(bids):
            bits = ((worlds[:, K.INIT + p, None] >> cards) & 1).astype(np.float32)
            rows[d] = row
            rows[d, :, :c] = bits
            rows[d, :, ti:ti + c] = bits
            masks[d] = mask
        return rows.reshape(-1, g.tensor_size), masks.reshape(-1, g.num_actions)

    def log_weights(self, worlds: np.ndarray, bids: list) -> np.ndarray:
        """float64[M]: log of the product of the policy's probabilities of the bids."""
        rows, masks = self.bid_rows(worlds, bids)
        probs = np.asarray(self.policy.many(rows, masks), dtype=np.float64)
        if probs.shape != masks.shape or not np.all(np.isfinite(probs)):
            raise IszError(f"policy.many must return finite probabilities of shape "
                           f"{masks.shape}, got shape {probs.shape}")
        m = len(worlds)
        taken = np.array([a for _, a, _, _ in bids], dtype=np.int64)
        pr = probs.reshape(len(bids), m, -1)[np.arange(len(bids)), :, taken]  # [D, M]
        with np.errstate(divide="ignore"):
            logw = np.log(pr).sum(axis=0)
        if not np.any(np.isfinite(logw)):
            raise IszError("policy gives every candidate deal probability 0 for the bids "
                           "taken: it must give every legal bid some probability")
        return logw
