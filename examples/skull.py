"""Skull (Skull & Roses), one round, for 2-4 players: an isz game written outside the package.

Each player holds 4 discs, 3 flowers and 1 skull. Placement: in turn from player 0,
every player first places one disc face down on its own stack; then, in turn, the
player to move places another disc from its hand or opens the bidding with a bid k,
1 <= k <= the discs on the table (with an empty hand it must bid). Bidding: in turn,
skipping those who passed, each player raises (up to the discs on the table) or
passes, out of the bidding for good. It ends when the bid equals the discs on the
table or every other player has passed; the highest bidder is the challenger. Reveal:
the challenger's own stack is turned over first, all of it; a skull there loses. Then,
while the flowers revealed are fewer than the bid, the challenger picks another seat
whose top unrevealed disc is turned over: a skull loses, reaching the bid wins.
Returns: the challenger +1 / -1, every other seat -1/(P-1) / +1/(P-1) (zero-sum).

Each seat sees its own discs, that another seat placed a disc (not which), every bid,
pass and pick, and every revealed disc. The reveals are chance steps with one certain
outcome, seen by all: the challenger's stack (does it hold the skull; where does not
matter, the round is over then), then each picked disc.

Actions (M = 4P, the most discs on the table): ``0`` place a flower, ``1`` place the
skull, ``1 + k`` bid k (``2..M+1``), ``M + 2`` pass, ``M + 3 + j`` pick seat j.
Chance: ``0`` flower (no skull in the challenger's stack), ``1`` skull.

State array (int64[L + 9 + 15P], ``L = max_game_length = 17P - 2``): ``s[0:L]`` the
history (every action and chance outcome in order, -1 = not yet), then at ``L +``:
``N`` steps, ``TURN`` seat to move, ``PHASE`` (place, bid, own: the challenger's
stack is due, pick, reveal: the picked disc is due, over), ``BID``, ``BIDDER``,
``FLOWERS`` revealed, ``PICKED`` seat, ``RESULT`` (-1, 0 the challenger won, 1 lost),
``PICKS`` made; per seat ``HEIGHT``, ``REV`` (discs revealed from the top),
``PASSAT`` (the bid it passed at, 0 = in); ``STACK`` (4 per seat, bottom first: 0
flower, 1 skull, -1 none); ``BIDBY`` (per bid value, its bidder, -1); ``REVAT`` (per
disc, 1 for the challenger's own reveal, t + 2 for pick t, 0 not revealed): all a
function of the history. ``kparams`` = ``[P, L]``. The first D steps of a history
are the D placements, round robin from seat 0.

View data: the player's observation tokens in order: the history with -1 for each
disc another seat placed. Tensor (float32[P(19 + M) + 10 + P]), seats relative to the
player, ``(seat - player) % P``, a block of 19 + M each: per disc position (4) placed,
known flower, known skull (own discs and revealed ones); per position the reveal
order / M (4); passed at / M (1); per bid value "this seat made it" (M); to move (1);
the challenger (1). Then the phase one-hot (6); the bid, the discs on the table and the
flowers revealed, each / M; "its own skull is still in hand"; the player one-hot (P).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz import CHANCE, TERMINAL, Game, IszError, State, View, register_game
from isz.games import Kernel, new_rng, rand_below

N, TURN, PHASE, BID, BIDDER, FLOWERS, PICKED, RESULT, PICKS = range(9)  # offsets past L
HEIGHT, REV, PASSAT, STACK, BIDBY, REVAT = range(6)  # per-seat arrays past them
_START = np.array([0, 1, 2, 3, 7, 11], dtype=np.int64)  # their starts, in units of P
PLACE, BIDDING, OWN, PICK, REVEAL, OVER = range(6)  # phases
FLOWER, SKULL = 0, 1  # placement actions and chance outcomes
WON, LOST = 0, 1


@nb.njit(cache=True)
def _at(params, field):
    return params[1] + 9 + _START[field] * params[0]


@nb.njit(cache=True)
def _reset(s, params):
    """The empty history: placement, seat 0 to move, nothing on the table."""
    P, L = params[0], params[1]
    s[:] = 0
    s[:L] = -1
    s[L + BIDDER], s[L + PICKED], s[L + RESULT] = -1, -1, -1
    s[_at(params, STACK):_at(params, BIDBY) + 4 * P] = -1


@nb.njit(cache=True)
def _discs(s, params):
    h = _at(params, HEIGHT)
    return s[h:h + params[0]].sum()


@nb.njit(cache=True)
def _skull_placed(s, params, q):
    st = _at(params, STACK) + 4 * q
    for i in range(s[_at(params, HEIGHT) + q]):
        if s[st + i] == SKULL:
            return True
    return False


@nb.njit(cache=True)
def current_player(s, params):
    ph = s[params[1] + PHASE]
    if ph == OVER:
        return TERMINAL
    return CHANCE if ph == OWN or ph == REVEAL else s[params[1] + TURN]


@nb.njit(cache=True)
def legal_actions(s, params, out):
    P, L = params[0], params[1]
    ph, t, hgt = s[L + PHASE], s[L + TURN], _at(params, HEIGHT)
    k = 0
    if ph == PICK:
        for j in range(P):
            if j != t and s[_at(params, REV) + j] < s[hgt + j]:
                out[k] = 4 * P + 3 + j
                k += 1
        return k
    d = _discs(s, params)
    low = s[L + BID] + 1
    if ph == PLACE:
        h, sk = s[hgt + t], _skull_placed(s, params, t)
        if h < 4 and h - sk < 3:
            out[k] = FLOWER
            k += 1
        if h < 4 and not sk:
            out[k] = SKULL
            k += 1
        low = 1 if h >= 1 else d + 1  # no bid before the first round is placed
    for b in range(low, d + 1):
        out[k] = 1 + b
        k += 1
    if ph == BIDDING:
        out[k] = 4 * P + 2
        k += 1
    return k


@nb.njit(cache=True)
def chance_outcomes(s, params, out_a, out_p):
    """One certain outcome: the challenger's stack holds its skull, or the picked disc."""
    L, j = params[1], s[params[1] + PICKED]
    if s[L + PHASE] == OWN:
        out_a[0] = SKULL if _skull_placed(s, params, s[L + BIDDER]) else FLOWER
    else:
        pos = s[_at(params, HEIGHT) + j] - 1 - s[_at(params, REV) + j]
        out_a[0] = s[_at(params, STACK) + 4 * j + pos]
    out_p[0] = 1.0
    return 1


