"""Name -> belief registry: `make_belief("uniform", game)`."""

from __future__ import annotations

from collections.abc import Callable

from isz.belief.base import Belief
from isz.belief.gibbs import GibbsBelief
from isz.belief.particle import BayesBelief, ParticleBelief
from isz.belief.posterior import PosteriorBelief
from isz.belief.replay import ReplayBelief
from isz.belief.sir import SIRBelief
from isz.belief.uniform import UniformBelief
from isz.belief.voids import VoidsBelief
from isz.games.base import Game
from isz.types import IszError

_BELIEFS: dict[str, Callable[..., Belief]] = {
    "uniform": UniformBelief,
    "posterior": PosteriorBelief,
    "particle": ParticleBelief,
    "bayes": BayesBelief,
    "voids": VoidsBelief,
    "gibbs": GibbsBelief,
    "sir": SIRBelief,
    "replay": ReplayBelief,
}


def register_belief(name: str, factory: Callable[..., Belief], *,
                    replace: bool = False) -> None:
    """Make ``factory(game, **knobs) -> Belief`` available as belief ``name``.

    The factory validates its own knobs (a ``KNOBS`` dict attribute of accepted
    names -> defaults lets the registry name unknown ones). A taken name raises
    `IszError` unless ``replace=True``.
    """
    if not isinstance(name, str) or not name or not callable(factory):
        raise IszError(f"register_belief needs a name and a callable factory, got "
                       f"{name!r}, {factory!r}")
    if name in _BELIEFS and _BELIEFS[name] is not factory and not replace:
        raise IszError(f"belief name {name!r} is already registered; pick another name "
                       "or pass replace=True")
    _BELIEFS[name] = factory


AUTO = "auto"
# `auto`, in order of preference: the first belief that supports the game. With the
# network's policy: one that weighs histories by it (the network's own opponent
# model), else the best knowledge-free one; without: the best knowledge-free one.
AUTO_NETWORK = ("sir", "particle", "posterior", "replay", "voids", "uniform")
AUTO_ROLLOUT = ("voids", "uniform")


def belief_names() -> list[str]:
    return sorted([*_BELIEFS, AUTO])


def resolve_belief(name: str, game: Game, network: bool = False) -> str:
    """The belief ``name`` stands for on ``game``: itself, or for ``auto`` the first of
    `AUTO_NETWORK` (``network``: a policy will weigh it) or `AUTO_ROLLOUT` that
    supports the game (a belief refuses a game it does not support with `IszError`:
    voids/sir the trick games, particle recon, posterior games small enough to
    enumerate, replay games whose kernel has `history`)."""
    if name != AUTO:
        return name
    key = (game, network)
    if key not in _RESOLVED:  # building a belief may enumerate the game (posterior)
        _RESOLVED[key] = next(c for c in (*(AUTO_NETWORK if network else AUTO_ROLLOUT),
                                          "uniform") if _supports(c, game))
    return _RESOLVED[key]


_RESOLVED: dict[tuple[Game, bool], str] = {}


def _supports(name: str, game: Game) -> bool:
    try:
        _BELIEFS[name](game)
    except IszError:
        return False
    return True


def belief_knobs(name: str) -> dict:
    """Knob names -> defaults of belief ``name`` (empty when unknown or none)."""
    return dict(getattr(_BELIEFS.get(name), "KNOBS", None) or {})


def make_belief(name: str, game: Game, **knobs) -> Belief:
    """Build a registered belief for ``game`` (``auto``: `resolve_belief` without a
    policy); unknown names or knobs raise `IszError`."""
    name = resolve_belief(name, game)
    if name not in _BELIEFS:
        raise IszError(f"unknown belief {name!r}; allowed: {', '.join(belief_names())}")
    # a factory without KNOBS validates its own knobs; "uniform" takes none
    allowed = getattr(_BELIEFS[name], "KNOBS", {} if name == "uniform" else None)
    unknown = [] if allowed is None else sorted(set(knobs) - set(allowed))
    if unknown:
        raise IszError(f"unknown knob(s) {', '.join(unknown)} for belief {name!r}; "
                       f"allowed: {', '.join(sorted(allowed)) or '(none)'}")
    return _BELIEFS[name](game, **knobs)
