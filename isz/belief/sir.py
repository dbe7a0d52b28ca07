"""``sir``: ``voids`` deals importance-resampled by a policy's probability of the
other seats' bids and of their last ``plays`` card plays.

Policy-based inference (Rebstock et al., 2019: it beat card-location inference in
Skat) over the decisions a batched call can weigh. Target: the deals consistent with
a tricks view, each with probability proportional to the product, over the *other*
seats' bids so far and their ``plays`` most recent card plays, of the policy's
probability of the action taken on that seat's view at that decision in that deal.
Older card plays weigh nothing beyond consistency, as in ``voids`` (``gibbs`` weighs
every play, at a policy call per seat, hand and decision: milliseconds a world).

How: per view, ``candidates`` deals ``M`` are drawn from ``voids``. A seat's view at
its decision is public (seat, dealer, trump card, the bids and plays before it) plus
its hand: its initial hand less the cards it has played (public), so the ``D``
decision rows of all ``M`` candidates are one template row per decision with the
hand written in, and a play's legal mask follows from that hand and the led suit:
a single ``policy.many(float32[D * M, tensor_size], bool[D * M, num_actions])``,
or ``policy.many_parts`` with the template rows and the hands apart (a network then
computes its first layer once per template: `decision_parts`).
`sample_many` then draws its worlds from the ``M`` with probability proportional
to their weights, with replacement (sampling-importance-resampling: the law tends
to the target as ``M`` grows, its bias O(1 / M); `last_ess` is the pool's effective
sample size). Every call for the same view reuses the pool, so a search
pays the policy call once a decision. Before any other seat has decided anything
that weighs, or with no policy, it is ``voids`` itself: fresh worlds.

Knobs: ``policy`` (an object with ``many(tensors, masks) -> float[B, num_actions]``,
e.g. `isz.search.evaluator.EvaluatorPolicy`; None: no weights, i.e. ``voids``),
``candidates`` (128), ``plays`` (4: each weighed play adds ``candidates`` rows to the
decision's policy call; on the 2-seat tricks game, whose opponent makes at most 4
plays, weighing them took the trained planner from level with so_ismcts to ahead of
it, docs/results/tricks.md; on Oh Hell, where the bids already weigh, they added
nothing and cost a quarter of the simulations, docs/results/oh_hell_research.md, so its
preset sets 0), ``max_tables`` and ``shuffle`` (``voids``'s).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from isz.belief.base import Belief, check_batch_policy, distinct_worlds, resampling_law
from isz.belief.tricks_constraints import check_tricks, parse_view, replay
from isz.belief.voids import VoidsBelief, _trim
from isz.games import tricks_kernel as K
from isz.games.base import Game, View
from isz.types import IszError, check_int


class Decision(NamedTuple):
    """Another seat's decision in a view's history, as a template: ``row``, the seat's
    tensor with its hand entries zeroed; ``mask``, its legal actions (a play's are
    rewritten per world from the hand); ``before``, the cards it had played (a mask);
    ``led``, the led suit of the trick (-1 when it leads or bids)."""

    seat: int
    action: int
    row: np.ndarray
    mask: np.ndarray
    play: bool
    before: int
    led: int


def rows_from_parts(base: np.ndarray, groups: np.ndarray, cols: np.ndarray,
                    vals: np.ndarray) -> np.ndarray:
    """float32[B, tensor_size]: row ``b`` is ``base[groups[b]]`` (float32[D,
    tensor_size]) with its entries ``cols`` (int64[K]) set to ``vals[b]`` (float32[B,
    K]): the parts of `SIRBelief.decision_parts` written out, for a policy that takes
    whole rows."""
    rows = np.asarray(base, dtype=np.float32)[groups]
    rows[:, cols] = vals
    return rows


class SIRBelief(Belief):
    """``voids`` deals resampled by the policy's reach of the bids; module docstring."""

    name = "sir"
    KNOBS = {"policy": None, "candidates": 128, "plays": 4, "max_tables": 400_000,
             "shuffle": True}

    def __init__(self, game: Game, policy=None, candidates: int = 128, plays: int = 4,
                 max_tables: int = 400_000, shuffle: bool = True):
        check_tricks(f"belief {self.name!r}", game)
        super().__init__(game)
        self.policy = check_batch_policy(policy)
        self.candidates = check_int("candidates", candidates, lo=1)
        self.plays = check_int("plays", plays, lo=0)
        self.voids = VoidsBelief(game, max_tables=max_tables, shuffle=shuffle)
        self.last_ess = math.nan
        self.reset()

    def reset(self) -> None:
        self.voids.reset()
        self._pool: tuple = (None, None, None)  # (view key, worlds, probabilities)
        self._templates: dict = {}

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` worlds int64[n, state_size]: the view's pool resampled by weight."""
        if not self.has_pool(view):  # a pool exists only for a view that weighs
            if self.policy is None or not self.weighs(view):
                return self.voids.sample_many(view, n, rng)
            self.set_pool(view, *self._weighed_pool(view, rng))
        _, worlds, p = self._pool
        return worlds[rng.choice(len(worlds), size=n, p=p)]

    def _weighed_pool(self, view: View,
                      rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """(int64[U, state_size], float64[U]): `draw_candidates` and their resampling law."""
        worlds, counts = self.draw_candidates(view, rng)
        logw = self.log_weights(worlds, self.decision_templates(view, worlds[0]))
        return worlds, self.resampling_law(counts, logw)

    def draw_candidates(self, view: View,
                        rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """(int64[U, state_size], int64[U]): the distinct worlds of ``candidates``
        ``voids`` draws and how often each was drawn. Weighing each distinct world
        once, times its count, is the law of weighing every draw, at fewer policy rows:
        late in a small game most draws repeat (tricks: about 14 distinct of 128)."""
        return distinct_worlds(self.voids.sample_many(view, self.candidates, rng))

    def resampling_law(self, counts: np.ndarray, logw: np.ndarray) -> np.ndarray:
        """float64[U]: each distinct candidate's probability, its count × its weight
        ``exp(logw)`` normalised; sets `last_ess` (over the draws)."""
        p, self.last_ess = resampling_law(counts, logw)
        return p

    def weighs(self, view: View) -> bool:
        """Whether ``view`` holds a decision of another seat that this belief weighs."""
        return self._template_key(view) is not None

    def has_pool(self, view: View) -> bool:
        """Whether ``view``'s pool is weighed already."""
        return self._pool[0] == view.key

    def set_pool(self, view: View, worlds: np.ndarray, p: np.ndarray) -> None:
        """Use ``worlds`` (int64[U, state_size]) with probabilities ``p`` (float64[U]) as
        ``view``'s pool (`isz.belief.sir_batch` weighs many at once)."""
        self._pool = (view.key, worlds, p)

    def _template_key(self, view: View) -> tuple | None:
        """``(cache key, number of bids, indices of the plays that weigh)`` of
        ``view``'s templates, the key its seat and the public history up to the last
        weighed decision; None when nothing weighs."""
        _, _, dealer, tcard, bids, plays = parse_view(view)
        if not self.game.params.get("bidding"):
            bids = ()
        others = [i for i, (p, _) in enumerate(plays) if p != view.player]
        last = others[len(others) - self.plays:] if self.plays else []
        if not bids and not last:
            return None
        key = (view.player, dealer, tcard, bids, tuple(plays[:last[-1] + 1]) if last else ())
        return key, len(bids), last

    def decision_templates(self, view: View, world: np.ndarray | None = None
                           ) -> list[Decision]:
        """The other seats' bids in ``view``'s history, then their last ``plays`` card
        plays, as `Decision` templates in history order (cached per seat and public
        history), found by replaying the history in ``world`` (int64[state_size], any
        world consistent with ``view``; None: ``voids``'s max-flow one)."""
        found = self._template_key(view)
        if found is None:
            return []
        key, n_bids, last = found
        if key not in self._templates:
            _trim(self._templates)
            if world is None:
                world = self.voids.construct(view).data
            self._templates[key] = self._find_templates(view, world, n_bids, set(last))
        return self._templates[key]

    def _find_templates(self, view: View, world: np.ndarray, n_bids: int,
                        plays: set[int]) -> list[Decision]:
        """Replay the history in ``world``, a consistent world: its hands are written
        over, and everything else in a decision's view is public."""
        g, out = self.game, []
        hand_entries = self._hand_entries()
        k = -1 - n_bids  # index of the next card play (bids come first)

        def visit(state, action):
            nonlocal k
            k += 1
            p = state.current_player()
            if p == view.player or (action < g.num_cards and k not in plays):
                return
            v = state.view(p)
            row = np.asarray(v.tensor(), dtype=np.float32).reshape(-1).copy()
            row[hand_entries] = 0.0
            mask = np.zeros(g.num_actions, dtype=np.bool_)
            mask[list(v.legal_actions)] = True
            d = state.data
            before = int(d[K.INIT + p]) & ~int(d[K.HAND + p])  # cards p has played
            led = -1 if d[K.POS] == 0 or action >= g.num_cards else \
                int(g.kparams[K.K_SUITOF + d[K.PLAYS + d[K.NPLAYED] - d[K.POS]]])
            out.append(Decision(p, int(action), row, mask, action < g.num_cards, before, led))

        replay(g, view, world[K.INIT:K.INIT + g.num_players], visit)
        return out

    def _hand_entries(self) -> np.ndarray:
        """int64[2 * num_cards]: the tensor entries of a seat's hand and initial hand."""
        c, ti = self.game.num_cards, int(self.game.kparams[K.K_T_INIT])
        return np.concatenate([np.arange(c), ti + np.arange(c)])

    def decision_rows(self, worlds: np.ndarray,
                      decisions: list[Decision]) -> tuple[np.ndarray, np.ndarray]:
        """(float32[D * M, tensor_size], bool[D * M, num_actions]): the deciding seat's
        view at each of the ``D`` decisions in each of the ``M`` worlds, decision-major.
        Its hand is its initial hand less the cards it had played; a play's legal
        moves are that hand's cards of the led suit, or the whole hand."""
        base, cols, vals, masks = self.decision_parts(worlds, decisions)
        return rows_from_parts(base, groups_of(decisions, worlds), cols, vals), masks

    def decision_parts(self, worlds: np.ndarray, decisions: list[Decision]):
        """`decision_rows` factored as ``(base float32[D, tensor_size], cols int64[K],
        vals float32[D * M, K], masks bool[D * M, num_actions])``: row ``d * M + m`` is
        ``base[d]`` with its entries ``cols`` (the seat's hand and initial hand, 0 in
        ``base``) set to ``vals[d * M + m]``."""
        g, m = self.game, len(worlds)
        c = g.num_cards
        cols = self._hand_entries()
        base = np.stack([d.row for d in decisions]).astype(np.float32, copy=False)
        vals = np.empty((len(decisions), m, 2 * c), dtype=np.float32)
        masks = np.empty((len(decisions), m, g.num_actions), dtype=np.bool_)
        cards = np.arange(c, dtype=np.int64)
        suit = g.kparams[K.K_SUITOF:K.K_SUITOF + c]
        for i, d in enumerate(decisions):
            init = (worlds[:, K.INIT + d.seat, None] >> cards) & 1
            hand = init & ~((d.before >> cards) & 1)
            vals[i, :, :c] = hand
            vals[i, :, c:] = init
            masks[i] = d.mask
            if d.play:
                legal = hand.astype(np.bool_)
                follow = legal & (suit == d.led)
                can = follow.any(axis=1, keepdims=True)
                masks[i, :, :c] = np.where(can, follow, legal)
        return base, cols, vals.reshape(-1, 2 * c), masks.reshape(-1, g.num_actions)

    def _policy_probs(self, worlds: np.ndarray, decisions: list[Decision]):
        """(float[D * M, num_actions], masks): the policy at every decision row, one
        `call_policy` (the rows share their template: a network's first layer runs
        once a decision)."""
        base, cols, vals, masks = self.decision_parts(worlds, decisions)
        groups = groups_of(decisions, worlds)
        return call_policy(self.policy, base, groups, cols, vals, masks), masks

    def log_weights(self, worlds: np.ndarray, decisions: list[Decision]) -> np.ndarray:
        """float64[M]: log of the product of the policy's probabilities of the actions
        taken at ``decisions``."""
        probs, masks = self._policy_probs(worlds, decisions)
        return log_weights_from(probs, masks, len(worlds), decisions)


def call_policy(policy, base: np.ndarray, groups: np.ndarray, cols: np.ndarray,
                vals: np.ndarray, masks: np.ndarray):
    """The policy's probabilities float[B, num_actions] on the rows `rows_from_parts`
    describes: ``policy.many_parts`` where the policy has it (a network then computes
    its first layer once per template), else ``policy.many`` on the rows written out."""
    if hasattr(policy, "many_parts"):
        return policy.many_parts(base, groups, cols, vals, masks)
    return policy.many(rows_from_parts(base, groups, cols, vals), masks)


def log_weights_from(probs, masks: np.ndarray, m: int,
                     decisions: list[Decision]) -> np.ndarray:
    """float64[M]: `SIRBelief.log_weights` from the policy's output ``probs``
    (float[D * M, num_actions], decision-major) on rows with legal moves ``masks``."""
    probs = np.asarray(probs, dtype=np.float64)
    if probs.shape != masks.shape or not np.all(np.isfinite(probs)):
        raise IszError(f"policy.many must return finite probabilities of shape "
                       f"{masks.shape}, got shape {probs.shape}")
    n = len(decisions)
    taken = np.array([d.action for d in decisions], dtype=np.int64)
    pr = probs.reshape(n, m, -1)[np.arange(n), :, taken]  # [D, M]
    with np.errstate(divide="ignore"):
        logw = np.log(pr).sum(axis=0)
    if not np.any(np.isfinite(logw)):
        raise IszError("policy gives every candidate deal probability 0 for the actions "
                       "taken: it must give every legal action some probability")
    return logw


def groups_of(decisions: list[Decision], worlds: np.ndarray) -> np.ndarray:
    """int64[D * M]: the template of each decision row (rows are decision-major)."""
    return np.repeat(np.arange(len(decisions)), len(worlds))