@nb.njit(cache=True)
def _next(s, params, t):
    """The next seat after ``t`` still in the bidding."""
    P, pa = params[0], _at(params, PASSAT)
    q = (t + 1) % P
    while s[pa + q] != 0:
        q = (q + 1) % P
    return q


@nb.njit(cache=True)
def _bid(s, params, t, k):
    L = params[1]
    s[L + BID], s[L + BIDDER], s[_at(params, BIDBY) + k - 1] = k, t, t
    s[L + PHASE] = BIDDING
    if k == _discs(s, params):
        s[L + PHASE] = OWN
    else:
        s[L + TURN] = _next(s, params, t)


@nb.njit(cache=True)
def apply_action(s, params, a):
    P, L = params[0], params[1]
    n, ph, t = s[L + N], s[L + PHASE], s[L + TURN]
    s[n], s[L + N] = a, n + 1
    hgt, rev, st, rat = _at(params, HEIGHT), _at(params, REV), _at(params, STACK), \
        _at(params, REVAT)
    if ph == PLACE and a <= SKULL:
        s[st + 4 * t + s[hgt + t]] = a
        s[hgt + t] += 1
        s[L + TURN] = (t + 1) % P
    elif ph == PLACE or (ph == BIDDING and a < 4 * P + 2):
        _bid(s, params, t, a - 1)
    elif ph == BIDDING:  # a pass
        pa, active = _at(params, PASSAT), 0
        s[pa + t] = s[L + BID]
        for q in range(P):
            active += s[pa + q] == 0
        if active == 1:
            s[L + PHASE] = OWN
        else:
            s[L + TURN] = _next(s, params, t)
    elif ph == OWN:
        c = s[L + BIDDER]
        if a == SKULL:
            s[L + RESULT], s[L + PHASE] = LOST, OVER
            return
        h = s[hgt + c]
        s[rev + c], s[L + FLOWERS] = h, h
        s[st + 4 * c:st + 4 * c + h] = FLOWER
        s[rat + 4 * c:rat + 4 * c + h] = 1
        s[L + PHASE], s[L + TURN] = PICK, c
        if h >= s[L + BID]:
            s[L + RESULT], s[L + PHASE] = WON, OVER
    elif ph == PICK:
        s[L + PICKED], s[L + PHASE] = a - 4 * P - 3, REVEAL
    else:  # the picked disc
        j = s[L + PICKED]
        pos = 4 * j + s[hgt + j] - 1 - s[rev + j]
        s[st + pos], s[rev + j], s[L + PICKS] = a, s[rev + j] + 1, s[L + PICKS] + 1
        s[rat + pos] = s[L + PICKS] + 1
        s[L + FLOWERS] += a == FLOWER
        s[L + PHASE] = PICK
        if a == SKULL:
            s[L + RESULT], s[L + PHASE] = LOST, OVER
        elif s[L + FLOWERS] == s[L + BID]:
            s[L + RESULT], s[L + PHASE] = WON, OVER


