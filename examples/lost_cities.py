"""Lost Cities (small), two players: an isz game written outside the package.

``K`` colors, each with ``W`` wagers and ``R`` numbered cards (values 2 .. R + 1):
``C = K (W + R)`` cards, card ``color * (W + R) + j``, a wager for ``j < W``, else the
number ``j - W + 2``. Chance deals ``hand`` cards to each player, round robin from
player 0, each uniform over the cards not dealt yet; the rest is the deck. Player 0
moves first. A turn is two decisions: first play a card from the hand onto one's own
expedition of its color (in ascending order: a wager only before any number of its
color, a number only above every number there) or discard it face up onto its color's
discard pile; then draw the top of the deck (a chance node uniform over the deck: the
drawer sees the card, the other a token) or take the top card of a discard pile, all
but the card just discarded. The game ends when the deck runs out, or after ``turns``
turns in all (a bound the real game lacks: with takes a game could loop).

Scoring: each color with at least one card in a player's expedition scores (sum of its
numbers - ``cost``) x (1 + its wagers). Returns: +1 to the higher total, -1 to the
lower, 0 / 0 on a tie.

Actions: ``0..C-1`` play card c; ``C + c`` discard card c; ``2C`` draw from the deck;
``2C + 1 + k`` take the top of color k's pile. Chance outcomes are card ids.

State array (int64[L + 12 + K + C], ``L = max_game_length = 2 hand + 3 turns``):
``s[0:L]`` the history (every action and chance outcome in order, -1 = not yet), then at
``L +``: ``N`` steps, ``TURN`` seat to move, ``PHASE`` (deal, play, draw, card: the
drawn card is due, over), ``TURNS`` completed, ``LAST`` the card discarded this turn
(-1), ``OUT`` mask of the cards out of the deck, ``HANDS`` (a mask per seat), ``EXP``
(expedition masks per seat), ``KNOWN`` (per seat, the cards it took from a pile and
still holds: public), ``HEIGHT`` (per color, its pile's size), ``PILE`` (per color
``W + R`` slots, bottom first): all a function of the history. ``kparams`` = ``[K, W,
R, H, C, D, L, T, cost]``, ``D = C - 2 H`` the deck after the deal.

View data: the player's observation tokens in order, -1 for a card dealt or drawn to
the other seat, its own dealt cards sorted (a hand is a set).

Tensor (float32[8C + 2K + 8 + L]; seats relative to the player): own hand (C) | own
and the other's expeditions (2C) | the discard piles' cards and their tops (2C) | the
cards the other is known to hold (C) | the card just discarded (C) | the card each
step dealt or drawn to the player (C, one-hot by card: (step + 1) / L) | phase play,
phase draw (2) | deck size / D, turns / T (2) | each color's score so far / 50, own
and the other's (2K) | seat to move, relative (2) | the player one-hot, absolute (2) |
then the history, which makes the tensor tell views apart: per step its token, (token
+ 2) / (2C + K + 3), 0 past the end (L).
"""

from __future__ import annotations

import numpy as np

from examples.lost_cities_rules import (
    COLORS,
    DRAW,
    EXP,
    HANDS,
    HEIGHT,
    KERNEL,
    KNOWN,
    OUT,
    PHASE,
    N,
    _reset,
    _top,
    view_tokens,
)
from isz import CHANCE, Game, IszError, State, View, register_game
from isz.games import new_rng


