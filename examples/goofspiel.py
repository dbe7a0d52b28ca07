"""Goofspiel with hidden bids: an isz game written outside the package.

Each player holds the cards 1..N; a deck of N prize cards is shuffled. Every
round a prize is turned face up, both players bid a card from their hand face
down, and the higher bid wins the prize (a tie discards it). The bids stay
hidden: a referee announces only who won the round. Whoever collects more
prize points wins (+1 / -1, 0 for a draw). Tutorial: docs/adding_a_game.md.

Sequence of a round: chance turns a prize (public), player 0 bids (hidden from
player 1), player 1 bids (hidden from player 0), chance announces the winner
(public; it has a single outcome, since the bids decide it).

Actions: a bid of card ``c + 1`` is action ``c`` (``0..N-1``). Chance: a prize
``c + 1`` is outcome ``c``; the announcement is ``N + r`` with ``r`` = 0
(player 0 won the round), 1 (player 1 won) or 2 (tie).

State array (int64[4N]): ``s[0:N]`` prize of each round, ``s[N:2N]`` player 0's
bids, ``s[2N:3N]`` player 1's bids, ``s[3N:4N]`` announced results; -1 = not
yet. ``kparams`` = ``[N]``.

View data: ``(*prizes, *own bids, *results, opponent bids made)``, each a
length-N block with -1 for "not yet". Tensor (float32[N * (2N + 3) + 3]): per
round, prize one-hot (N) + own bid one-hot (N) + result one-hot (3); then
"the opponent has bid this round" (1) and the player one-hot (2).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz import CHANCE, TERMINAL, Game, IszError, State, View, register_game
from isz.games import Kernel, new_rng, shuffle_prefix

P0_WINS, P1_WINS, TIE = 0, 1, 2


@nb.njit(cache=True)
def _round(s, n):
    """Rounds already announced (the round in play, or n at the end)."""
    r = 0
    while r < n and s[3 * n + r] >= 0:
        r += 1
    return r


@nb.njit(cache=True)
def _winner(bid0, bid1):
    if bid0 > bid1:
        return P0_WINS
    return P1_WINS if bid1 > bid0 else TIE


@nb.njit(cache=True)
def current_player(s, params):
    n = params[0]
    r = _round(s, n)
    if r == n:
        return TERMINAL
    if s[r] < 0 or s[2 * n + r] >= 0:
        return CHANCE  # the prize is turned, or both have bid: the announcement
    return 0 if s[n + r] < 0 else 1


@nb.njit(cache=True)
def legal_actions(s, params, out):
    n = params[0]
    bids = n + n * current_player(s, params)
    k = 0
    for c in range(n):  # the cards not bid yet, ascending
        used = False
        for i in range(n):
            used = used or s[bids + i] == c
        if not used:
            out[k] = c
            k += 1
    return k


@nb.njit(cache=True)
def chance_outcomes(s, params, out_a, out_p):
    n = params[0]
    r = _round(s, n)
    if s[r] >= 0:  # the announcement: one certain outcome
        out_a[0] = n + _winner(s[n + r], s[2 * n + r])
        out_p[0] = 1.0
        return 1
    k = 0
    for c in range(n):
        used = False
        for i in range(r):
            used = used or s[i] == c
        if not used:
            out_a[k] = c
            k += 1
    for i in range(k):
        out_p[i] = 1.0 / k
    return k


@nb.njit(cache=True)
def apply_action(s, params, a):
    n = params[0]
    r = _round(s, n)
    cur = current_player(s, params)
    if cur == CHANCE:
        if s[r] < 0:
            s[r] = a
        else:
            s[3 * n + r] = a - n
    else:
        s[n + n * cur + r] = a


@nb.njit(cache=True)
def returns(s, params, out):
    n = params[0]
    diff = 0
    for r in range(n):
        if s[3 * n + r] == P0_WINS:
            diff += s[r] + 1
        elif s[3 * n + r] == P1_WINS:
            diff -= s[r] + 1
    out[0] = 1.0 if diff > 0 else (-1.0 if diff < 0 else 0.0)
    out[1] = -out[0]


@nb.njit(cache=True)
def observe(s, params, a, player):
    cur = current_player(s, params)
    if cur == CHANCE or cur == player:
        return a
    return -1  # "the opponent bid a card": the same token whatever the card


@nb.njit(cache=True)
def info_tensor(s, params, player, out):
    n = params[0]
    out[:] = 0.0
    bids = n + n * player
    width = 2 * n + 3
    for r in range(n):
        if s[r] >= 0:
            out[r * width + s[r]] = 1.0
        if s[bids + r] >= 0:
            out[r * width + n + s[bids + r]] = 1.0
        if s[3 * n + r] >= 0:
            out[r * width + 2 * n + s[3 * n + r]] = 1.0
    r = _round(s, n)
    if r < n and s[n + n * (1 - player) + r] >= 0:
        out[n * width] = 1.0
    out[n * width + 1 + player] = 1.0


@nb.njit(cache=True)
def redeterminize(s, params, player, rng, out):
    n = params[0]
    out[:] = s
    mine, theirs = n + n * player, n + n * (1 - player)
    made = 0  # the opponent's bids so far: slots marked >= 0, values unknown
    while made < n and s[theirs + made] >= 0:
        made += 1
    cards = np.arange(n)
    while True:  # rejection: a uniform ordering of their cards, kept if it fits
        shuffle_prefix(rng, cards, n)
        fits = True
        for r in range(made):
            if s[3 * n + r] >= 0:
                b0, b1 = (s[mine + r], cards[r]) if player == 0 else (cards[r], s[mine + r])
                fits = fits and _winner(b0, b1) == s[3 * n + r]
        if fits:
            break
    for r in range(made):
        out[theirs + r] = cards[r]


@nb.njit(cache=True)
def history(s, params, out):
    n = params[0]
    k = 0
    for r in range(n):  # each round: prize, bids (player 0's first), announcement
        for a in (s[r], s[n + r], s[2 * n + r], n + s[3 * n + r] if s[3 * n + r] >= 0 else -1):
            if a < 0:
                return k
            out[k] = a
            k += 1
    return k


KERNEL = Kernel(current_player, legal_actions, chance_outcomes, apply_action,
                returns, observe, info_tensor, redeterminize, history=history)


@register_game
class Goofspiel(Game):
    """Two-player Goofspiel with hidden bids and a random prize order."""

    name = "goofspiel"
    PARAMS = {"cards": 4}

    def __init__(self, **params):
        super().__init__(**params)
        n = self.params["cards"]
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 6:
            raise IszError(f"goofspiel cards must be an integer in [2, 6], got {n!r}")
        self.num_players = 2
        self.num_actions = n
        self.max_chance_outcomes = n + 3
        self.state_size = 4 * n
        self.tensor_shape = (n * (2 * n + 3) + 3,)
        self.max_game_length = 4 * n
        self.kernel = KERNEL
        self.kparams = np.array([n], dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        return np.full(self.state_size, -1, dtype=np.int64)

    def view_data(self, state: State, player: int) -> tuple:
        n, s = self.num_actions, state.data
        theirs = s[n + n * (1 - player):2 * n + n * (1 - player)]
        own = s[n + n * player:2 * n + n * player]
        return (*s[:n].tolist(), *own.tolist(), *s[3 * n:].tolist(), int((theirs >= 0).sum()))

    def state_from_view(self, view: View) -> State:
        n, d, p = self.num_actions, view.data, view.player
        s = self.initial_data()
        s[:n] = d[:n]
        s[n + n * p:2 * n + n * p] = d[n:2 * n]
        s[3 * n:] = d[2 * n:3 * n]
        made = d[3 * n]
        s[n + n * (1 - p):n + n * (1 - p) + made] = 0  # mark the hidden bids as made
        out = np.empty_like(s)  # then draw them (fixed seed: a deterministic template)
        self.kernel.redeterminize(s, self.kparams, p, new_rng(0), out)
        return State(self, out)

    def action_to_string(self, action: int, player: int) -> str:
        n = self.num_actions
        if player != CHANCE:
            return f"bid {action + 1}"
        if action < n:
            return f"prize {action + 1}"
        return ("player 0 wins the round", "player 1 wins the round", "tie")[action - n]

    def outcome_stats(self, state: State) -> dict[str, list[float]]:
        """Prize ``points`` per seat: the arena averages them beside the score."""
        n, s = self.num_actions, state.data
        return {"points": [float(sum(s[r] + 1 for r in range(n) if s[3 * n + r] == p))
                           for p in (0, 1)]}

    def describe(self, state: State) -> str:
        n, s = self.num_actions, state.data
        won = " ".join("-" if w < 0 else "01="[w] for w in s[3 * n:])
        return (f"prizes {_cards(s[:n])} | bids {_cards(s[n:2 * n])} vs "
                f"{_cards(s[2 * n:3 * n])} | won {won}")


def _cards(xs) -> str:
    return " ".join("?" if c < 0 else str(c + 1) for c in xs)
