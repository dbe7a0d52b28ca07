"""The record of a match: per-agent scores with standard errors, and a text table."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from isz.evaluation.play import seat_of
from isz.evaluation.scoring import mean_and_se


@dataclass(frozen=True)
class AgentResult:
    """How one agent (one position of the ``agents`` list) did over a match.

    Attributes:
        name: the agent's ``name``.
        score: mean score per game (win 1, tie 0.5, loss 0; see `isz.evaluation.scoring`).
        score_se: its standard error over deals (NaN with one deal).
        utility: mean raw utility per game (``returns * game.utility_scale``).
        utility_se: its standard error over deals.
        games: games played (every agent plays every game).
        seat_scores: mean score in each seat, float per seat (first-mover effects).
        decisions: decisions the agent made over the match.
        seconds_per_decision: mean wall seconds per decision (noisy on a shared
            machine: other processes slow every agent, not always equally).
        simulations_per_decision: mean search simulations (iterations) per
            decision; 0 for an agent that does not search.
        stats: name -> (mean per game, SE over deals) of ``win_share`` and the
            game's `Game.outcome_stats` (Oh Hell: ``points``, ``exact_bid``).
    """

    name: str
    score: float
    score_se: float
    utility: float
    utility_se: float
    games: int
    seat_scores: tuple[float, ...]
    decisions: int = 0
    seconds_per_decision: float = math.nan
    simulations_per_decision: float = math.nan
    stats: dict[str, tuple[float, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class MatchResult:
    """Outcome of `isz.evaluation.match`.

    Attributes:
        game: the game's ``spec`` (name and params), plus ``preset`` when it
            was made from a preset (``oh_hell``).
        agents: one `AgentResult` per position of the ``agents`` list.
        deals, rotations: deals played, and seat rotations per deal.
        games: ``deals * rotations``.
        seed, workers: as passed to `match` (`play_match`: the backend's
            workers that played this call's deals).
        wall_time_s, games_per_s: elapsed time and throughput (of the games
            played by this call: a resumed match's journal deals excluded).
        resumed: deals taken from a journal instead of played (`play_match`).
        backend: where the deals were played: ``local`` or ``ray``.
        deal_scores: float64 ``[deals, agents]``, each agent's mean score per
            deal (over rotations); the samples behind ``score_se``, kept for
            paired comparisons (not in `to_dict`).
        deal_utilities: the same for utilities (the game's returns in its own
            unit, e.g. chips): the samples behind ``utility_se``.
    """

    game: dict
    agents: tuple[AgentResult, ...]
    deals: int
    rotations: int
    games: int
    seed: int
    workers: int
    wall_time_s: float
    games_per_s: float
    deal_scores: np.ndarray = field(repr=False, compare=False)
    deal_utilities: np.ndarray = field(repr=False, compare=False)
    resumed: int = 0
    backend: str = "local"

    @classmethod
    def from_deals(cls, game, names, scores: np.ndarray, utils: np.ndarray, *, seed: int,
                   workers: int, wall_time_s: float,
                   work: np.ndarray | None = None,
                   stats: dict[str, np.ndarray] | None = None, resumed: int = 0,
                   backend: str = "local") -> MatchResult:
        """Aggregate ``scores``/``utils`` and each of ``stats``, float64 ``[deals,
        rotations, agents]``, and ``work``, float64 ``[agents, 3]`` (decisions,
        seconds, simulations summed)."""
        deals, rotations, n = scores.shape
        deal_scores = scores.mean(axis=1)
        score, score_se = mean_and_se(deal_scores)
        deal_utilities = utils.mean(axis=1)
        utility, utility_se = mean_and_se(deal_utilities)
        work = np.zeros((n, 3)) if work is None else work
        per_stat = {k: mean_and_se(v.mean(axis=1)) for k, v in (stats or {}).items()}
        per = np.maximum(work[:, 0], 1.0)
        agents = tuple(
            AgentResult(
                name=names[i], score=float(score[i]), score_se=float(score_se[i]),
                utility=float(utility[i]), utility_se=float(utility_se[i]),
                games=deals * rotations, seat_scores=_seat_scores(scores, i),
                decisions=int(work[i, 0]),
                seconds_per_decision=float(work[i, 1] / per[i]) if work[i, 0] else math.nan,
                simulations_per_decision=float(work[i, 2] / per[i]) if work[i, 0] else math.nan,
                stats={k: (float(m[i]), float(se[i])) for k, (m, se) in per_stat.items()})
            for i in range(n))
        games = deals * rotations
        info = dict(game.spec)
        if game.preset:
            info["preset"] = game.preset
        played = (deals - resumed) * rotations
        return cls(game=info, agents=agents, deals=deals, rotations=rotations,
                   games=games, seed=seed, workers=workers, wall_time_s=wall_time_s,
                   games_per_s=played / wall_time_s if wall_time_s > 0 else math.inf,
                   deal_scores=deal_scores, deal_utilities=deal_utilities,
                   resumed=resumed, backend=backend)

    def to_dict(self) -> dict:
        """JSON-able summary (NaN and infinity become None)."""
        return {
            "game": self.game, "deals": self.deals, "rotations": self.rotations,
            "games": self.games, "seed": self.seed, "workers": self.workers,
            "backend": self.backend, "resumed_deals": self.resumed,
            "wall_time_s": _finite(self.wall_time_s), "games_per_s": _finite(self.games_per_s),
            "agents": [
                {"name": a.name, "score": _finite(a.score), "score_se": _finite(a.score_se),
                 "utility": _finite(a.utility), "utility_se": _finite(a.utility_se),
                 "games": a.games, "seat_scores": [_finite(s) for s in a.seat_scores],
                 "decisions": a.decisions,
                 "seconds_per_decision": _finite(a.seconds_per_decision),
                 "simulations_per_decision": _finite(a.simulations_per_decision),
                 "stats": {k: {"mean": _finite(m), "se": _finite(se)}
                           for k, (m, se) in a.stats.items()}}
                for a in self.agents],
            "paired": self.paired(),
        }

    def paired(self, measure: str = "score") -> list[dict]:
        """Every pair of agents (i < j): the mean over deals of agent i's deal score
        (``measure="utility"``: its utility, the game's returns in their own unit)
        minus agent j's, and its SE from the per-deal differences (the two scores
        of a deal are correlated, so this is not the SEs of the two scores added)."""
        per_deal = {"score": self.deal_scores, "utility": self.deal_utilities}[measure]
        out = []
        n = len(self.agents)
        for i in range(n):
            for j in range(i + 1, n):
                d = (per_deal[:, i] - per_deal[:, j])[:, None]
                m, se = mean_and_se(d)
                out.append({"a": self.agents[i].name, "b": self.agents[j].name,
                            "diff": _finite(float(m[0])), "se": _finite(float(se[0]))})
        return out

    def table(self) -> str:
        """A readable text table, one row per agent."""
        name = self.game.get("preset", self.game["name"])
        head = (f"{name}: {self.deals} deals x {self.rotations} seatings = {self.games} games, "
                f"seed {self.seed}, {self.wall_time_s:.1f}s ({self.games_per_s:.1f} games/s)")
        if self.resumed:
            head += f", {self.resumed} deals resumed from the journal"
        width = max(5, *(len(a.name) for a in self.agents))
        cols = f"{'#':>2}  {'agent':<{width}}  {'score':>6} {'±SE':>6}  " \
               f"{'utility':>8} {'±SE':>7}  {'games':>6}  {'s/move':>7} {'sims/move':>9}  " \
               f"by seat"
        rows = [head, cols]
        for i, a in enumerate(self.agents):
            seats = " ".join(f"{s:.3f}" for s in a.seat_scores)
            rows.append(f"{i:>2}  {a.name:<{width}}  {a.score:6.3f} {a.score_se:6.3f}  "
                        f"{a.utility:+8.3f} {a.utility_se:7.3f}  {a.games:>6}  "
                        f"{a.seconds_per_decision:7.4f} {a.simulations_per_decision:9.1f}  "
                        f"{seats}")
        rows += [f"{i:>2}  {a.name:<{width}}  " + "  ".join(
            f"{k} {m:.3f} ± {se:.3f}" for k, (m, se) in a.stats.items())
            for i, a in enumerate(self.agents) if a.stats]
        return "\n".join(rows)


def _seat_scores(scores: np.ndarray, i: int) -> tuple[float, ...]:
    rotations, n = scores.shape[1], scores.shape[2]
    by_seat = [0.0] * n
    for rot in range(rotations):
        by_seat[seat_of(i, rot, n)] = float(scores[:, rot, i].mean())
    return tuple(by_seat)


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None
