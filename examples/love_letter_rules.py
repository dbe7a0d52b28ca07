"""The compiled rules of two-player Love Letter (`examples/love_letter.py` has the game,
its layouts and its resampler): set-up, draws, plays, reveals, returns, what each seat
observes and its information tensor."""

from __future__ import annotations

import numba as nb
import numpy as np

from isz import CHANCE, TERMINAL

L = 46
N, PHASE, TURN, PEND, TARGET, ASIDE, WINNER, HAND, DRAWN, PROT, SUM, COUNT = (
    3 * L + np.array([0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 14]))
STATE_SIZE = 3 * L + 22
SETUP, DRAW, MOVE, REVEAL, REDRAW, OVER = range(6)  # phases
K_ASIDE, K_UP, K_DEAL, K_DRAW, K_MOVE, K_REVEAL, K_REDRAW = range(7)  # step kinds
GUARD, PRIEST, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS = range(8)
DECK = np.array([5, 2, 2, 2, 2, 1, 1, 1], dtype=np.int64)
RANK = np.array([0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 4, 5, 6], dtype=np.int64)  # per action
MAX_TURNS, W = 10, 49  # turn blocks of the tensor
UP = MAX_TURNS * W  # then: the face-up cards (3 x 8), the dealt card (8) at UP + 24,
NOW = UP + 32  # the hand (8), protections (2), deck size, cards played by rank (8) at
PLAYED = NOW + 11  # PLAYED, the sums played (2), the player (2)
NAMES = ("Guard", "Priest", "Baron", "Handmaid", "Prince", "King", "Countess", "Princess")


@nb.njit(cache=True)
def _reset(s):
    s[:] = 0
    s[:L] = -1
    s[ASIDE], s[WINNER], s[TARGET], s[PEND], s[DRAWN] = -1, -1, -1, -1, -1
    s[COUNT:COUNT + 8] = DECK


@nb.njit(cache=True)
def current_player(s, params):
    ph = s[PHASE]
    if ph == OVER:
        return TERMINAL
    return s[TURN] if ph == MOVE else CHANCE


@nb.njit(cache=True)
def legal_actions(s, params, out):
    """Each action of the two cards held, in action order: a Guard names a card unless the
    opponent is protected (then it has no effect), a Prince takes the opponent only while
    it is not; beside a King or a Prince the Countess is the only play, and the Princess
    is never played."""
    t = s[TURN]
    h, d = s[HAND + t], s[DRAWN]
    guarded = s[PROT + 1 - t] == 1
    countess = (h == COUNTESS and (d == KING or d == PRINCE)) or (
        d == COUNTESS and (h == KING or h == PRINCE))
    n = 0
    for a in range(15):
        c = RANK[a]
        if (c != h and c != d) or (countess and c != COUNTESS):
            continue
        if (a < 7 or a == 11) and guarded or a == 7 and not guarded:
            continue
        out[n] = a
        n += 1
    return n


@nb.njit(cache=True)
def chance_outcomes(s, params, out_a, out_p):
    ph = s[PHASE]
    if ph == REVEAL or (ph == REDRAW and s[COUNT:COUNT + 8].sum() == 0):
        out_a[0] = s[PEND] if ph == REVEAL else s[ASIDE]
        out_p[0] = 1.0
        return 1
    total, n = s[COUNT:COUNT + 8].sum(), 0
    for c in range(8):
        if s[COUNT + c] > 0:
            out_a[n], out_p[n] = c, s[COUNT + c] / total
            n += 1
    return n


@nb.njit(cache=True)
def _record(s, a, kind, seen_by):
    n = s[N]
    s[n], s[L + n], s[2 * L + n] = a, kind, seen_by
    s[N] = n + 1


@nb.njit(cache=True)
def _end_turn(s):
    """Next turn, or the showdown once the deck is empty."""
    if s[COUNT:COUNT + 8].sum() > 0:
        s[TURN], s[PHASE] = 1 - s[TURN], DRAW
        return
    h0, h1 = s[HAND], s[HAND + 1]
    if h0 == h1:
        h0, h1 = s[SUM], s[SUM + 1]
    s[WINNER] = 0 if h0 > h1 else (1 if h1 > h0 else 2)
    s[PHASE] = OVER


@nb.njit(cache=True)
def _setup(s, a):
    n = s[N]
    s[COUNT + a] -= 1
    if n == 0:
        s[ASIDE] = a
        _record(s, a, K_ASIDE, -2)
    elif n < 4:
        _record(s, a, K_UP, -1)
    else:
        s[HAND + n - 4] = a
        _record(s, a, K_DEAL, n - 4)
        if n == 5:
            s[PHASE] = DRAW


