"""Love Letter (two players, one round): an isz game written outside the package.

The 16-card deck: Guard (1) x5, Priest (2) x2, Baron (3) x2, Handmaid (4) x2, Prince (5)
x2, King (6), Countess (7), Princess (8). Set-up: one card is set aside face down and
three face up; each player is dealt one card. A turn: draw a card, play one of the two:

- Guard: name a card other than a Guard; if the opponent holds it, the opponent is out.
- Priest: look at the opponent's card. Baron: compare cards in secret; the lower is out.
- Handmaid: the opponent's cards do not affect you until your next turn.
- Prince: a player (the opponent or yourself) discards its card face up and draws a new
  one (the card set aside once the deck is empty); a discarded Princess is out.
- King: trade cards with the opponent. Countess: no effect, but it must be played while
  the other card is the King or a Prince. Princess: never played (playing it is out).

Against a protected opponent a Guard, Priest, Baron or King is played for no effect and
a Prince must take yourself. The round ends when a player is out, or after the turn that
empties the deck: the higher card wins, ties go to the higher sum of cards played or
discarded, then it is a draw. Returns +1 / -1 (0 each for a draw).

Every step is seen by both players except the cards set aside face down (by neither)
and each card dealt or drawn (by the player who takes it). What a card effect shows is
a chance step with one certain outcome after the play: the Guard's hit (1) or miss (0);
the opponent's card (Priest); the actor's then the target's card, ``8 x + y`` (Baron,
King: both players see both); the discarded card (Prince), then the target's draw.

Cards are ranks ``0..7`` (Guard..Princess). Actions: ``g`` Guard naming rank ``g + 1``
(``0..6``), ``7`` Guard for no effect, ``8`` Priest, ``9`` Baron, ``10`` Handmaid,
``11`` Prince on the opponent, ``12`` Prince on yourself, ``13`` King, ``14`` Countess.
Chance: a card's rank, or a reveal's outcome.

State array (int64[3 L + 22], ``L = 46``, the longest round): ``s[0:L]`` the history
(actions and outcomes in order, -1 = not yet), ``s[L:2L]`` each step's kind,
``s[2L:3L]`` the seat that sees it alone (-1 everyone, -2 no one), then at ``3L +``:
``N`` steps, ``PHASE``, ``TURN``, ``PEND`` (the reveal due; the play it follows is the
last step), ``TARGET``, ``ASIDE`` (the face-down card), ``WINNER`` (-1, seat, 2 draw),
``HAND`` x2, ``DRAWN``, ``PROT`` x2, ``SUM`` x2, ``COUNT`` x8 (the deck).
``kparams`` = ``[L]``.

View data: the history with -1 for each step the player does not see. Tensor
(float32[545]): per turn (10), the actor is the player, the action one-hot (15), the
Guard's hit, the revealed cards (two one-hots of 8), the player's draw and its Prince
redraw (one-hots of 8); the face-up cards in order (3 x 8) and the player's dealt card
(8); its hand (counts of 8); the protections (own, opponent's); the deck's size / 10;
cards played or discarded by rank / their count (8); the sums (own, opponent's) / 50;
the player one-hot (2).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from examples.love_letter_rules import (
    COUNT,
    COUNTESS,
    DECK,
    DRAWN,
    HAND,
    K_ASIDE,
    K_DEAL,
    K_DRAW,
    K_MOVE,
    K_REDRAW,
    K_REVEAL,
    K_UP,
    KING,
    MAX_TURNS,
    NAMES,
    OVER,
    PHASE,
    PRINCE,
    RANK,
    STATE_SIZE,
    TURN,
    WINNER,
    L,
    N,
    W,
    _reset,
    apply_action,
    chance_outcomes,
    current_player,
    info_tensor,
    legal_actions,
    observe,
    returns,
)
from isz import CHANCE, Game, State, View, register_game
from isz.games import Kernel, new_rng, rand_below


@nb.njit(cache=True)
def _assign(val, neq, x, v):
    """Card ``v`` for symbol ``x``; False where the view rules it out."""
    if val[x] < 0:
        if (neq[x] >> v) & 1:
            return False
        val[x] = v
        return True
    return val[x] == v


@nb.njit(cache=True)
def _exclude(val, neq, x, v):
    """Not card ``v`` for symbol ``x``; False where it is pinned to ``v``."""
    neq[x] |= 1 << v
    return val[x] != v


@nb.njit(cache=True)
def _walk(s, player, rng, val, neq, counted, slot, known):
    """One pass over the history as ``player`` saw it: a symbol for every card it did not
    see taken (the card set aside, the opponent's deal, draws and redraws), pinned where
    a play or a reveal shows it. Where the opponent played a card that either of its two
    could have been, one of the two is taken at random. False on a contradiction."""
    n, q = s[N], 1 - player
    val[:], neq[:], counted[:], slot[:], known[:] = -1, 0, 0, -1, 0
    m, held, drawn, actor, aside, deck = 0, -1, -1, -1, -1, 10
    for i in range(n):
        k, by, a = s[L + i], s[2 * L + i], s[i]
        if k == K_UP or ((k == K_DEAL or k == K_DRAW) and by == player):
            known[a] += 1
            deck -= k == K_DRAW
            actor = by if k == K_DRAW else actor
        elif k == K_ASIDE or k == K_DEAL or k == K_DRAW or (k == K_REDRAW and by == q and deck > 0):
            slot[i], counted[m] = m, 1
            aside = m if k == K_ASIDE else aside
            held = m if k == K_DEAL or k == K_REDRAW else held
            drawn = m if k == K_DRAW else drawn
            actor = by if k == K_DRAW else actor
            deck -= k == K_DRAW or k == K_REDRAW
            m += 1
        elif k == K_REDRAW:
            if deck == 0 and by == q:
                slot[i], held = aside, aside
            elif deck == 0:
                if not _assign(val, neq, aside, a):
                    return False
            else:
                known[a] += 1
                deck -= 1
        elif k == K_MOVE and actor == q:
            e = RANK[a]
            take_held = val[held] == e or (val[held] < 0 and not (neq[held] >> e) & 1
                                           and rand_below(rng, 2) == 0)
            played, held = (held, drawn) if take_held else (drawn, held)
            if not _assign(val, neq, played, e):
                return False
            if (e == KING or e == PRINCE) and not _exclude(val, neq, held, COUNTESS):
                return False  # the Countess rule: the other card is not it
        elif k == K_REVEAL:
            act = s[i - 1]
            if act < 7 and actor == player:  # the Guard named card act + 1: a hit or a miss
                ok = _assign(val, neq, held, act + 1) if a == 1 else \
                    _exclude(val, neq, held, act + 1)
                if not ok:
                    return False
            elif (act == 8 and actor == player) or (
                    (act == 11 or act == 12) and (actor == q) == (act == 12)):
                if not _assign(val, neq, held, a):  # the opponent's card, seen or discarded
                    return False
            elif act == 9 or act == 13:
                mine, theirs = (a // 8, a % 8) if actor == player else (a % 8, a // 8)
                if not _assign(val, neq, held, theirs):
                    return False
                if act == 13:  # the opponent now holds the player's card, seen
                    val[m], held = mine, m
                    m += 1
    return _fill(val, neq, counted, known, m, rng)


@nb.njit(cache=True)
def _fill(val, neq, counted, known, m, rng):
    """Every open symbol drawn from the cards left unseen, each uniformly among the cards
    its view allows; False when the pinned cards exceed the deck."""
    left = DECK - known
    for x in range(m):
        if counted[x] and val[x] >= 0:
            left[val[x]] -= 1
    if left.min() < 0:
        return False
    for x in range(m):
        if val[x] >= 0:
            continue
        total = 0
        for c in range(8):
            total += left[c] * (1 - ((neq[x] >> c) & 1))
        if total == 0:
            return False
        r = rand_below(rng, total)
        for c in range(8):
            r -= left[c] * (1 - ((neq[x] >> c) & 1))
            if r < 0:
                val[x] = c
                left[c] -= 1
                break
    return True


@nb.njit(cache=True)
def redeterminize(s, params, player, rng, out):
    """Redraw every card hidden from ``player`` (the card set aside, the opponent's deal,
    draws and redraws) consistently with its view: what the opponent played, what every
    reveal showed, each Guard's miss and the Countess rule; the history is then replayed
    with them. Near uniform, not exactly: where the opponent's play could have been either
    of its cards, each is taken with probability 1/2. Reads the kinds, the seats that see
    each step and the steps ``player`` saw, never a hidden card."""
    n = s[N]
    val, neq = np.empty(L, np.int64), np.empty(L, np.int64)
    counted, slot, known = np.empty(L, np.int64), np.empty(L, np.int64), np.empty(8, np.int64)
    tries = 0
    while not _walk(s, player, rng, val, neq, counted, slot, known):
        tries += 1  # the true history is one of the walks, so a walk succeeds
        if tries == 1_000_000:
            raise ValueError("love_letter: no world matches the view")
    hist = s[:n].copy()
    for i in range(n):
        if slot[i] >= 0:
            hist[i] = val[slot[i]]
    _reset(out)
    for i in range(n):
        apply_action(out, params, hist[i])


@nb.njit(cache=True)
def info_key(s, params, player):
    """The cards the player took and when, hashed: its view among worlds sharing the
    public steps."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(s[N]):
        if s[2 * L + i] == player:
            h = (h ^ np.uint64(8 * i + s[i] + 1)) * np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(31)
    return np.int64(h >> np.uint64(1))


@nb.njit(cache=True)
def history(s, params, out):
    n = s[N]
    out[:n] = s[:n]
    return n


KERNEL = Kernel(current_player, legal_actions, chance_outcomes, apply_action, returns,
                observe, info_tensor, redeterminize, info_key=info_key, history=history)


@register_game
class LoveLetter(Game):
    """One round of two-player Love Letter."""

    name = "love_letter"

    def __init__(self, **params):
        super().__init__(**params)
        self.num_players = 2
        self.num_actions = 15
        self.max_chance_outcomes = 64
        self.state_size = STATE_SIZE
        self.tensor_shape = (MAX_TURNS * W + 55,)
        self.max_game_length = L
        self.kernel = KERNEL
        self.kparams = np.array([L], dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        s = np.empty(self.state_size, dtype=np.int64)
        _reset(s)
        return s

    def view_data(self, state: State, player: int) -> tuple:
        s = state.data
        n = int(s[N])
        seen = (s[2 * L:2 * L + n] == -1) | (s[2 * L:2 * L + n] == player)
        return tuple(np.where(seen, s[:n], -1).tolist())

    def state_from_view(self, view: View) -> State:
        """The view's steps replayed, an unseen card a Guard until the kernel redraws it
        (fixed seed: one template per view)."""
        s = self.initial_data()
        for a in view.data:
            apply_action(s, self.kparams, max(a, 0))
        out = np.empty_like(s)
        self.kernel.redeterminize(s, self.kparams, view.player, new_rng(0), out)
        return State(self, out)

    def action_to_string(self, action: int, player: int) -> str:
        if player == CHANCE:
            return NAMES[action] if action < 8 else f"{NAMES[action // 8]} / {NAMES[action % 8]}"
        if action < 7:
            return f"Guard: name {NAMES[action + 1]}"
        return ("Guard (no effect)", "Priest", "Baron", "Handmaid", "Prince on the opponent",
                "Prince on yourself", "King", "Countess")[action - 7]

    def _table(self, s: np.ndarray, player: int | None) -> str:
        hands = []
        for q in range(2):
            cards = [int(c) for c in (s[HAND + q], s[DRAWN] if s[TURN] == q else -1) if c >= 0]
            shown = player in (None, q)
            hands.append(f"{q}: " + (" ".join(NAMES[c] for c in cards) if shown else "?"))
        up = [NAMES[int(s[i])] for i in range(min(int(s[N]), 4)) if s[L + i] == K_UP]
        deck = int(s[COUNT:COUNT + 8].sum())
        text = f"hands {', '.join(hands)} | face up {' '.join(up) or '-'} | deck {deck}"
        if s[PHASE] == OVER:
            w = int(s[WINNER])
            text += " | a draw" if w == 2 else f" | player {w} wins"
        return text

    def describe(self, state: State) -> str:
        return self._table(state.data, None)

    def describe_view(self, view: View) -> str:
        return self._table(self.state_from_view(view).data, view.player)
