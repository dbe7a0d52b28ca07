"""Self-play diagnostics of particle-filter beliefs (TensorBoard ``belief/``).

The trainer knows the true state, so at every decision of a seat whose belief
is a particle filter (the recon's ``particle`` belief, once the adversary is
placed) it records the filter's effective sample size, the probability its
slot marginal gives the adversary's true slot, and that marginal's entropy;
and, from the filter's counters, how often it resampled per reading weighed
in. Reading the marginal cannot change the filter: its particles are a
function of the view (`isz.belief.particle`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from isz.belief.diagnostics import entropy, true_state_probability


def is_filter(belief) -> bool:
    """Whether ``belief`` is a particle filter with the counters read here."""
    return all(hasattr(belief, k) for k in ("ess", "stats", "marginal", "filtered"))


@dataclass
class FilterStats:
    """Per-decision records of the filters; `scalars` gives their means."""

    ess: list = field(default_factory=list)  # effective sample size, in particles
    ess_fraction: list = field(default_factory=list)  # ess / particles
    true_slot: list = field(default_factory=list)  # marginal probability of the true slot
    entropy: list = field(default_factory=list)  # nats, of the slot marginal
    resamples: int = 0
    readings: int = 0

    def record(self, belief, view, state, counters_before: np.ndarray) -> None:
        """After ``belief`` answered ``view`` (true state ``state``): one record, plus
        the resamples and readings since ``counters_before`` (a copy of its stats)."""
        delta = belief.stats - counters_before
        self.resamples += int(delta[0])
        self.readings += int(delta[2])
        if not belief.filtered(view):  # the adversary's seat, or nothing placed yet
            return
        marginal = belief.marginal(view)
        self.ess.append(belief.ess)
        self.ess_fraction.append(belief.ess / belief.n_particles)
        self.true_slot.append(true_state_probability(belief, view, state))
        self.entropy.append(entropy(marginal))

    def merge(self, other: FilterStats) -> None:
        """Add ``other``'s records (stats of several self-play actors)."""
        for k in ("ess", "ess_fraction", "true_slot", "entropy"):
            getattr(self, k).extend(getattr(other, k))
        self.resamples += other.resamples
        self.readings += other.readings

    def scalars(self) -> dict[str, float]:
        """``ess``, ``ess_fraction``, ``true_slot_probability``, ``slot_entropy`` (means
        over decisions) and ``resample_rate`` (resamples per reading); {} if none."""
        if not self.ess:
            return {}
        return {"ess": float(np.mean(self.ess)), "ess_fraction": float(np.mean(self.ess_fraction)),
                "true_slot_probability": float(np.mean(self.true_slot)),
                "slot_entropy": float(np.mean(self.entropy)),
                "resample_rate": self.resamples / max(self.readings, 1)}
