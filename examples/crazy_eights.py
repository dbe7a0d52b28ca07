"""Crazy Eights (small): an isz game for 2-4 players written outside the package.

``C = suits * ranks`` cards, card ``suit * ranks + rank``; the highest rank (the
"eight") is wild. Chance deals ``hand`` cards to each player, round robin from player
0, each uniform over the cards not dealt yet, then turns up a starter (public): the
top of the pile, its suit the suit to follow (a wild's too). Player 0 moves first. On
its turn a player may play a card of the top card's rank or of the suit to follow, or
a wild at any time (a wild keeps the turn: the player then declares the suit to
follow, a decision of its own; any other card makes its suit the one to follow); or
draw a card while the deck (the cards in no hand and not on the pile) has any, even
with a playable card, which ends the turn (the player's action, then a chance node
uniform over the deck: the drawer sees the card, the others a token); or pass, only
once the deck is empty (always allowed then).

Draws and passes are voluntary: the rules reveal no more of a hand than was seen.
The game ends when a player empties its hand (it wins) or all have passed in a row
(blocked: the fewest cards win). Returns: with k winners among P players, each winner
gets (P - k) / (k (P - 1)), each loser -1 / (P - 1) (zero-sum; two players: +1 / -1,
a blocked tie 0 / 0).

Actions: ``0..C-1`` play card c; ``C + d`` declare suit d; ``C + suits`` draw;
``C + suits + 1`` pass. Chance outcomes are card ids (deal, starter, draw).

State array (int64[L + 8 + P], ``L = max_game_length``): ``s[0:L]`` the history
(every action and chance outcome in order, -1 = not yet), then at ``L +``: ``N``
steps, ``OUT`` mask of the cards out of the deck, ``TOP`` card, ``SUIT`` to follow,
``TURN`` seat to move, ``PHASE`` (deal, starter, play, declare, draw: the drawn card
is due, over), ``PASSES`` in a row, ``TURNS`` completed, ``HANDS..`` a card mask per
seat: all a function of the history. ``kparams`` = ``[P, suits, ranks, hand, C, D,
L]``, ``D = C - P * hand - 1`` the deck after the deal.

View data: the player's observation tokens in order (a card it received or saw
played, -1 for a card dealt or drawn to another seat, every action), with its own
dealt cards sorted (a hand is a set: the order it was dealt in is forgotten).

Tensor (float32[5C + S + S^2 + 3P + 4], S = suits; seats relative to the player,
``(seat - player) % P``): own hand (C) | pile, starter and cards played (C) | top card
one-hot (C) | suit to follow one-hot (S) | declaring (1) | hand sizes / (hand + D)
(P) | deck size / D (1) | seat to move one-hot (P) | the player one-hot, absolute (P)
| passes in a row / P (1) | then the history, which makes the tensor tell views
apart: per card the turn it was played ((t + 1) / L, C), per card the turn the
player drew it (C), per wild suit the suit declared after it (S x S), turns so far
((t + 1) / L, 1).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz import CHANCE, TERMINAL, Game, IszError, State, View, register_game
from isz.games import (
    Kernel,
    deal_from,
    new_rng,
    popcount,
    rand_below,
    seat_draws_key,
    shuffle_prefix,
)

N, OUT, TOP, SUIT, TURN, PHASE, PASSES, TURNS, HANDS = range(9)  # offsets past L
DEAL, STARTER, PLAY, DECLARE, DRAW, OVER = range(6)  # phases
K_DEAL, K_STARTER, K_PLAY, K_DECLARE, K_DRAW, K_CARD, K_PASS = range(7)  # step kinds
SUITS = "SHDC"


@nb.njit(cache=True)
def _deck(s, params):
    return params[4] - popcount(s[params[6] + OUT])


@nb.njit(cache=True)
def _reset(s, params):
    """The empty history: nothing dealt, phase deal."""
    s[:] = -1
    s[params[6]:] = 0  # no step, no card out, seat 0, phase deal (0), empty hands
    s[params[6] + TOP], s[params[6] + SUIT] = -1, -1


@nb.njit(cache=True)
def current_player(s, params):
    ph = s[params[6] + PHASE]
    return TERMINAL if ph == OVER else (s[params[6] + TURN] if PLAY <= ph <= DECLARE else CHANCE)


@nb.njit(cache=True)
def legal_actions(s, params, out):
    S, R, C, L = params[1], params[2], params[4], params[6]
    if s[L + PHASE] == DECLARE:
        out[:S] = np.arange(C, C + S)  # declare a suit
        return S
    hand, top, suit = s[L + HANDS + s[L + TURN]], s[L + TOP], s[L + SUIT]
    k = 0
    for c in range(C):
        if (hand >> c) & 1 and (c % R == R - 1 or c % R == top % R or c // R == suit):
            out[k] = c
            k += 1
    out[k] = C + S if _deck(s, params) > 0 else C + S + 1  # draw, else pass
    return k + 1


@nb.njit(cache=True)
def chance_outcomes(s, params, out_a, out_p):
    return deal_from(s[params[6] + OUT], params[4], out_a, out_p)


@nb.njit(cache=True)
def _end_turn(s, params):
    L = params[6]
    s[L + TURN], s[L + TURNS], s[L + PHASE] = (s[L + TURN] + 1) % params[0], s[L + TURNS] + 1, PLAY


@nb.njit(cache=True)
def apply_action(s, params, a):
    P, S, R, H, C, L = params[0], params[1], params[2], params[3], params[4], params[6]
    n, ph, me = s[L + N], s[L + PHASE], L + HANDS + s[L + TURN]
    s[n], s[L + N] = a, n + 1
    if ph == DEAL or ph == DRAW or ph == STARTER:
        s[L + OUT] |= 1 << a
    if ph == DEAL:
        s[L + HANDS + n % P] |= 1 << a
        if n + 1 == P * H:
            s[L + PHASE] = STARTER
    elif ph == STARTER:
        s[L + TOP], s[L + SUIT], s[L + PHASE] = a, a // R, PLAY
    elif ph == DRAW:
        s[me] |= 1 << a
        _end_turn(s, params)
    elif ph == DECLARE:
        s[L + SUIT] = a - C
        _end_turn(s, params)
    elif a < C:
        s[me] &= ~(1 << a)
        s[L + TOP], s[L + PASSES] = a, 0
        if a % R != R - 1:
            s[L + SUIT] = a // R
        if s[me] == 0:
            s[L + PHASE] = OVER  # an empty hand wins at once (a last wild declares nothing)
        elif a % R == R - 1:
            s[L + PHASE] = DECLARE
        else:
            _end_turn(s, params)
    elif a == C + S:
        s[L + PASSES], s[L + PHASE] = 0, DRAW
    else:
        s[L + PASSES] += 1
        if s[L + PASSES] == P:
            s[L + PHASE] = OVER  # blocked
        else:
            _end_turn(s, params)


@nb.njit(cache=True)
def returns(s, params, out):
    P, L, least, k = params[0], params[6], params[4] + 1, 0  # least: above any hand
    for q in range(P):  # the k winners: the empty hand, or the fewest cards when blocked
        b = popcount(s[L + HANDS + q])
        k = 1 if b < least else k + (b == least)
        least = min(least, b)
    for q in range(P):
        out[q] = (P - k) / (k * (P - 1)) if popcount(s[L + HANDS + q]) == least else -1.0 / (P - 1)


@nb.njit(cache=True)
def observe(s, params, a, player):
    L, ph = params[6], s[params[6] + PHASE]
    if (ph == DEAL and s[L + N] % params[0] != player) or (ph == DRAW and s[L + TURN] != player):
        return -1  # "a card went to another seat": one token whatever the card
    return a


@nb.njit(cache=True)
def _scan(s, params):
    """(steps n, then per step its kind, its owner: the receiver or the actor, -1 for
    the starter, and its turn: -1 in the deal), from the public steps only: whose
    turn it is follows from the actions, never from a card drawn."""
    P, S, R, C, L = params[0], params[1], params[2], params[4], params[6]
    deal, n = params[0] * params[3], s[L + N]
    kind, owner, turn = np.full(n, K_DEAL), np.full(n, -1), np.full(n, -1)
    cur, t, pend = 0, 0, -1  # pend: the kind the next step must be (a drawn card, a suit)
    for i in range(n):
        if i <= deal:
            owner[i], kind[i] = (i % P, K_DEAL) if i < deal else (-1, K_STARTER)
            continue
        a = s[i]
        k = pend if pend >= 0 else (K_PLAY if a < C else (K_DRAW if a == C + S else K_PASS))
        kind[i], owner[i], turn[i] = k, cur, t
        pend = K_CARD if k == K_DRAW else (K_DECLARE if k == K_PLAY and a % R == R - 1 else -1)
        if pend < 0:
            cur, t = (cur + 1) % P, t + 1
    return n, kind, owner, turn


@nb.njit(cache=True)
def view_tokens(s, params, player, out):
    """The player's observations in order into ``out``, its dealt cards sorted."""
    n, kind, owner, _ = _scan(s, params)
    out[:n] = np.where(((kind == K_DEAL) | (kind == K_CARD)) & (owner != player), -1, s[:n])
    own = np.arange(player, min(n, params[0] * params[3]), params[0])
    out[own] = np.sort(out[own])
    return n


