"""Beliefs: determinization samplers over a view (knows games, not search)."""

from isz.belief.base import Belief
from isz.belief.gibbs import GibbsBelief
from isz.belief.particle import BayesBelief, ParticleBelief
from isz.belief.posterior import PosteriorBelief
from isz.belief.registry import belief_names, make_belief, register_belief
from isz.belief.replay import ReplayBelief
from isz.belief.sir import SIRBelief
from isz.belief.uniform import UniformBelief
from isz.belief.voids import VoidsBelief

__all__ = ["BayesBelief", "Belief", "GibbsBelief", "ParticleBelief", "PosteriorBelief",
           "ReplayBelief", "SIRBelief", "UniformBelief", "VoidsBelief", "belief_names",
           "make_belief", "register_belief"]
