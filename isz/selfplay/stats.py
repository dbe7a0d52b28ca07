"""What a chunk of self-play did: counts, clocks and the belief's diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from isz.selfplay.filter_stats import FilterStats


@dataclass
class SelfPlayStats:
    games: int = 0
    positions: int = 0  # searched decisions (with all_hands: the other hands' too)
    other_hands: int = 0  # of them, the all_hands rows of hands not held
    seconds: float = 0.0
    belief_seconds: float = 0.0  # of them, drawing worlds (and weighing sir pools)
    evaluations: int = 0
    batch_fill: float = 0.0  # mean fraction of slots evaluated per step
    belief_true_prob: list = field(default_factory=list)  # per sampled decision
    belief_entropy: list = field(default_factory=list)
    filters: FilterStats = field(default_factory=FilterStats)  # particle filters (recon)
    final_returns: np.ndarray | None = None  # float32[N, P]: every row's z (the positions'
    #   returns, before any value_target_q mix), for held-out value diagnostics

    @classmethod
    def combine(cls, parts: list[SelfPlayStats]) -> SelfPlayStats:
        """The stats of games played in ``parts`` (chunks, actors): counts summed, the
        per-decision records joined, batch fill averaged. Seconds, belief seconds and
        final returns are the caller's: how the parts' clocks add up depends on whether
        they ran side by side."""
        out = cls(games=sum(s.games for s in parts), positions=sum(s.positions for s in parts),
                  other_hands=sum(s.other_hands for s in parts),
                  evaluations=sum(s.evaluations for s in parts))
        out.batch_fill = float(np.mean([s.batch_fill for s in parts]))
        for s in parts:
            out.belief_true_prob += s.belief_true_prob
            out.belief_entropy += s.belief_entropy
            out.filters.merge(s.filters)
        return out

    def as_scalars(self) -> dict[str, float]:
        s = max(self.seconds, 1e-9)
        return {"positions_per_s": self.positions / s, "games_per_s": self.games / s,
                "batch_fill": self.batch_fill, "evaluations_per_s": self.evaluations / s,
                "belief_share": min(self.belief_seconds / s, 1.0)}

    def belief_scalars(self) -> dict[str, float]:
        """Means over the decisions where the belief was checked against the truth."""
        out = self.filters.scalars()
        if self.belief_true_prob:
            out.update({"true_state_probability": float(np.mean(self.belief_true_prob)),
                        "entropy": float(np.mean(self.belief_entropy))})
        return out