@register_game
class LostCities(Game):
    """Lost Cities for two players on a small deck, with a bound on the turns."""

    name = "lost_cities"
    PARAMS = {"colors": 3, "wagers": 1, "ranks": 5, "hand": 4, "cost": 10, "turns": 30}
    _BOUNDS = (("colors", 2, 5), ("wagers", 0, 3), ("ranks", 2, 9), ("hand", 1, 8),
               ("cost", 0, 60), ("turns", 2, 200))

    def __init__(self, **params):
        super().__init__(**params)
        for key, low, high in self._BOUNDS:
            v = self.params[key]
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise IszError(f"lost_cities {key} must be an integer in [{low}, {high}], "
                               f"got {v!r}")
        k, w, r, h, cost, t = (self.params[x] for x, _, _ in self._BOUNDS)
        c = k * (w + r)
        if 2 * h + 1 > c:
            raise IszError(f"lost_cities needs 2 * hand + 1 <= colors * (wagers + ranks) (a "
                           f"hand each and a deck), got 2 * {h} + 1 > {c}")
        length = 2 * h + 3 * t  # the deal, then at most three steps a turn
        self.num_players = 2
        self.num_actions = 2 * c + 1 + k
        self.max_chance_outcomes = c
        self.state_size = length + HEIGHT + k + c
        self.tensor_shape = (8 * c + 2 * k + 8 + length,)
        self.max_game_length = length
        self.kernel = KERNEL
        self.kparams = np.array([k, w, r, h, c, c - 2 * h, length, t, cost], dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        s = np.empty(self.state_size, dtype=np.int64)
        _reset(s, self.kparams)
        return s

    def view_data(self, state: State, player: int) -> tuple:
        out = np.empty(self.max_game_length, dtype=np.int64)
        return tuple(out[:view_tokens(state.data, self.kparams, player, out)].tolist())

    def state_from_view(self, view: View) -> State:
        """The view's tokens as a history, a hidden card marked 0 until the kernel draws
        it (fixed seed: one template per view)."""
        s = self.initial_data()
        tokens = np.maximum(np.array(view.data, dtype=np.int64), 0)
        s[:len(tokens)] = tokens
        s[self.max_game_length + N] = len(tokens)
        out = np.empty_like(s)
        self.kernel.redeterminize(s, self.kparams, view.player, new_rng(0), out)
        return State(self, out)

    def card(self, c: int) -> str:
        """``Y4``: the color and the number, ``Yw`` a wager."""
        w, r = self.params["wagers"], self.params["ranks"]
        j = c % (w + r)
        return COLORS[c // (w + r)] + ("w" if j < w else str(j - w + 2))

    def _cards(self, mask: int) -> str:
        return " ".join(self.card(c) for c in range(self.kparams[4]) if (mask >> c) & 1) or "-"

    def action_to_string(self, action: int, player: int) -> str:
        c = int(self.kparams[4])
        if player == CHANCE:
            return f"card {self.card(action)}"
        if action < 2 * c:
            return f"{'play' if action < c else 'discard'} {self.card(action % c)}"
        return "draw" if action == 2 * c else f"take {COLORS[action - 2 * c - 1]}"

    def _table(self, s: np.ndarray) -> str:
        L, k = self.max_game_length, self.params["colors"]
        piles = " ".join(self.card(int(_top(s, self.kparams, j))) if _top(s, self.kparams, j)
                         >= 0 else "-" for j in range(k))
        deck = self.kparams[4] - bin(int(s[L + OUT])).count("1")
        return f"piles {piles} | deck {deck}"

    def describe(self, state: State) -> str:
        s, L = state.data, self.max_game_length
        seats = " | ".join(f"{q}: hand {self._cards(int(s[L + HANDS + q]))} expedition "
                           f"{self._cards(int(s[L + EXP + q]))}" for q in range(2))
        text = f"{seats} | {self._table(s)}"
        if state.is_terminal():
            text += " | returns " + " ".join(f"{x:+.3g}" for x in state.returns())
        return text

    def describe_view(self, view: View) -> str:
        s, L, p = self.state_from_view(view).data, self.max_game_length, view.player
        return (f"your hand: {self._cards(int(s[L + HANDS + p]))} | yours: "
                f"{self._cards(int(s[L + EXP + p]))} | theirs: "
                f"{self._cards(int(s[L + EXP + 1 - p]))} (known in hand: "
                f"{self._cards(int(s[L + KNOWN + 1 - p]))})\n{self._table(s)}"
                + (" | draw or take" if s[L + PHASE] == DRAW else ""))
