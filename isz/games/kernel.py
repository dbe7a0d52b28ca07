"""The compiled rules of a game: the contract every search kernel relies on.

A game's state is a flat ``int64`` array (layout documented in the game's
module) and its configuration a flat ``int64`` array ``params``. The rules are
numba ``@njit`` functions over those arrays, so search, rollouts and samplers
run without per-node Python objects:

``current_player(s, params) -> int``
    Seat to move, `isz.types.CHANCE` or `isz.types.TERMINAL`.
``legal_actions(s, params, out) -> int``
    At a decision node, writes the legal actions (ascending) into
    ``out[:n]`` (``int64[num_actions]``) and returns ``n >= 1``.
``chance_outcomes(s, params, out_a, out_p) -> int``
    At a chance node, writes outcomes into ``out_a[:n]`` and their
    probabilities (summing to 1) into ``out_p[:n]`` (float64).
``apply_action(s, params, a) -> None``
    Applies a legal action or chance outcome in place (no legality check:
    the Python `State` checks).
``returns(s, params, out) -> None``
    At a terminal, writes one float64 per player in [-1, 1] into ``out``.
``observe(s, params, a, player) -> int``
    What ``player`` perceives when ``a`` is applied at ``s``: ``a`` itself
    when the action is seen exactly, otherwise a negative code shared by all
    the actions ``player`` cannot tell apart (e.g. ``-1`` for "a card was
    dealt to someone else"). Search trees label edges with these tokens, so
    a player's tree never branches on what that player cannot see.
``info_tensor(s, params, player, out) -> None``
    Writes ``player``'s information-state tensor (float32, flattened) into
    ``out``; a function of what ``player`` has observed only.
``redeterminize(s, params, player, rng, out) -> None``
    The game's uniform sampler: writes into ``out`` a state with the same
    view for ``player`` as ``s``, its hidden part redrawn uniformly with the
    kernel RNG (`isz.rng`). It must read only what ``player`` observed from
    ``s`` (canonically: same view + same rng state -> same output), which the
    no-leak test checks.
``action_score(s, params, player, a, w) -> float`` (optional)
    ``w · φ(s, player, a)``: move ``a`` of ``player`` in world ``s`` described by
    ``num_action_features`` numbers, scored by weights ``w`` (float64[F]); linear in
    ``w`` (a fit reads φ through unit vectors). A learned playout (search leaf
    ``policy``) plays move ``a`` with probability ∝ exp(score). Without it a move is
    described by its action id alone (F = ``num_actions``, ``φ`` one-hot). Features
    are only ever appended; ``earlier_action_features`` lists the F of earlier
    versions, whose fitted weights still play (the later features at weight 0).
``info_key(s, params, player) -> int`` (optional)
    A cheap integer that tells apart ``player``'s information states among
    worlds sharing one public history (e.g. the player's hand as a bitmask).
    MO trees branch on it at the root; without it they hash `info_tensor`.
``history(s, params, out) -> int`` (optional)
    Writes into ``out`` (``int64[max_game_length]``) the actions and chance outcomes
    that lead from the initial state to ``s``, in order, and returns how many. With it
    the ``replay`` belief can weigh a sampled world by the other seats' moves along
    its history (a policy's opponent model) on a game too big to enumerate.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from numba.extending import is_jitted

from isz.types import IszError


@dataclass(frozen=True)
class Kernel:
    """The numba-compiled rule functions of one game (see module docstring)."""

    current_player: Any
    legal_actions: Any
    chance_outcomes: Any
    apply_action: Any
    returns: Any
    observe: Any
    info_tensor: Any
    redeterminize: Any
    info_key: Any = None
    action_score: Any = None
    num_action_features: int = 0
    earlier_action_features: tuple[int, ...] = ()
    history: Any = None

    def __post_init__(self):
        # A plain Python function would only fail later, inside a compiled search,
        # as a numba TypingError that names neither the game nor the function.
        if (self.action_score is None) != (self.num_action_features == 0):
            raise IszError("kernel action_score and num_action_features go together: "
                           f"got num_action_features={self.num_action_features!r} with "
                           f"action_score={self.action_score!r}")
        for f in fields(self):
            fn = getattr(self, f.name)
            if f.name in ("num_action_features", "earlier_action_features") or (
                    fn is None and f.name in ("info_key", "action_score", "history")):
                continue
            if not is_jitted(fn):
                what = getattr(fn, "__qualname__", repr(fn))
                raise IszError(f"kernel function {f.name} ({what}) is not numba-compiled: "
                               "decorate it with @numba.njit (every kernel function must be)")
            _keep_reference_counting(fn)


def _keep_reference_counting(fn) -> None:
    """Compile ``fn`` with numba's reference counting wherever it is first typed.

    The search entry points compile without it (`isz.search.jit.entry`), and numba
    gives a callee that does not set the option its caller's: a rule function first
    typed from an entry (a cold kernel cache, a search before anything else) could then
    not allocate an array (numba: "Only accept returning of array passed into the
    function as argument"), and nor could what it calls. Set here, the option holds for
    the function and, inherited, for its callees. An entry never receives an array a
    rule function allocated (results go to ``out`` arguments), so nothing leaks.
    A dispatcher's ``targetoptions`` is the dict its compiler reads at each compile.
    """
    fn.targetoptions.setdefault("_nrt", True)
