"""Ratings from a ladder's games: a Bradley-Terry fit (choix) with bootstrap SEs.

Every game of a table is broken into the comparisons of its seats' players,
two at a time: the one with the higher return beats the other, a tie is half a
win each (the arena's score convention, `isz.evaluation.scoring`). For two
seats that is the game itself; for three or four it is "full rank breaking" of
the game's ranking, which gives consistent estimates of a Plackett-Luce model's
strengths (Azari Soufiani, Parkes and Xia, NeurIPS 2014). Two seats held by the
same player give no comparison.

The summed wins ``C[a, b]`` go to `choix.ilsr_pairwise_dense` (the maximum
likelihood Bradley-Terry strengths; ``alpha`` adds a tiny pseudo-count to every
pair so an unbeaten player stays finite). Ratings are on the Elo scale, ``P(a
beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``, shifted so the anchor (a
baseline) is 0. The standard error of a rating is the spread of the refits over
``bootstrap`` resamples of the deals (each table's deals drawn with replacement,
its seat rotations kept together since they share the deal's cards): the SE of
the rating's difference to the anchor, so the anchor's own is 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from isz.types import IszError

ELO = 400 / math.log(10)  # Elo points per unit of log-strength
ALPHA = 1e-3  # pseudo-count per ordered pair (against thousands of games: negligible)


@dataclass(frozen=True)
class TableGames:
    """The games of one table.

    players: the player of each seat position (names may repeat).
    scores: float64 ``[deals, rotations, positions]``, each game's score of each
        position (`isz.evaluation.play.DealOutcome.scores`; higher = finished higher).
    """

    players: tuple[str, ...]
    scores: np.ndarray

    def wins(self) -> np.ndarray:
        """float64 ``[deals, positions, positions]``: per deal, the games (over its
        rotations) where position i finished above j, a tie counting 1/2."""
        s = self.scores
        diff = s[:, :, :, None] - s[:, :, None, :]
        won = (diff > 1e-9) + 0.5 * (np.abs(diff) <= 1e-9)
        same = np.array([[a == b for b in self.players] for a in self.players])
        return (won * ~same).sum(axis=1)  # a player against itself: no comparison


def comparison_matrix(tables: list[TableGames], index: dict[str, int],
                      wins: list[np.ndarray] | None = None,
                      picks: list[np.ndarray] | None = None) -> np.ndarray:
    """float64 ``[players, players]``: ``C[a, b]`` = wins of a over b, over the deals
    ``picks[t]`` of each table (default: all of them); ``wins``: the tables'
    `TableGames.wins`, when already computed."""
    c = np.zeros((len(index), len(index)))
    for t, table in enumerate(tables):
        w = table.wins() if wins is None else wins[t]
        w = w.sum(axis=0) if picks is None else w[picks[t]].sum(axis=0)
        ids = np.array([index[p] for p in table.players])
        np.add.at(c, (ids[:, None], ids[None, :]), w)
    return c


def strengths(c: np.ndarray) -> np.ndarray:
    """Bradley-Terry log-strengths (mean 0) of the comparison matrix ``c``."""
    import choix

    return choix.ilsr_pairwise_dense(c, alpha=ALPHA, max_iter=1000, tol=1e-10)


@dataclass(frozen=True)
class Ratings:
    """Elo ratings anchored at ``anchor`` (rating 0, SE 0); ``games``: comparisons
    each player took part in (a 3-seat game counts twice for each of its players)."""

    anchor: str
    rating: dict[str, float]
    se: dict[str, float]
    games: dict[str, float]
    bootstrap: int


def fit(tables: list[TableGames], anchor: str, bootstrap: int = 200,
        seed: int = 0) -> Ratings:
    """Ratings of every player of ``tables`` (see module docstring)."""
    names = sorted({p for t in tables for p in t.players})
    if anchor not in names:
        raise IszError(f"the anchor {anchor!r} played no game; players: {', '.join(names)}")
    index = {p: i for i, p in enumerate(names)}
    a = index[anchor]
    wins = [t.wins() for t in tables]
    c = comparison_matrix(tables, index, wins)
    s = strengths(c)
    point = ELO * (s - s[a])
    rng = np.random.default_rng(seed)
    draws = np.empty((bootstrap, len(names)))
    for b in range(bootstrap):
        picks = [rng.integers(0, len(t.scores), len(t.scores)) for t in tables]
        s = strengths(comparison_matrix(tables, index, wins, picks))
        draws[b] = ELO * (s - s[a])
    se = draws.std(axis=0, ddof=1) if bootstrap >= 2 else np.full(len(names), math.nan)
    played = c.sum(axis=0) + c.sum(axis=1)
    return Ratings(anchor, {p: float(point[i]) for p, i in index.items()},
                   {p: float(se[i]) for p, i in index.items()},
                   {p: float(played[i]) for p, i in index.items()}, bootstrap)


def connected(tables: list[TableGames]) -> bool:
    """Whether every player is linked to every other through shared tables (else the
    ratings of separate groups are not comparable)."""
    names = sorted({p for t in tables for p in t.players})
    parent = {p: p for p in names}

    def root(p):
        while parent[p] != p:
            p = parent[p]
        return p

    for t in tables:
        for p in t.players[1:]:
            parent[root(p)] = root(t.players[0])
    return len({root(p) for p in names}) <= 1
