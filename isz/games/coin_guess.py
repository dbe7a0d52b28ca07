"""CoinGuess (seed 000): take a sure 0.6, or gamble and then call a hidden coin.

The coin is flipped by chance first and never shown. Scores in the seed's
convention: safe 0.6, right guess 1, wrong guess 0; `returns()` maps a score
``x`` to ``2x - 1`` (so safe = 0.2, right = 1, wrong = -1).

Actions: 0 safe, 1 gamble, 2 guess heads, 3 guess tails. Chance: 0 heads, 1 tails.

State array (int64[3]): ``[coin (-1 unflipped, 0 H, 1 T), first move (-1, 0 safe,
1 gamble), guess (-1, 0 H, 1 T)]``.

View data: ``(coin flipped?, first move, guess)``. Tensor (float32[2]): ``[gambled, chose safe]``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz.games.base import Game, State, View
from isz.games.kernel import Kernel
from isz.games.registry import register
from isz.rng import rand_below
from isz.types import CHANCE, TERMINAL

SAFE, GAMBLE, GUESS_H, GUESS_T = 0, 1, 2, 3
_NAMES = ("safe", "gamble", "guess H", "guess T")


@nb.njit(cache=True)
def _current_player(s, params):
    if s[0] < 0:
        return CHANCE
    if s[1] == SAFE or s[2] >= 0:
        return TERMINAL
    return 0


@nb.njit(cache=True)
def _legal_actions(s, params, out):
    if s[1] < 0:
        out[0] = SAFE
        out[1] = GAMBLE
    else:
        out[0] = GUESS_H
        out[1] = GUESS_T
    return 2


@nb.njit(cache=True)
def _chance_outcomes(s, params, out_a, out_p):
    out_a[0] = 0
    out_a[1] = 1
    out_p[0] = 0.5
    out_p[1] = 0.5
    return 2


@nb.njit(cache=True)
def _apply_action(s, params, a):
    if s[0] < 0:
        s[0] = a
    elif s[1] < 0:
        s[1] = a
    else:
        s[2] = a - GUESS_H


@nb.njit(cache=True)
def _returns(s, params, out):
    if s[1] == SAFE:
        out[0] = 0.2
    elif s[2] == s[0]:
        out[0] = 1.0
    else:
        out[0] = -1.0


@nb.njit(cache=True)
def _observe(s, params, a, player):
    return -1 if s[0] < 0 else a  # the coin is never seen


@nb.njit(cache=True)
def _info_tensor(s, params, player, out):
    out[0] = 1.0 if s[1] == GAMBLE else 0.0
    out[1] = 1.0 if s[1] == SAFE else 0.0


@nb.njit(cache=True)
def _redeterminize(s, params, player, rng, out):
    out[:] = s
    if s[0] >= 0:
        out[0] = rand_below(rng, 2)


KERNEL = Kernel(_current_player, _legal_actions, _chance_outcomes, _apply_action,
                _returns, _observe, _info_tensor, _redeterminize)


@register
class CoinGuess(Game):
    """One player, a hidden coin: the minimal strategy-fusion trap."""

    name = "coin_guess"
    PARAMS = {}

    def __init__(self, **params):
        super().__init__(**params)
        self.num_players = 1
        self.num_actions = 4
        self.max_chance_outcomes = 2
        self.state_size = 3
        self.tensor_shape = (2,)
        self.max_game_length = 3
        self.kernel = KERNEL
        self.kparams = np.zeros(1, dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        return np.array([-1, -1, -1], dtype=np.int64)

    def view_data(self, state: State, player: int) -> tuple:
        return (int(state.data[0] >= 0), int(state.data[1]), int(state.data[2]))

    def state_from_view(self, view: View) -> State:
        flipped, first, guess = view.data
        coin = 0 if flipped else -1
        return State(self, np.array([coin, first, guess], dtype=np.int64))

    def action_to_string(self, action: int, player: int) -> str:
        if player == CHANCE:
            return "coin " + "HT"[action]
        return _NAMES[action]

    def describe_view(self, view: View) -> str:
        _, first, guess = view.data
        done = [_NAMES[first]] if first >= 0 else []
        done += [_NAMES[guess + GUESS_H]] if guess >= 0 else []
        return f"the coin is flipped and hidden; so far: {', '.join(done) or '-'}"

    def describe(self, state: State) -> str:
        coin, first, guess = state.data.tolist()
        parts = ["coin " + ("?" if coin < 0 else "HT"[coin])]
        if first >= 0:
            parts.append(_NAMES[first])
        if guess >= 0:
            parts.append(_NAMES[guess + GUESS_H])
        return ", ".join(parts)
