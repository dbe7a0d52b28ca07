"""Beliefs: determinization samplers over a view (knows games, not search)."""

from isz.belief.base import Belief
from isz.belief.particle import BayesBelief, ParticleBelief
from isz.belief.poker import PosteriorBelief
from isz.belief.registry import belief_names, make_belief
from isz.belief.uniform import UniformBelief

__all__ = ["BayesBelief", "Belief", "ParticleBelief", "PosteriorBelief",
           "UniformBelief", "belief_names", "make_belief"]
