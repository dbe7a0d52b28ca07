"""Exact poker posterior: the opponent's private card given the view and a policy.

Seed 003's belief under a joint policy: a history ``h`` consistent with the
view has probability proportional to its reach ``P_c(h) * P_opp(h) * P_me(h)``.
In two-player poker the histories consistent with one view differ only in the
opponent's private card ``c`` and ``P_me`` is the same for all of them (my
decisions depend on my view only), so

    P(c | view)  ∝  P_c(deal c, and the public cards seen) * P_opp(bets | c)

where ``P_opp`` multiplies the ``policy`` probabilities of the opponent's own
actions, each evaluated on the opponent's view in the candidate world. The
candidates are at most five cards, so the posterior is enumerated exactly by
replaying each candidate history through the checked `State` API.

Knob ``policy``: ``policy(view) -> float array[num_actions]`` (probabilities
over the game's action space); default uniform over the legal actions, which
makes every candidate equally likely (legal actions never depend on cards). If
the policy gives the observed betting zero probability under every candidate
(an opponent off-model), the posterior falls back to chance alone rather than
failing mid-game; ``fallbacks`` counts how often that happened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from isz.belief.base import Belief
from isz.games.base import Game, View
from isz.types import CHANCE, IszError


def _kuhn_history(s: np.ndarray) -> list[int]:
    """Kuhn state array -> the actions (chance included) that produced it."""
    return [int(c) for c in s[:2] if c >= 0] + s[3:3 + s[2]].tolist()


def _leduc_history(s: np.ndarray) -> list[int]:
    """Leduc state array -> actions: deals, round 1, public card, round 2."""
    h = [int(c) for c in s[:2] if c >= 0] + s[11:11 + s[9]].tolist()
    if s[2] >= 0:
        h.append(int(s[2]))
    return h + s[15:15 + s[10]].tolist()


@dataclass(frozen=True)
class _PokerLayout:
    """What the posterior needs to know of a poker game's state array."""

    num_cards: int
    public: int | None  # index of the public card in the state array (None: no board)
    history: Callable[[np.ndarray], list[int]]


LAYOUTS = {
    "kuhn_poker": _PokerLayout(3, None, _kuhn_history),
    "leduc_poker": _PokerLayout(6, 2, _leduc_history),
}


def check_supported(belief: str, game: Game, supported) -> None:
    """`IszError` naming the game and the supported ones unless ``game.name`` is one."""
    if game.name not in supported:
        raise IszError(f"belief {belief!r} does not support game {game.name!r}; "
                       f"supported: {', '.join(sorted(supported))}")


def uniform_policy(view: View) -> np.ndarray:
    """Uniform over ``view.legal_actions``: float64[num_actions]."""
    p = np.zeros(view.game.num_actions)
    p[list(view.legal_actions)] = 1.0 / len(view.legal_actions)
    return p


def _stratified(probs: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` indices with marginal law ``probs``, drawn by systematic sampling.

    Each index is still distributed as ``probs``, but the count of every
    candidate is within one of ``n * p``: a search over few worlds then sees
    each opponent card in proportion, instead of by luck (variance reduction
    of the searched values, not a change of their expectation).
    """
    u = (rng.random() + np.arange(n)) / n
    idx = np.minimum(np.searchsorted(np.cumsum(probs), u, side="right"), len(probs) - 1)
    return rng.permutation(idx)


class PosteriorBelief(Belief):
    """Exact posterior over the opponent's card (kuhn_poker, leduc_poker)."""

    name = "posterior"
    KNOBS = {"policy": None}

    def __init__(self, game: Game, policy: Callable[[View], np.ndarray] | None = None):
        check_supported(self.name, game, LAYOUTS)
        if policy is not None and not callable(policy):
            raise IszError(f"policy must be a callable policy(view) -> probabilities, "
                           f"got {policy!r}")
        super().__init__(game)
        self.layout = LAYOUTS[game.name]
        self.policy = policy or uniform_policy
        self.fallbacks = 0
        self._key = None
        self._cache: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def reset(self) -> None:
        # a trainer may have changed the policy between games: recompute
        self._key, self._cache = None, None

    def posterior(self, view: View) -> dict[int, float]:
        """``{opponent card: probability}``; ``{-1: 1.0}`` before it is dealt."""
        _, cards, probs = self._solve(view)
        return dict(zip(cards.tolist(), probs.tolist(), strict=True))

    def sample_many(self, view: View, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` worlds, int64[n, state_size]: the template with a posterior card."""
        template, cards, probs = self._solve(view)
        out = np.tile(template, (n, 1))
        if cards[0] >= 0:
            out[:, 1 - view.player] = cards[_stratified(probs, n, rng)]
        return out

    # -- enumeration ---------------------------------------------------
    def _solve(self, view: View) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(template int64[state_size], candidate cards int64[k], probs float64[k])."""
        if view.key != self._key:
            self._cache = self._enumerate(view)
            self._key = view.key
        return self._cache

    def _enumerate(self, view: View):
        template = self.game.state_from_view(view).data
        opp = 1 - view.player
        if template[opp] < 0:  # not dealt yet: nothing hidden
            return template, np.array([-1]), np.array([1.0])
        seen = {int(template[view.player])}
        if self.layout.public is not None:
            seen.add(int(template[self.layout.public]))
        cards = np.array([c for c in range(self.layout.num_cards) if c not in seen])
        chance = np.empty(len(cards))
        opp_reach = np.empty(len(cards))
        for i, c in enumerate(cards):
            s = template.copy()
            s[opp] = c
            chance[i], opp_reach[i] = self._reach(self.layout.history(s), opp)
        w = chance * opp_reach
        if w.sum() <= 0.0:
            self.fallbacks += 1
            w = chance
        return template, cards, w / w.sum()

    def _reach(self, history: list[int], opp: int) -> tuple[float, float]:
        """(chance reach, opponent reach) of ``history`` replayed from the start."""
        state = self.game.new_initial_state()
        chance = mine = 1.0
        for a in history:
            cur = state.current_player()
            if cur == CHANCE:
                chance *= dict(state.chance_outcomes())[a]
            elif cur == opp:
                mine *= self._prob(state.view(opp), a)
            state.apply_action(a)
        return chance, mine

    def _prob(self, view: View, action: int) -> float:
        p = np.asarray(self.policy(view), dtype=np.float64)
        if p.shape != (self.game.num_actions,) or not np.all(np.isfinite(p)) \
                or np.any(p < 0):
            raise IszError(f"policy must return {self.game.num_actions} finite probabilities "
                           f">= 0, got {p!r}")
        return float(p[action])