@nb.njit(cache=True)
def _move(s, a):
    """Play action ``a``: the card leaves the hand; a reveal is due if it shows anything."""
    t = s[TURN]
    o, r = 1 - t, RANK[a]
    if s[HAND + t] == r:
        s[HAND + t] = s[DRAWN]
    s[DRAWN] = -1
    s[SUM + t] += r + 1
    _record(s, a, K_MOVE, -1)
    guarded = s[PROT + o] == 1
    if a < 7:
        s[PEND] = 1 if s[HAND + o] == a + 1 else 0
    elif (a == 8 or a == 9 or a == 13) and not guarded:
        s[PEND] = s[HAND + o] if a == 8 else 8 * s[HAND + t] + s[HAND + o]
    elif a == 11 or a == 12:
        s[TARGET] = o if a == 11 else t
        s[PEND] = s[HAND + s[TARGET]]
    else:
        s[PROT + t] = a == 10
        _end_turn(s)
        return
    s[PHASE] = REVEAL


@nb.njit(cache=True)
def _reveal(s, a):
    """The effect, read from the outcome ``a`` alone (the flow never reads a hidden card)."""
    t, act = s[TURN], s[s[N] - 1]  # the play this reveal follows
    o = 1 - t
    _record(s, a, K_REVEAL, -1)
    if act < 7:
        if a == 1:
            s[WINNER], s[PHASE] = t, OVER
            return
    elif act == 9 and a // 8 != a % 8:
        s[WINNER], s[PHASE] = (t if a // 8 > a % 8 else o), OVER
        return
    elif act == 13:
        s[HAND + t], s[HAND + o] = a % 8, a // 8
    elif act == 11 or act == 12:
        q = s[TARGET]
        s[SUM + q] += a + 1
        if a == PRINCESS:
            s[WINNER], s[PHASE] = 1 - q, OVER
            return
        s[HAND + q], s[PHASE] = -1, REDRAW
        return
    _end_turn(s)


@nb.njit(cache=True)
def apply_action(s, params, a):
    ph = s[PHASE]
    if ph == SETUP:
        _setup(s, a)
    elif ph == DRAW:
        s[COUNT + a] -= 1
        s[DRAWN], s[PROT + s[TURN]], s[PHASE] = a, 0, MOVE
        _record(s, a, K_DRAW, s[TURN])
    elif ph == MOVE:
        _move(s, a)
    elif ph == REVEAL:
        _reveal(s, a)
    else:  # REDRAW: from the deck, or the card set aside once it is empty
        q = s[TARGET]
        if s[COUNT:COUNT + 8].sum() > 0:
            s[COUNT + a] -= 1
        s[HAND + q] = a
        _record(s, a, K_REDRAW, q)
        _end_turn(s)


@nb.njit(cache=True)
def returns(s, params, out):
    w = s[WINNER]
    out[0] = out[1] = 0.0
    if w < 2:
        out[w], out[1 - w] = 1.0, -1.0


@nb.njit(cache=True)
def observe(s, params, a, player):
    ph, n = s[PHASE], s[N]
    if ph == SETUP and (n == 0 or (n >= 4 and n - 4 != player)):
        return -1  # the card set aside, or the opponent's deal
    if (ph == DRAW and s[TURN] != player) or (ph == REDRAW and s[TARGET] != player):
        return -1  # a card the opponent takes
    return a


@nb.njit(cache=True)
def info_tensor(s, params, player, out):
    out[:] = 0.0
    turn, up = -1, 0
    for i in range(s[N]):
        a, k, by = s[i], s[L + i], s[2 * L + i]
        if k == K_UP:
            out[UP + 8 * up + a] = 1.0
            up += 1
        elif k == K_DEAL and by == player:
            out[UP + 24 + a] = 1.0
        elif k == K_DRAW:
            turn += 1
            out[turn * W] = by == player
            if by == player:
                out[turn * W + 33 + a] = 1.0
        elif k == K_MOVE:
            out[turn * W + 1 + a] = 1.0
        elif k == K_REVEAL:
            act = s[i - 1]
            if act < 7:
                out[turn * W + 16] = a
            elif act == 9 or act == 13:
                out[turn * W + 17 + a // 8] = 1.0
                out[turn * W + 25 + a % 8] = 1.0
            else:
                out[turn * W + 17 + a] = 1.0
        elif k == K_REDRAW and by == player:
            out[turn * W + 41 + a] = 1.0
        if k == K_MOVE or (k == K_REVEAL and (s[i - 1] == 11 or s[i - 1] == 12)):
            c = RANK[a] if k == K_MOVE else a  # played, or discarded by a Prince
            out[PLAYED + c] += 1.0 / DECK[c]
    for c in (s[HAND + player], s[DRAWN] if s[TURN] == player else -1):
        if c >= 0:
            out[NOW + c] += 1.0
    out[NOW + 8] = s[PROT + player]
    out[NOW + 9] = s[PROT + 1 - player]
    out[NOW + 10] = s[COUNT:COUNT + 8].sum() / 10.0
    out[PLAYED + 8] = s[SUM + player] / 50.0
    out[PLAYED + 9] = s[SUM + 1 - player] / 50.0
    out[PLAYED + 10 + player] = 1.0

