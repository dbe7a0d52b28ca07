"""Kuhn poker (standard rules): 3 cards J < Q < K, ante 1, one bet of 1.

Chance deals player 0's card, then player 1's (each uniform over the cards
left); each sees only its own. Actions: 0 pass (check/fold), 1 bet (bet/call).
Histories end at pp, bb, pbb (showdown) or bp, pbp (fold). Chip utilities are
in [-2, 2]; `returns()` = chips / 2 (``utility_scale`` = 2).

State array (int64[6]): ``s[0:2]`` cards (-1 = not dealt), ``s[2]`` number of
betting actions, ``s[3:6]`` the actions.

View data: ``(own card, cards dealt so far, betting actions...)``. Tensor (float32[11]):
own card one-hot (3) + for each of the 3 betting slots a one-hot of
(pass, bet) (6) + player one-hot (2).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz.games.base import Game, State, View
from isz.games.kernel import Kernel
from isz.games.registry import register
from isz.rng import rand_below
from isz.types import CHANCE, TERMINAL

PASS, BET = 0, 1
_CARDS = "JQK"


@nb.njit(cache=True)
def _is_over(s):
    n = s[2]
    if n < 2:
        return False
    if n == 2:
        return not (s[3] == PASS and s[4] == BET)  # pb continues
    return True


@nb.njit(cache=True)
def _current_player(s, params):
    if s[1] < 0:
        return CHANCE
    if _is_over(s):
        return TERMINAL
    return s[2] % 2


@nb.njit(cache=True)
def _legal_actions(s, params, out):
    out[0] = PASS
    out[1] = BET
    return 2


@nb.njit(cache=True)
def _chance_outcomes(s, params, out_a, out_p):
    n = 0
    for c in range(3):
        if c != s[0]:
            out_a[n] = c
            n += 1
    for i in range(n):
        out_p[i] = 1.0 / n
    return n


@nb.njit(cache=True)
def _apply_action(s, params, a):
    if s[0] < 0:
        s[0] = a
    elif s[1] < 0:
        s[1] = a
    else:
        s[3 + s[2]] = a
        s[2] += 1


@nb.njit(cache=True)
def _returns(s, params, out):
    n = s[2]
    last = s[2 + n]
    if n >= 2 and last == PASS and s[1 + n] == BET:
        # fold: the player who passed after a bet loses its ante
        loser = (n - 1) % 2
        out[loser] = -0.5
        out[1 - loser] = 0.5
        return
    stake = 2.0 if last == BET else 1.0
    win = 0 if s[0] > s[1] else 1
    out[win] = stake / 2.0
    out[1 - win] = -stake / 2.0


@nb.njit(cache=True)
def _observe(s, params, a, player):
    if s[0] < 0:
        return a if player == 0 else -1
    if s[1] < 0:
        return a if player == 1 else -1
    return a


@nb.njit(cache=True)
def _info_tensor(s, params, player, out):
    out[:] = 0.0
    card = s[player]
    if card >= 0:
        out[card] = 1.0
    for i in range(s[2]):
        out[3 + 2 * i + s[3 + i]] = 1.0
    out[9 + player] = 1.0


@nb.njit(cache=True)
def _redeterminize(s, params, player, rng, out):
    out[:] = s
    other = 1 - player
    if s[other] >= 0:
        # the other card is uniform over the cards the observer does not hold
        k = rand_below(rng, 3 if s[player] < 0 else 2)
        c = 0
        for card in range(3):
            if card != s[player]:
                if c == k:
                    out[other] = card
                c += 1


KERNEL = Kernel(_current_player, _legal_actions, _chance_outcomes, _apply_action,
                _returns, _observe, _info_tensor, _redeterminize)


@register
class KuhnPoker(Game):
    """Two-player Kuhn poker."""

    name = "kuhn_poker"
    PARAMS = {}

    def __init__(self, **params):
        super().__init__(**params)
        self.num_players = 2
        self.num_actions = 2
        self.max_chance_outcomes = 3
        self.state_size = 6
        self.tensor_shape = (11,)
        self.max_game_length = 5
        self.utility_scale = 2.0
        self.kernel = KERNEL
        self.kparams = np.zeros(1, dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        return np.array([-1, -1, 0, -1, -1, -1], dtype=np.int64)

    def view_data(self, state: State, player: int) -> tuple:
        s = state.data
        dealt = int(s[0] >= 0) + int(s[1] >= 0)
        return (int(s[player]), dealt, *s[3:3 + s[2]].tolist())

    def state_from_view(self, view: View) -> State:
        own, dealt, *bets = view.data
        s = self.initial_data()
        s[view.player] = own
        free = [c for c in range(3) if c != own]
        if dealt == 2 or (dealt == 1 and own < 0):
            s[1 - view.player] = free[0]
        s[2] = len(bets)
        s[3:3 + len(bets)] = bets
        return State(self, s)

    def action_to_string(self, action: int, player: int) -> str:
        if player == CHANCE:
            return "deal " + _CARDS[action]
        return ("pass", "bet")[action]

    def describe_view(self, view: View) -> str:
        own, _, *bets = view.data
        card = "?" if own < 0 else _CARDS[own]
        moves = ", ".join(f"P{i % 2} {('pass', 'bet')[a]}" for i, a in enumerate(bets))
        return f"your card: {card} (J < Q < K)\nbetting: {moves or '-'}"

    def describe(self, state: State) -> str:
        s = state.data
        cards = "".join("?" if c < 0 else _CARDS[c] for c in s[:2])
        bets = "".join("pb"[a] for a in s[3:3 + s[2]])
        return f"cards {cards} bets {bets or '-'}"