@nb.njit(cache=True)
def info_tensor(s, params, player, out):
    P, S, R, C, D, L = params[0], params[1], params[2], params[4], params[5], params[6]
    out[:] = 0.0
    n, kind, owner, turn = _scan(s, params)
    for c in range(C):
        out[c] = (s[L + HANDS + player] >> c) & 1
    if s[L + TOP] >= 0:
        out[2 * C + s[L + TOP]] = 1.0
        out[3 * C + s[L + SUIT]] = 1.0
    b = 3 * C + S
    out[b] = s[L + PHASE] == DECLARE
    for q in range(P):
        out[b + 1 + (q - player) % P] = popcount(s[L + HANDS + q]) / (params[3] + D)
    out[b + 1 + P] = _deck(s, params) / max(D, 1)
    if s[L + PHASE] >= PLAY and s[L + PHASE] != OVER:
        out[b + 2 + P + (s[L + TURN] - player) % P] = 1.0
    out[b + 2 + 2 * P + player] = 1.0
    out[b + 2 + 3 * P] = s[L + PASSES] / P
    h = b + 3 + 3 * P  # the history block
    for i in range(n):
        k, a = kind[i], s[i]
        if k == K_STARTER or k == K_PLAY:
            out[C + a] = 1.0
        if k == K_PLAY:
            out[h + a] = (turn[i] + 1) / L
        elif k == K_CARD and owner[i] == player:
            out[h + C + a] = (turn[i] + 1) / L
        elif k == K_DECLARE:
            out[h + 2 * C + (s[i - 1] // R) * S + a - C] = 1.0
    out[h + 2 * C + S * S] = (s[L + TURNS] + 1) / L


@nb.njit(cache=True)
def redeterminize(s, params, player, rng, out):
    """Redraw every card hidden from ``player`` uniformly over the histories its view
    allows: each card another seat played goes to one of that seat's deal or draw
    slots before the play (uniform among those still free, taken in play order: the
    slots before a play include those before any earlier play, so every matching is
    equally likely), the other hidden slots get the unseen cards in a uniform order.
    Its own dealt cards are sorted, so that the result depends on the view alone."""
    n, kind, owner, _ = _scan(s, params)
    hist = s[:n].copy()
    hidden = ((kind == K_DEAL) | (kind == K_CARD)) & (owner != player)
    slots = np.nonzero(hidden)[0]  # their values are never read
    seen = 0
    for i in np.nonzero(~hidden & (kind != K_DECLARE) & (kind != K_DRAW) & (kind != K_PASS))[0]:
        seen |= 1 << hist[i]  # own cards, the starter, every play
    used = np.zeros(slots.size, np.bool_)
    for i in np.nonzero((kind == K_PLAY) & (owner != player))[0]:  # in play order
        free = np.nonzero(~used & (owner[slots] == owner[i]) & (slots < i))[0]
        j = free[rand_below(rng, free.size)]
        used[j], hist[slots[j]] = True, hist[i]
    unseen = np.array([c for c in range(params[4]) if not (seen >> c) & 1], np.int64)
    shuffle_prefix(rng, unseen, unseen.size)
    rest = slots[~used]
    hist[rest] = unseen[:rest.size]
    own = np.arange(player, min(n, params[0] * params[3]), params[0])
    hist[own] = np.sort(hist[own])
    _reset(out, params)  # replay: the hands and the deck follow the new cards
    for i in range(n):
        apply_action(out, params, hist[i])


@nb.njit(cache=True)
def info_key(s, params, player):
    """The player's dealt cards (a mask) and its draws (card and step), hashed: its
    view among worlds sharing one public history (the hand alone is not: a card in it
    may have been dealt or drawn)."""
    n, kind, owner, _ = _scan(s, params)
    return seat_draws_key(s, n, kind, owner, player, K_DEAL, K_CARD)


@nb.njit(cache=True)
def history(s, params, out):
    n = s[params[6] + N]
    out[:n] = s[:n]
    return n


KERNEL = Kernel(current_player, legal_actions, chance_outcomes, apply_action, returns,
                observe, info_tensor, redeterminize, info_key=info_key, history=history)


@register_game
class CrazyEights(Game):
    """Crazy Eights for 2-4 players on a small deck, the highest rank wild."""

    name = "crazy_eights"
    PARAMS = {"players": 2, "suits": 4, "ranks": 6, "hand": 5}

    def __init__(self, **params):
        super().__init__(**params)
        for key, low, high in (("players", 2, 4), ("suits", 2, 4), ("ranks", 3, 8),
                               ("hand", 1, 7)):
            v = self.params[key]
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
                raise IszError(f"crazy_eights {key} must be an integer in [{low}, {high}], "
                               f"got {v!r}")
        p, su, r, h = (self.params[k] for k in ("players", "suits", "ranks", "hand"))
        c = su * r
        if p * h + 1 > c:
            raise IszError(f"crazy_eights needs players * hand + 1 <= suits * ranks (a hand "
                           f"each and a starter), got {p} * {h} + 1 = {p * h + 1} > "
                           f"{su} * {r} = {c}")
        d = c - p * h - 1
        # The longest game: the deal and the starter; at most d draws (2 steps each); a
        # declaration per wild (su); plays and passes together at most p * (c - p + 1):
        # at most c - p plays (c - 1 cards ever reach a hand, and at the end every seat
        # but the winner holds one), and once the deck is empty fewer than p passes
        # between two plays, p at most after the last (a run of p ends the game).
        length = p * h + 1 + 2 * d + su + p * (c - p + 1)
        self.num_players = p
        self.num_actions = c + su + 2
        self.max_chance_outcomes = c
        self.state_size = length + HANDS + p
        self.tensor_shape = (5 * c + su + su * su + 3 * p + 4,)
        self.max_game_length = length
        self.kernel = KERNEL
        self.kparams = np.array([p, su, r, h, c, d, length], dtype=np.int64)

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
        """``8S``: the rank (the top rank is 8, the ranks below count down) and suit."""
        r = self.params["ranks"]
        return f"{c % r + 9 - r}{SUITS[c // r]}"

    def _cards(self, mask: int) -> str:
        return " ".join(self.card(c) for c in range(self.kparams[4]) if (mask >> c) & 1) or "-"

    def action_to_string(self, action: int, player: int) -> str:
        c, su = int(self.kparams[4]), self.params["suits"]
        if player == CHANCE:
            return f"card {self.card(action)}"
        if action < c:
            return f"play {self.card(action)}"
        if action < c + su:
            return f"declare {SUITS[action - c]}"
        return "draw" if action == c + su else "pass"

    def _table(self, s: np.ndarray) -> str:
        L, top = self.max_game_length, int(s[self.max_game_length + TOP])
        deck = self.kparams[4] - bin(int(s[L + OUT])).count("1")
        top_ = "-" if top < 0 else f"{self.card(top)} suit {SUITS[s[L + SUIT]]}"
        return f"top {top_} | deck {deck}"

    def describe(self, state: State) -> str:
        s, L = state.data, self.max_game_length
        hands = " | ".join(f"{q}: {self._cards(int(s[L + HANDS + q]))}"
                           for q in range(self.num_players))
        text = f"hands {hands} | {self._table(s)}"
        if state.is_terminal():
            text += " | returns " + " ".join(f"{x:+.3g}" for x in state.returns())
        return text

    def describe_view(self, view: View) -> str:
        s, L, p = self.state_from_view(view).data, self.max_game_length, view.player
        sizes = " ".join(f"{q}:{bin(int(s[L + HANDS + q])).count('1')}"
                         for q in range(self.num_players))
        return (f"your hand: {self._cards(int(s[L + HANDS + p]))}\n{self._table(s)} | hand "
                f"sizes {sizes}" + (" | declare a suit" if s[L + PHASE] == DECLARE else ""))