@nb.njit(cache=True)
def returns(s, params, out):
    P, L = params[0], params[1]
    won = 1.0 if s[L + RESULT] == WON else -1.0
    out[:P] = -won / (P - 1)
    out[s[L + BIDDER]] = won


@nb.njit(cache=True)
def observe(s, params, a, player):
    L = params[1]
    if s[L + PHASE] == PLACE and a <= SKULL and s[L + TURN] != player:
        return -1  # "another seat placed a disc": one token whatever the disc
    return a


@nb.njit(cache=True)
def info_tensor(s, params, player, out):
    P, L = params[0], params[1]
    M, W = 4 * P, 19 + 4 * P
    hgt, rev, st = _at(params, HEIGHT), _at(params, REV), _at(params, STACK)
    rat, pa, by = _at(params, REVAT), _at(params, PASSAT), _at(params, BIDBY)
    ph = s[L + PHASE]
    out[:] = 0.0
    for q in range(P):
        b, h = ((q - player) % P) * W, s[hgt + q]
        for i in range(h):
            out[b + 3 * i] = 1.0
            if q == player or i >= h - s[rev + q]:
                out[b + 3 * i + 1 + s[st + 4 * q + i]] = 1.0
            out[b + 12 + i] = s[rat + 4 * q + i] / M
        out[b + 16] = s[pa + q] / M
        for k in range(M):
            out[b + 17 + k] = s[by + k] == q
        out[b + 17 + M] = q == s[L + TURN] and (ph == PLACE or ph == BIDDING or ph == PICK)
        out[b + 18 + M] = q == s[L + BIDDER] and ph >= OWN
    g = P * W
    out[g + ph] = 1.0
    out[g + 6] = s[L + BID] / M
    out[g + 7] = _discs(s, params) / M
    out[g + 8] = s[L + FLOWERS] / M
    out[g + 9] = not _skull_placed(s, params, player)
    out[g + 10 + player] = 1.0


@nb.njit(cache=True)
def redeterminize(s, params, player, rng, out):
    """Redraw every other seat's hidden discs: its skull goes to one of the positions
    its view leaves open, uniformly: a revealed skull stays put; a challenger whose own
    stack was announced to hold the skull has it at one of its discs; otherwise any
    unrevealed placed disc, or the hand (one option) while the seat has fewer than 4
    discs down. Only heights, reveals and revealed discs are read; the history is then
    replayed with the new placements."""
    P, L = params[0], params[1]
    hgt, rev, st = _at(params, HEIGHT), _at(params, REV), _at(params, STACK)
    skull = np.full(P, -1, dtype=np.int64)  # drawn position per seat, 4 = in hand
    for q in range(P):
        h, r = s[hgt + q], s[rev + q]
        for i in range(h - r, h):
            if s[st + 4 * q + i] == SKULL:
                skull[q] = i
        if skull[q] >= 0 or q == player:
            continue
        if q == s[L + BIDDER] and s[L + RESULT] == LOST and r == 0:
            skull[q] = rand_below(rng, h)  # its own stack held it
        else:
            pick = rand_below(rng, h - r + (h < 4))
            skull[q] = pick if pick < h - r else 4
    n = s[L + N]
    hist = s[:n].copy()
    _reset(out, params)
    for i in range(n):
        a, t = hist[i], out[L + TURN]
        if out[L + PHASE] == PLACE and a <= SKULL and t != player:
            a = SKULL if out[hgt + t] == skull[t] else FLOWER
        apply_action(out, params, a)


