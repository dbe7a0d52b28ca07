"""``gibbs``: seed 003's TTCG Gibbs sampler, deals weighted by a policy's reach.

Target: the deals consistent with a tricks view, each with probability
proportional to ``P(h)``, the product over the *other* seats' past decisions
(bids and plays) of the policy's probability of the action taken, evaluated on
that seat's view in the candidate world. Chance is uniform over deals and the
observer's own decisions do not depend on the deal, so ``P`` is the
unnormalised posterior. Moves (ring swaps of suit-length assignments and
within-suit card swaps, Metropolis-Hastings): `isz.belief.gibbs_kernel`.

Knobs:
    policy: ``policy(view) -> float[num_actions]``, the acting seat's action
        probabilities on its view; full support over legal actions for the
        chain to be exact. Default (None): uniform over legal actions, whose
        reach is compiled (no views built). A Python policy is called once
        per (seat, hand) per view and cached.
    burn_in: transitions before the first sample of a chain (20, as seed 003).
    thin: transitions between a chain's returned samples (2).
    chains: independent chains per `sample_many` call (1); the n samples are
        spread over them (interleaved: sample ``j`` of chain ``c`` is row
        ``j * chains + c``).
    start: where chains start: ``"voids"`` (default, an exact uniform
        consistent deal: seed 003's experiments start uniformly) or
        ``"construct"`` (the max-flow deal, deterministic).
    max_tables: passed to the ``voids`` sampler used for starts.

Restart policy: every `sample_many` call runs fresh chains (start, burn-in,
thinning) drawn from its generator, so the result is a function of the view
and the generator only (no-leak by construction, same seed -> same worlds).
Caches (circuits, reach per seat hand) are functions of the view.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

import isz.belief.gibbs_kernel as G
from isz.belief.base import Belief
from isz.belief.tricks_constraints import (
    Constraints,
    check_tricks,
    construct_table,
    deal_table,
    replay,
    write_worlds,
)
from isz.belief.voids import VoidsBelief
from isz.games import tricks_kernel as K
from isz.games.base import Game, View
from isz.rng import new_rng
from isz.types import IszError, check_choice, check_int, seed_from


def circuits(c: Constraints) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every structural circuit: (rows int64[K, L], suits int64[K, L], lengths int64[K]).

    Row ``rows[k, t]`` hands a card of suit ``suits[k, t]`` to ``rows[k, t+1]``
    (cyclically); rows and suits distinct, the smallest row first (one entry per
    cycle), nobody handed a suit it is void in.
    """
    rows, su = c.void.shape
    allow = ~c.void
    out = []
    for length in range(2, min(rows, su) + 1):
        for first in range(rows):
            for rest in itertools.permutations(range(first + 1, rows), length - 1):
                ring = (first, *rest)
                for suits in itertools.permutations(range(su), length):
                    if all(allow[ring[t], suits[t]] and allow[ring[(t + 1) % length], suits[t]]
                           for t in range(length)):
                        out.append((ring, suits))
    big_l = max(min(rows, su), 2)
    crow = np.zeros((len(out), big_l), dtype=np.int64)
    csuit = np.zeros((len(out), big_l), dtype=np.int64)
    for k, (ring, suits) in enumerate(out):
        crow[k, :len(ring)], csuit[k, :len(ring)] = ring, suits
    return crow, csuit, np.array([len(r) for r, _ in out], dtype=np.int64)


class _Chain:
    """Per constraint set: move tables and the compiled uniform-reach data."""

    def __init__(self, game: Game, c: Constraints):
        su, r = game.suits, game.ranks
        self.suitmask = game.kparams[K.K_SUITMASK:K.K_SUITMASK + su].copy()
        self.usuit = c.unknown // r
        self.crow, self.csuit, self.clen = circuits(c)
        row_of = {int(p): i for i, p in enumerate(c.seats)}
        plays = c.plays
        self.prow = np.array([row_of.get(int(p), -1) for p in plays[:, 0]], dtype=np.int64)
        self.pled = plays[:, 2].copy()
        later = np.zeros(len(plays), dtype=np.int64)
        acc: dict[int, int] = {}
        for k in range(len(plays) - 1, -1, -1):  # cards each seat plays from k on
            p = int(plays[k, 0])
            acc[p] = acc.get(p, 0) | (1 << int(plays[k, 1]))
            later[k] = acc[p]
        self.plater = later

    def moves(self, c: Constraints) -> tuple:
        return (self.suitmask, c.unknown, self.usuit, c.suit_start, self.crow, self.csuit,
                self.clen)


