"""Leduc hold'em, exactly as OpenSpiel's ``leduc_poker`` (2 players).

Six cards, J Q K in two suits: card ``c`` has rank ``c // 2`` (so 0, 1 are the
jacks, 4, 5 the kings). Each player antes 1. Chance deals player 0's private
card, then player 1's (uniform over the cards left); each sees only its own.
A betting round follows (player 0 first), then chance turns one public card,
then a second betting round (player 0 first again). Raises are 2 in the first
round and 4 in the second, at most 2 per round. Actions: 0 fold, 1 call/check,
2 raise. As in OpenSpiel, fold is legal only when facing a bet; a call ends the
round unless it is the round's first action. At showdown a pair with the public
card wins, else the higher rank; equal ranks split the pot. Chip utilities lie
in [-13, 13]; `returns()` = chips / 13 (``utility_scale`` = 13).

State array (int64[19]): ``s[0:2]`` private cards (-1 = not dealt), ``s[2]``
public card (-1), ``s[3]`` betting rounds completed (0..2), ``s[4]`` seat to
bet, ``s[5]`` raises in the current round, ``s[6:8]`` chips each player has put
in, ``s[8]`` the seat that folded (-1), ``s[9:11]`` number of actions in round
1 and 2, ``s[11:15]`` round-1 actions, ``s[15:19]`` round-2 actions.

View data: ``(own card, cards dealt so far (0..3), public card or -1, number of
round-1 actions, round-1 actions..., round-2 actions...)``.

Tensor (float32[38]): own card one-hot (6), public card one-hot (6), for each
round r and slot k < 4 a one-hot of (fold, call, raise) at ``12 + 12r + 3k``
(24), player one-hot (2).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz.games.base import Game, State, View
from isz.games.kernel import Kernel
from isz.games.registry import register
from isz.rng import rand_below
from isz.types import CHANCE, TERMINAL

FOLD, CALL, RAISE = 0, 1, 2
NUM_CARDS = 6
_RANKS = "JQK"
_SUITS = "sh"
_ACTS = "fcr"


@nb.njit(cache=True)
def _current_player(s, params):
    if s[1] < 0:
        return CHANCE
    if s[8] >= 0 or s[3] == 2:
        return TERMINAL
    if s[3] == 1 and s[2] < 0:
        return CHANCE
    return s[4]


@nb.njit(cache=True)
def _legal_actions(s, params, out):
    p = s[4]
    n = 0
    if s[6 + p] < s[7 - p]:  # fold only when facing a bet (OpenSpiel)
        out[n] = FOLD
        n += 1
    out[n] = CALL
    n += 1
    if s[5] < 2:
        out[n] = RAISE
        n += 1
    return n


@nb.njit(cache=True)
def _chance_outcomes(s, params, out_a, out_p):
    n = 0
    for c in range(NUM_CARDS):
        if c != s[0] and c != s[1]:
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
    elif s[3] == 1 and s[2] < 0:
        s[2] = a
        s[4] = 0
        s[5] = 0
    else:
        r = s[3]
        p = s[4]
        k = s[9 + r]
        s[11 + 4 * r + k] = a
        s[9 + r] = k + 1
        if a == FOLD:
            s[8] = p
        elif a == CALL:
            s[6 + p] = s[7 - p]
            if k >= 1:
                s[3] = r + 1
        else:
            s[6 + p] = s[7 - p] + (2 if r == 0 else 4)
            s[5] += 1
        s[4] = 1 - p


@nb.njit(cache=True)
def _hand_strength(card, public):
    rank = card // 2
    return rank + (10 if rank == public // 2 else 0)


@nb.njit(cache=True)
def _returns(s, params, out):
    if s[8] >= 0:
        f = s[8]
        out[f] = -s[6 + f] / 13.0
        out[1 - f] = s[6 + f] / 13.0
        return
    h0 = _hand_strength(s[0], s[2])
    h1 = _hand_strength(s[1], s[2])
    if h0 == h1:
        out[0] = 0.0
        out[1] = 0.0
    else:
        win = 0 if h0 > h1 else 1
        out[win] = s[7 - win] / 13.0
        out[1 - win] = -s[7 - win] / 13.0


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
    if s[player] >= 0:
        out[s[player]] = 1.0
    if s[2] >= 0:
        out[6 + s[2]] = 1.0
    for r in range(2):
        for k in range(s[9 + r]):
            out[12 + 12 * r + 3 * k + s[11 + 4 * r + k]] = 1.0
    out[36 + player] = 1.0


@nb.njit(cache=True)
def _redeterminize(s, params, player, rng, out):
    out[:] = s
    other = 1 - player
    if s[other] >= 0:
        # uniform over the cards the observer has not seen (own and public excluded)
        own = s[player]
        pub = s[2]
        n_free = NUM_CARDS - (1 if own >= 0 else 0) - (1 if pub >= 0 else 0)
        k = rand_below(rng, n_free)
        for c in range(NUM_CARDS):
            if c != own and c != pub:
                if k == 0:
                    out[other] = c
                    break
                k -= 1


@nb.njit(cache=True)
def _history(s, params, out):
    """The private cards, round 1's actions, the public card, round 2's actions."""
    n = 0
    for i in range(2):
        if s[i] < 0:
            return n
        out[n] = s[i]
        n += 1
    for k in range(s[9]):
        out[n] = s[11 + k]
        n += 1
    if s[2] < 0:
        return n
    out[n] = s[2]
    n += 1
    for k in range(s[10]):
        out[n] = s[15 + k]
        n += 1
    return n


KERNEL = Kernel(_current_player, _legal_actions, _chance_outcomes, _apply_action,
                _returns, _observe, _info_tensor, _redeterminize, history=_history)


def card_name(card: int) -> str:
    return "?" if card < 0 else _RANKS[card // 2] + _SUITS[card % 2]


@register
class LeducPoker(Game):
    """Two-player Leduc hold'em (OpenSpiel rules)."""

    name = "leduc_poker"
    PARAMS = {}

    def __init__(self, **params):
        super().__init__(**params)
        self.num_players = 2
        self.num_actions = 3
        self.max_chance_outcomes = NUM_CARDS
        self.state_size = 19
        self.tensor_shape = (38,)
        self.max_game_length = 11  # 3 deals + at most 4 bets in each round
        self.utility_scale = 13.0
        self.kernel = KERNEL
        self.kparams = np.zeros(1, dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        s = np.full(19, -1, dtype=np.int64)
        s[3:8] = (0, 0, 0, 1, 1)
        s[9:11] = 0
        return s

    def view_data(self, state: State, player: int) -> tuple:
        s = state.data
        dealt = int((s[:3] >= 0).sum())
        n0, n1 = int(s[9]), int(s[10])
        return (int(s[player]), dealt, int(s[2]), n0,
                *s[11:11 + n0].tolist(), *s[15:15 + n1].tolist())

    def state_from_view(self, view: View) -> State:
        own, dealt, public, n0, *bets = view.data
        opp = min(c for c in range(NUM_CARDS) if c not in (own, public))
        s = self.initial_data()
        apply = self.kernel.apply_action
        deals = [own if view.player == p else opp for p in range(2)] + [public]
        # replay in the real order so the derived fields (stakes, turn) are right
        for a in deals[:min(dealt, 2)] + bets[:n0]:
            apply(s, self.kparams, a)
        if dealt == 3:
            apply(s, self.kparams, public)
        for a in bets[n0:]:
            apply(s, self.kparams, a)
        return State(self, s)

    def action_to_string(self, action: int, player: int) -> str:
        if player == CHANCE:
            return "deal " + card_name(action)
        return ("fold", "call", "raise")[action]

    def describe_view(self, view: View) -> str:
        own, _, public, n0, *bets = view.data
        s = self.state_from_view(view).data  # for the public stakes only
        rounds = [", ".join(f"P{i % 2} {('fold', 'call', 'raise')[a]}"
                            for i, a in enumerate(r)) or "-" for r in (bets[:n0], bets[n0:])]
        return (f"your card: {card_name(own)}   public card: "
                f"{card_name(public) if public >= 0 else '(not yet)'}\n"
                f"round 1: {rounds[0]}\nround 2: {rounds[1]}\n"
                f"chips in the pot: P0 {s[6]}, P1 {s[7]}")

    def describe(self, state: State) -> str:
        s = state.data
        rounds = ["".join(_ACTS[a] for a in s[11 + 4 * r:11 + 4 * r + s[9 + r]]) or "-"
                  for r in range(2)]
        return (f"cards {card_name(s[0])} {card_name(s[1])} public {card_name(s[2])} "
                f"bets {rounds[0]}/{rounds[1]} pot {s[6]}+{s[7]}")
