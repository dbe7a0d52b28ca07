"""Liar's Dice for two: an isz game written outside the package (OpenSpiel's rules).

Each player rolls D dice with F faces and sees only their own. Then, from player
0, the players take turns to bid "there are at least q dice showing face f among
all 2D dice" (q in 1..2D, f in 1..F), each bid higher than the last, or to call
the last bid a lie. The highest face F is wild: it counts as any face (a bid on
face F counts only the Fs). On a call the dice are counted: if the bid holds the
caller loses, otherwise the bidder loses (+1 / -1). After the highest bid (2D
times face F) the only move left is the call. Tutorial: docs/adding_a_game.md.

Sequence: chance rolls player 0's dice one by one (seen by player 0 only), then
player 1's (seen by player 1 only); the other player observes each roll as a
token that carries no face. Then the bids and the call, seen by both.

Actions: the bid of quantity ``q`` on face ``f`` is ``(q - 1) * F + (f - 1)``
(``0..2DF-1``, ordered as the bids rise); ``2DF`` is "liar" (legal after a bid).
Chance: a die showing face ``f`` is outcome ``f - 1``.

State array (int64[2D + 2DF + 1]): ``s[0:D]`` player 0's dice, ``s[D:2D]`` player
1's (faces ``0..F-1``), then the actions in the order they were made, the bids
rising and "liar" last; -1 = not yet. ``kparams`` = ``[D, F]``.

View data: ``(*own dice, opponent dice rolled, *actions so far)``, own dice a
length-D block with -1 for "not rolled". Tensor (float32[5DF + 3]): per own die a
face one-hot (DF); per bid index, who made it, player 0 / player 1 (2 * 2DF);
"liar" called (1); the player one-hot (2).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz import CHANCE, TERMINAL, Game, IszError, State, View, register_game
from isz.games import Kernel, rand_below


@nb.njit(cache=True)
def _made(s, params):
    """Actions made so far (bids and the call)."""
    start, m = 2 * params[0], 0
    while start + m < s.size and s[start + m] >= 0:
        m += 1
    return m


@nb.njit(cache=True)
def _next_die(s, params):
    """The first die not rolled yet, or 2D once all are."""
    i = 0
    while i < 2 * params[0] and s[i] >= 0:
        i += 1
    return i


@nb.njit(cache=True)
def current_player(s, params):
    dice, faces = params[0], params[1]
    if _next_die(s, params) < 2 * dice:
        return CHANCE
    m = _made(s, params)
    if m > 0 and s[2 * dice + m - 1] == 2 * dice * faces:
        return TERMINAL
    return m % 2


@nb.njit(cache=True)
def legal_actions(s, params, out):
    dice, faces = params[0], params[1]
    m = _made(s, params)
    liar = 2 * dice * faces
    k = 0
    for a in range(s[2 * dice + m - 1] + 1 if m > 0 else 0, liar):  # higher bids, ascending
        out[k] = a
        k += 1
    if m > 0:
        out[k] = liar
        k += 1
    return k


@nb.njit(cache=True)
def chance_outcomes(s, params, out_a, out_p):
    faces = params[1]
    for f in range(faces):
        out_a[f] = f
        out_p[f] = 1.0 / faces
    return faces


@nb.njit(cache=True)
def apply_action(s, params, a):
    i = _next_die(s, params)
    if i < 2 * params[0]:
        s[i] = a
    else:
        s[2 * params[0] + _made(s, params)] = a


@nb.njit(cache=True)
def _count(s, params, face):
    """Dice that count for a bid on ``face``: that face or the wild top face."""
    dice, faces = params[0], params[1]
    c = 0
    for i in range(2 * dice):
        if s[i] == face or s[i] == faces - 1:
            c += 1
    return c


@nb.njit(cache=True)
def returns(s, params, out):
    dice, faces = params[0], params[1]
    m = _made(s, params)
    bid = s[2 * dice + m - 2]  # the last bid, made by the player before the caller
    caller = (m - 1) % 2
    loser = caller if _count(s, params, bid % faces) >= bid // faces + 1 else 1 - caller
    out[loser] = -1.0
    out[1 - loser] = 1.0


@nb.njit(cache=True)
def observe(s, params, a, player):
    i = _next_die(s, params)
    if i < 2 * params[0] and i // params[0] != player:
        return -1  # "the opponent rolled a die": the same token whatever the face
    return a


@nb.njit(cache=True)
def info_tensor(s, params, player, out):
    dice, faces = params[0], params[1]
    out[:] = 0.0
    for i in range(dice):
        if s[dice * player + i] >= 0:
            out[i * faces + s[dice * player + i]] = 1.0
    bids = dice * faces  # where the bid block starts
    liar = 2 * dice * faces
    m = _made(s, params)
    for j in range(m):
        a = s[2 * dice + j]
        if a < liar:
            out[bids + 2 * a + j % 2] = 1.0
        else:
            out[bids + 2 * liar] = 1.0
    out[bids + 2 * liar + 1 + player] = 1.0


@nb.njit(cache=True)
def redeterminize(s, params, player, rng, out):
    dice, faces = params[0], params[1]
    out[:] = s
    theirs = dice * (1 - player)
    for i in range(theirs, theirs + dice):  # the rolled ones: slots marked >= 0
        if s[i] >= 0:
            out[i] = rand_below(rng, faces)


@nb.njit(cache=True)
def history(s, params, out):
    """The rolls (player 0's dice, then player 1's) and the bids, in order."""
    n = 0
    for i in range(_next_die(s, params)):
        out[n] = s[i]
        n += 1
    for j in range(_made(s, params)):
        out[n] = s[2 * params[0] + j]
        n += 1
    return n


KERNEL = Kernel(current_player, legal_actions, chance_outcomes, apply_action,
                returns, observe, info_tensor, redeterminize, history=history)


@register_game
class LiarsDice(Game):
    """Two-player Liar's Dice with the highest face wild."""

    name = "liars_dice"
    PARAMS = {"dice": 1, "faces": 6}

    def __init__(self, **params):
        super().__init__(**params)
        for key, low, high in (("dice", 1, 3), ("faces", 2, 6)):
            v = self.params[key]
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise IszError(f"liars_dice {key} must be an integer in [{low}, {high}], "
                               f"got {v!r}")
        d, f = self.params["dice"], self.params["faces"]
        self.num_players = 2
        self.num_actions = 2 * d * f + 1
        self.max_chance_outcomes = f
        self.state_size = 2 * d + 2 * d * f + 1
        self.tensor_shape = (5 * d * f + 3,)
        self.max_game_length = 2 * d + 2 * d * f + 1
        self.kernel = KERNEL
        self.kparams = np.array([d, f], dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        return np.full(self.state_size, -1, dtype=np.int64)

    def view_data(self, state: State, player: int) -> tuple:
        d, s = self.params["dice"], state.data
        own, theirs = s[d * player:d * player + d], s[d * (1 - player):d * (1 - player) + d]
        actions = s[2 * d:]
        return (*own.tolist(), int((theirs >= 0).sum()), *actions[actions >= 0].tolist())

    def state_from_view(self, view: View) -> State:
        d, data, p = self.params["dice"], view.data, view.player
        s = self.initial_data()
        s[d * p:d * p + d] = data[:d]
        rolled = data[d]
        s[d * (1 - p):d * (1 - p) + rolled] = 0  # the hidden dice rolled: shown as 1s
        actions = data[d + 1:]
        s[2 * d:2 * d + len(actions)] = actions
        return State(self, s)

    def action_to_string(self, action: int, player: int) -> str:
        f = self.params["faces"]
        if player == CHANCE:
            return f"roll {action + 1}"
        if action == self.num_actions - 1:
            return "liar"
        return f"bid {action // f + 1}x{action % f + 1}"

    def describe(self, state: State) -> str:
        d, s = self.params["dice"], state.data
        actions = [self.action_to_string(int(a), 0).removeprefix("bid ")
                   for a in s[2 * d:] if a >= 0]
        return f"dice {_dice(s[:d])} vs {_dice(s[d:2 * d])} | bids {' '.join(actions) or '-'}"

    def describe_view(self, view: View) -> str:
        d = self.params["dice"]
        actions = [self.action_to_string(a, 0).removeprefix("bid ") for a in view.data[d + 1:]]
        return (f"your dice: {_dice(view.data[:d])} ({self.params['faces']}s are wild)\n"
                f"bids: {' '.join(actions) or '-'}")


def _dice(xs) -> str:
    return " ".join("?" if f < 0 else str(f + 1) for f in xs)
