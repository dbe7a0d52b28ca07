"""Exact posterior over the worlds consistent with a view, for any small game.

Seed 003's belief under a joint policy: a history ``h`` consistent with the
view of player ``i`` has probability proportional to its reach
``P_c(h) * P_-i(h) * P_i(h)``. With perfect recall (isz views record the
player's own actions and observations) ``P_i`` is the same for every such
history, so

    P(h | view)  ∝  P_c(h) * prod of policy(view of the actor)[a] over the
                    other players' actions a on the way to h.

The game's histories are enumerated once (`isz.games.histories`, cached per
game) and grouped by every player's view key, so a query looks up its
candidate worlds instead of searching for them; each history's reach under the
other players is memoised until `reset` (the policy is assumed fixed in
between). Games with more than ``max_histories`` histories are refused at
construction.

Knobs: ``policy`` — ``policy(view) -> float array[num_actions]`` of
probabilities (default uniform over the legal actions); ``max_histories``
(default 500,000). If the policy gives the observed actions zero probability
in every candidate world (an opponent off-model), the posterior falls back to
chance alone rather than failing mid-game; ``fallbacks`` counts how often.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from isz.belief.base import Belief
from isz.belief.diagnostics import hidden_part
from isz.games.base import Game, State, View
from isz.games.histories import HistoryTable, enumerate_histories
from isz.types import IszError, check_int

# Enumerating costs about 15 us and 0.3 kB a history, once per process (Liar's Dice with
# one die each, 294,883 histories: 4.6 s and 95 MB). 500,000 admits it, where with the
# network's policy this belief is worth +0.37 over so_ismcts and without it (uniform
# worlds) the planner trails so_ismcts (docs/results/liars_dice.md); a bigger game is
# refused after a count of about 3 s and `auto` goes on to the next belief.
MAX_HISTORIES = 500_000


def uniform_policy(view: View) -> np.ndarray:
    """Uniform over ``view.legal_actions``: float64[num_actions]."""
    p = np.zeros(view.game.num_actions)
    p[list(view.legal_actions)] = 1.0 / len(view.legal_actions)
    return p


def stratified(probs: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` indices with marginal law ``probs``, drawn by systematic sampling.

    Each index is still distributed as ``probs``, but the count of every
    candidate is within one of ``n * p``: a search over few worlds then sees
    each candidate in proportion, instead of by luck (variance reduction of the
    searched values, not a change of their expectation).
    """
    u = (rng.random() + np.arange(n)) / n
    idx = np.minimum(np.searchsorted(np.cumsum(probs), u, side="right"), len(probs) - 1)
    return rng.permutation(idx)


class _ViewIndex:
    """Histories grouped by view key, and the information set of every decision row."""

    def __init__(self, game: Game, table: HistoryTable):
        self.members: dict[tuple, list[int]] = {}
        self.info = np.full(len(table.player), -1, np.int64)  # decision row -> infoset id
        self.info_row: list[int] = []  # infoset id -> one row (to build its View)
        ids: dict[tuple, int] = {}
        for row, s in enumerate(table.states):
            state, cur = State(game, s), int(table.player[row])
            for p in range(game.num_players):
                key = (p, game.view_data(state, p))
                self.members.setdefault(key, []).append(row)
                if p == cur:
                    self.info[row] = ids.setdefault(key, len(ids))
                    if self.info[row] == len(self.info_row):
                        self.info_row.append(row)


_INDEXES: dict[str, _ViewIndex] = {}


class PosteriorBelief(Belief):
    """Exact posterior over the worlds consistent with a view (see module docstring)."""

    name = "posterior"
    KNOBS = {"policy": None, "max_histories": MAX_HISTORIES}

    def __init__(self, game: Game, policy: Callable[[View], np.ndarray] | None = None,
                 max_histories: int = MAX_HISTORIES):
        if policy is not None and not callable(policy):
            raise IszError(f"policy must be a callable policy(view) -> probabilities, "
                           f"got {policy!r}")
        check_int("max_histories", max_histories, lo=1)
        super().__init__(game)
        try:
            self.table = enumerate_histories(game, max_histories)
        except IszError as e:
            raise IszError(f"belief 'posterior' enumerates every history: {e} (raise "
                           "max_histories, or use another belief: replay where the game's "
                           "kernel has history)") from e
        key = repr(game.spec)
        if key not in _INDEXES:
            _INDEXES[key] = _ViewIndex(game, self.table)
        self.index = _INDEXES[key]
        self.policy = policy or uniform_policy
        self.fallbacks = 0
        self.reset()

    def reset(self) -> None:
        # a trainer may have changed the policy between games: recompute
        self._probs: dict[int, np.ndarray] = {}
        self._reach: list[dict[int, float]] = [{} for _ in range(self.game.num_players)]
        self._key, self._cache = None, None

    def worlds(self, view: View) -> tuple[np.ndarray, np.ndarray]:
        """(rows int64[k] of the candidate histories, their posterior float64[k])."""
        if view.key != self._key:
            self._cache = self._solve(view)
            self._key = view.key
        return self._cache

    def posterior(self, view: View) -> dict[tuple, float]:
        """``{hidden part: probability}`` (`isz.belief.diagnostics.hidden_part`: the
        opponent's card in poker, the whole state array elsewhere); ``{(): 1.0}``
        while nothing is hidden."""
        out: dict[tuple, float] = {}
        for row, p in zip(*self.worlds(view), strict=True):
            h = hidden_part(self.game, self.table.states[row], view.player)
            out[h] = out.get(h, 0.0) + float(p)
        return out

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` worlds, int64[n, state_size], stratified over the posterior."""
        rows, probs = self.worlds(view)
        return self.table.states[rows[stratified(probs, n, rng)]]

    # -- enumeration ---------------------------------------------------
    def _solve(self, view: View) -> tuple[np.ndarray, np.ndarray]:
        rows = self.index.members.get(view.key)
        if rows is None:
            raise IszError(f"view {view.key!r} of {self.game!r} is not reachable")
        rows = np.array(rows, np.int64)
        chance = self.table.chance_reach[rows]
        w = chance * np.array([self._others_reach(r, view.player) for r in rows])
        if w.sum() <= 0.0:
            self.fallbacks += 1
            w = chance
        return rows, w / w.sum()

    def _others_reach(self, row: int, me: int) -> float:
        """Product of the policy's probabilities of the other seats' actions above ``row``."""
        memo, t = self._reach[me], self.table
        path = []
        while row not in memo and t.parent[row] >= 0:
            path.append(row)
            row = int(t.parent[row])
        value = memo.get(row, 1.0)
        for r in reversed(path):
            parent = int(t.parent[r])
            actor = int(t.player[parent])
            if actor >= 0 and actor != me:
                value *= self._prob(int(self.index.info[parent]), int(t.action[r]))
            memo[r] = value
        return value

    def _prob(self, info: int, action: int) -> float:
        p = self._probs.get(info)
        if p is None:
            view = State(self.game, self.table.states[self.index.info_row[info]].copy()) \
                .view(int(self.table.player[self.index.info_row[info]]))
            p = np.asarray(self.policy(view), dtype=np.float64)
            if p.shape != (self.game.num_actions,) or not np.all(np.isfinite(p)) \
                    or np.any(p < 0):
                raise IszError(f"policy must return {self.game.num_actions} finite "
                               f"probabilities >= 0, got {p!r}")
            self._probs[info] = p
        return float(p[action])