class GibbsBelief(Belief):
    """TTCG Gibbs sampler over consistent deals (tricks, oh_hell); module docstring."""

    name = "gibbs"
    KNOBS = {"policy": None, "burn_in": 20, "thin": 2, "chains": 1, "start": "voids",
             "max_tables": 400_000}

    def __init__(self, game: Game, policy: Callable[[View], np.ndarray] | None = None,
                 burn_in: int = 20, thin: int = 2, chains: int = 1, start: str = "voids",
                 max_tables: int = 400_000):
        check_tricks(f"belief {self.name!r}", game)
        if policy is not None and not callable(policy):
            raise IszError(f"policy must be a callable policy(view) -> probabilities, "
                           f"got {policy!r}")
        super().__init__(game)
        self.policy = policy
        self.burn_in = check_int("burn_in", burn_in, lo=0)
        self.thin = check_int("thin", thin, lo=1)
        self.chains = check_int("chains", chains, lo=1)
        check_choice("start", start, ("voids", "construct"))
        self.start = start
        self.voids = VoidsBelief(game, max_tables=max_tables)
        self.stats = np.zeros(4, dtype=np.int64)  # ring, ring accepted, swap, swap accepted
        self.reset()

    def reset(self) -> None:
        # a trainer may change the policy between games: forget its cached reach
        self.voids.reset()
        self._chain: dict = {}
        self._reach_key, self._reach = None, {}

    @property
    def acceptance(self) -> dict[str, float]:
        """Acceptance rate of each move since construction (nan before any)."""
        s = self.stats
        return {"ring": s[1] / s[0] if s[0] else math.nan,
                "swap": s[3] / s[2] if s[2] else math.nan}

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` worlds int64[n, state_size] from ``chains`` fresh chains (burn-in, thin)."""
        c, template = self.voids.prepare(view)
        return write_worlds(template, c, self.deals(view, n, rng, self.burn_in))

    def deals(self, view: View, n: int, rng: np.random.Generator, burn_in: int) -> np.ndarray:
        """``n`` chain samples int64[n, R] (card mask per row) after ``burn_in`` transitions."""
        c, _ = self.voids.prepare(view)
        if view.key not in self._chain:  # the reach data depend on who played what, when
            self._chain = {view.key: _Chain(self.game, c)}
        ch = self._chain[view.key]
        kr = new_rng(seed_from(rng))
        n_chains = min(self.chains, max(n, 1))
        per = -(-n // n_chains)
        if self.start == "voids":
            starts = self.voids.deals(view, n_chains, kr)
        else:
            starts = np.tile(deal_table(c, construct_table(c)), (n_chains, 1))
        out = np.empty((per * n_chains, c.rows), dtype=np.int64)
        if self.policy is None:
            G.run_uniform(starts, burn_in, per, self.thin, *ch.moves(c), ch.prow, ch.pled,
                          ch.plater, kr, out, self.stats)
        else:
            self._run_policy(view, c, ch, starts, burn_in, per, kr, out)
        return out[:n]

    # -- a Python policy -------------------------------------------------
    def _run_policy(self, view, c, ch, cur, burn, per, kr, out) -> None:
        """The chains of `gibbs_kernel.run_uniform`, stepped in lockstep: proposals and
        acceptance compiled, reach of the changed hands looked up in Python."""
        n_chains = len(cur)
        new = np.empty_like(cur)
        kind = np.zeros(n_chains, dtype=np.int64)
        logq = np.zeros(n_chains)
        lp = np.array([self._log_reach(view, c, d) for d in cur])
        for step in range(burn + (per - 1) * self.thin + 1):
            if step >= burn and (step - burn) % self.thin == 0:
                out[(step - burn) // self.thin * n_chains:][:n_chains] = cur
            if step == burn + (per - 1) * self.thin:
                break
            G.propose_batch(cur, new, kind, logq, *ch.moves(c), kr)
            lp_new = np.array([self._log_reach(view, c, d) if k else -np.inf
                               for d, k in zip(new, kind, strict=True)])
            with np.errstate(invalid="ignore"):
                ratio = np.where(np.isneginf(lp), np.inf, lp_new - lp) + logq
            ok = G.accept_batch(cur, new, kind, ratio, kr, self.stats)
            lp[ok] = lp_new[ok]

    def log_reach(self, view: View, deal: np.ndarray) -> float:
        """log P(h) of the world with deal ``deal`` (int64[R], a card mask per row) under
        the belief's policy: the other seats' decisions only (unnormalised)."""
        c, _ = self.voids.prepare(view)
        if self.policy is None:
            ch = _Chain(self.game, c)
            return float(G.log_reach_uniform(np.asarray(deal, dtype=np.int64), ch.prow,
                                             ch.pled, ch.plater, ch.suitmask))
        return self._log_reach(view, c, deal)

    def _log_reach(self, view: View, c: Constraints, deal: np.ndarray) -> float:
        """log P(h): sum over the other seats of their cached log reach given their hand."""
        if view.key != self._reach_key:
            self._reach_key, self._reach = view.key, {}
        rows = [(r, int(deal[r])) for r in range(len(c.seats))]
        if any(k not in self._reach for k in rows):
            self._fill_reach(view, c, deal)
        return sum(self._reach[k] for k in rows)

    def _fill_reach(self, view: View, c: Constraints, deal: np.ndarray) -> None:
        """Replay the view's history in world ``deal``, asking the policy at each of
        the other seats' decisions; cache each seat's log reach for its hand."""
        g = self.game
        hands = [int(view.data[0])] * g.num_players
        for r, p in enumerate(c.seats):
            hands[p] = int(deal[r]) | int(c.played[p])
        logp = dict.fromkeys(c.seats.tolist(), 0.0)

        def visit(state, action):
            p = state.current_player()
            if p != view.player:
                probs = np.asarray(self.policy(state.view(p)), dtype=np.float64)
                if probs.shape != (g.num_actions,) or not np.all(np.isfinite(probs)) \
                        or np.any(probs < 0):
                    raise IszError(f"policy must return {g.num_actions} finite "
                                   f"probabilities >= 0, got {probs!r}")
                logp[p] += math.log(probs[action]) if probs[action] > 0 else -math.inf

        replay(g, view, hands, visit)
        for r, p in enumerate(c.seats.tolist()):
            self._reach[(r, int(deal[r]))] = logp[p]