@nb.njit(cache=True)
def info_key(s, params, player):
    """The position of the player's skull in its stack, 4 while in hand: all it holds
    hidden (worlds of one view share the heights)."""
    st = _at(params, STACK) + 4 * player
    for i in range(s[_at(params, HEIGHT) + player]):
        if s[st + i] == SKULL:
            return i
    return 4


@nb.njit(cache=True)
def history(s, params, out):
    n = s[params[1] + N]
    out[:n] = s[:n]
    return n


KERNEL = Kernel(current_player, legal_actions, chance_outcomes, apply_action, returns,
                observe, info_tensor, redeterminize, info_key=info_key, history=history)


@register_game
class Skull(Game):
    """One round of Skull for 2-4 players: place, bid, reveal."""

    name = "skull"
    PARAMS = {"players": 2}

    def __init__(self, **params):
        super().__init__(**params)
        p = self.params["players"]
        if isinstance(p, bool) or not isinstance(p, int) or not 2 <= p <= 4:
            raise IszError(f"skull players must be an integer in [2, 4], got {p!r}")
        m, length = 4 * p, 17 * p - 2
        # The longest round: M placements, at most M bids (each value once) and P - 1
        # passes, the challenger's own reveal, at most M - 1 picks and their reveals.
        self.num_players = p
        self.num_actions = m + 3 + p
        self.max_chance_outcomes = 2
        self.state_size = length + 9 + 15 * p
        self.tensor_shape = (p * (19 + m) + 10 + p,)
        self.max_game_length = length
        self.kernel = KERNEL
        self.kparams = np.array([p, length], dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        s = np.empty(self.state_size, dtype=np.int64)
        _reset(s, self.kparams)
        return s

    def _field(self, s: np.ndarray, field: int, q: int) -> int:
        return int(s[_at(self.kparams, field) + q])

    def view_data(self, state: State, player: int) -> tuple:
        s = state.data
        tokens = s[:s[self.max_game_length + N]].copy()
        seat = np.arange(min(tokens.size, _discs(s, self.kparams))) % self.num_players
        tokens[:seat.size][seat != player] = -1  # the other seats' placements
        return tuple(tokens.tolist())

    def state_from_view(self, view: View) -> State:
        """The view's tokens replayed, a hidden disc a flower until the kernel draws
        the seat's skull (fixed seed: one template per view)."""
        s = self.initial_data()
        for a in view.data:
            apply_action(s, self.kparams, max(a, 0))
        out = np.empty_like(s)
        self.kernel.redeterminize(s, self.kparams, view.player, new_rng(0), out)
        return State(self, out)

    def action_to_string(self, action: int, player: int) -> str:
        m = 4 * self.num_players
        if player == CHANCE:
            return ("flower", "skull")[action]
        if action <= SKULL:
            return ("place a flower", "place the skull")[action]
        if action <= m + 1:
            return f"bid {action - 1}"
        return "pass" if action == m + 2 else f"pick seat {action - m - 3}"

    def _stacks(self, s: np.ndarray, player: int | None) -> str:
        """Stacks bottom first: f/s a disc, upper case once revealed, ? one hidden
        from ``player`` (None: every disc shown)."""
        L, out = self.max_game_length, []
        for q in range(self.num_players):
            h, r, passed = (self._field(s, f, q) for f in (HEIGHT, REV, PASSAT))
            discs = "".join("?" if player not in (None, q) and i < h - r else
                            ("fs" if i < h - r else "FS")[self._field(s, STACK, 4 * q + i)]
                            for i in range(h))
            out.append(f"{q}:{discs or '-'}" + (f" (passed at {passed})" if passed else ""))
        text = "stacks " + " ".join(out)
        if s[L + BID]:
            text += f" | bid {s[L + BID]} by {s[L + BIDDER]}"
        if s[L + PHASE] >= PICK:
            text += f" | flowers revealed {int(s[L + FLOWERS])}"
        if s[L + PHASE] == OVER:
            text += f" | the challenger {('wins', 'loses')[int(s[L + RESULT])]}"
        return text

    def describe(self, state: State) -> str:
        return self._stacks(state.data, None)

    def describe_view(self, view: View) -> str:
        s = self.state_from_view(view).data
        hand = 4 - self._field(s, HEIGHT, view.player)
        skull = not _skull_placed(s, self.kparams, view.player)
        return (f"{self._stacks(s, view.player)}\nyour hand: {hand} disc(s)"
                + (", the skull among them" if skull else ""))
