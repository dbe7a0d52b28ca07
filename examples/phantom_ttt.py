"""Phantom tic-tac-toe: tic-tac-toe where neither player sees the other's marks.

OpenSpiel's ``phantom_ttt`` with ``obstype=reveal-numturns``, written outside the
package as a held-out check of the default recipe (`docs/results/phantom_ttt.md`).
Player 0 (x) and player 1 (o) take turns to try a cell they have not tried. If the
cell is empty their mark goes there and the turn passes; if the opponent holds it,
they learn that and must try again. Each player sees its own attempts, what each
attempt found (its own and the opponent's: the turn passes or it does not), but not
which cells the opponent tried. Three in a row wins (+1 / -1), a full board is a
draw (0).

Sequence: an attempt (player to move; hidden from the opponent), then its result
(chance, one certain outcome, public). Actions: try cell ``c`` (``0..8``,
row-major). Results: ``PLACED`` (0, the game goes on), ``FOUND`` (1, the opponent
holds the cell), ``WON`` (2, placed, three in a row), ``DRAWN`` (3, placed, the
board is full). At most 17 attempts: nine marks, and each player fails at most four
times (a failure finds one of the opponent's marks, of which it holds at most four
while the game goes on).

State array (int64[3L + 2], ``L = 17``): ``s[0:L]`` the cell of each attempt,
``s[L:2L]`` who made it, ``s[2L:3L]`` its result, -1 = not yet; ``s[3L]`` the number
of attempts; ``s[3L + 1]`` what comes next: the seat to move, ``RESULT`` (3) or
``OVER`` (2). ``kparams`` = ``[0]``.

View data: the player's observations in order: per attempt its cell (own) or -1
(the opponent's), then its result once announced. Tensor (float32[11L + 29]): per
attempt a block of 11 (own cell one-hot, "the opponent tried", "it found a mark");
then the player's board: its marks (9), the opponent's marks it found (9), the
cells it has not tried (9); then the player one-hot (2).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz import CHANCE, TERMINAL, Game, State, View, register_game
from isz.games import Kernel, new_rng, rand_below, shuffle_prefix

L = 17  # the longest game: 9 marks + 4 failures a player
N, NEXT = 3 * L, 3 * L + 1  # the attempts so far; what comes next
OVER, RESULT = 2, 3
PLACED, FOUND, WON, DRAWN = 0, 1, 2, 3
LINES = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8],
                  [0, 4, 8], [2, 4, 6]], dtype=np.int64)


@nb.njit(cache=True)
def _has_line(board, mark):
    for i in range(8):
        if board[LINES[i, 0]] == mark and board[LINES[i, 1]] == mark \
                and board[LINES[i, 2]] == mark:
            return True
    return False


@nb.njit(cache=True)
def _board(s, upto):
    """The true board (0 empty, 1 x, 2 o) after the first ``upto`` attempts."""
    board = np.zeros(9, dtype=np.int64)
    for t in range(upto):
        if board[s[t]] == 0:
            board[s[t]] = s[L + t] + 1
    return board


@nb.njit(cache=True)
def _placed(s, t):
    """Attempt ``t`` is announced and put a mark down."""
    return s[2 * L + t] >= 0 and s[2 * L + t] != FOUND


@nb.njit(cache=True)
def current_player(s, params):
    nxt = s[NEXT]
    if nxt == OVER:
        return TERMINAL
    return CHANCE if nxt == RESULT else nxt


@nb.njit(cache=True)
def legal_actions(s, params, out):
    p = s[NEXT]
    tried = np.zeros(9, dtype=np.bool_)
    for t in range(s[N]):
        if s[L + t] == p:
            tried[s[t]] = True
    k = 0
    for c in range(9):  # every attempt either marked the cell or found the opponent's
        if not tried[c]:
            out[k] = c
            k += 1
    return k


@nb.njit(cache=True)
def chance_outcomes(s, params, out_a, out_p):
    t = s[N] - 1  # the attempt whose result is due
    board = _board(s, t)
    if board[s[t]] != 0:
        out_a[0] = FOUND
    else:
        board[s[t]] = s[L + t] + 1
        marks = 0
        for c in range(9):
            if board[c] != 0:
                marks += 1
        out_a[0] = WON if _has_line(board, s[L + t] + 1) else (DRAWN if marks == 9 else PLACED)
    out_p[0] = 1.0
    return 1


@nb.njit(cache=True)
def apply_action(s, params, a):
    n = s[N]
    if s[NEXT] == RESULT:
        s[2 * L + n - 1] = a
        mover = s[L + n - 1]
        s[NEXT] = mover if a == FOUND else (1 - mover if a == PLACED else OVER)
    else:
        s[n], s[L + n], s[N], s[NEXT] = a, s[NEXT], n + 1, RESULT


@nb.njit(cache=True)
def returns(s, params, out):
    board = _board(s, s[N])
    out[0] = 1.0 if _has_line(board, 1) else (-1.0 if _has_line(board, 2) else 0.0)
    out[1] = -out[0]


@nb.njit(cache=True)
def observe(s, params, a, player):
    nxt = s[NEXT]
    return a if nxt == RESULT or nxt == player else -1  # "the opponent tried a cell"


@nb.njit(cache=True)
def info_tensor(s, params, player, out):
    out[:] = 0.0
    b = 11 * L
    out[b + 18:b + 27] = 1.0
    for t in range(s[N]):
        r = s[2 * L + t]
        if s[L + t] == player:
            c = s[t]
            out[11 * t + c] = 1.0
            out[b + 18 + c] = 0.0
            if r == FOUND:
                out[b + 9 + c] = 1.0
            elif r >= 0:
                out[b + c] = 1.0
        else:
            out[11 * t + 9] = 1.0
        if r == FOUND:
            out[11 * t + 10] = 1.0
    out[b + 27 + player] = 1.0


@nb.njit(cache=True)
def _fits(cells, n_cells, mark, last_won):
    """The drawn opponent marks against the results: no three in a row while the game
    went on; where its last mark was announced as won, three in a row then."""
    board = np.zeros(9, dtype=np.int64)
    for j in range(n_cells):
        board[cells[j]] = mark
    if not last_won:
        return not _has_line(board, mark)
    board[cells[n_cells - 1]] = 0
    if _has_line(board, mark):
        return False
    board[cells[n_cells - 1]] = mark
    return _has_line(board, mark)


@nb.njit(cache=True)
def redeterminize(s, params, player, rng, out):
    """Redraw the opponent's cells uniformly among the histories consistent with the
    player's view: the exact posterior were the opponent to try its untried cells at
    random, since the turn order fixes how many it had at each attempt, so every such
    history is equally likely. Each own failure pins an opponent mark to one of its
    placing attempts before it; no own mark is the opponent's; each opponent failure
    found one of the player's marks; a pending opponent attempt is any untried cell."""
    n, opp = s[N], 1 - player
    out[:] = s
    pending_opp = s[NEXT] == RESULT and s[L + n - 1] == opp
    m = n - 1 if pending_opp else n
    own_mark = np.zeros(9, dtype=np.bool_)
    pinned = np.zeros(9, dtype=np.bool_)
    slots = np.empty(L, dtype=np.int64)  # the opponent's placing attempts, in order
    n_slots, last_won = 0, False
    for t in range(m):
        r = s[2 * L + t]
        if s[L + t] == player:
            if r == FOUND:
                pinned[s[t]] = True
            elif r >= 0:
                own_mark[s[t]] = True
        elif r != FOUND:
            slots[n_slots] = t
            n_slots += 1
            last_won = r == WON
    free = np.empty(9, dtype=np.int64)
    n_free = 0
    for c in range(9):
        if not own_mark[c] and not pinned[c]:
            free[n_free] = c
            n_free += 1
    used = np.zeros(L, dtype=np.bool_)
    cells = np.empty(L, dtype=np.int64)
    while True:  # rejection on the lines only: every other constraint is built in
        used[:] = False
        for t in range(m):  # each pinned cell into an unused slot before its discovery
            if s[L + t] == player and s[2 * L + t] == FOUND:
                _pin(slots, n_slots, used, t, s[t], rng, out)
        shuffle_prefix(rng, free, n_free)
        f = 0
        for j in range(n_slots):
            if not used[j]:
                out[slots[j]] = free[f]
                f += 1
            cells[j] = out[slots[j]]
        if _fits(cells, n_slots, 1 + opp, last_won):
            break
    _redraw_failures(s, out, player, m, rng)
    if pending_opp:
        _redraw_pending(out, opp, n, rng)


@nb.njit(cache=True)
def _uniform_true(mask, n, rng):
    """A uniform index among the true entries of ``mask[:n]`` (at least one)."""
    k = 0
    for i in range(n):
        if mask[i]:
            k += 1
    pick = rand_below(rng, k)
    for i in range(n):
        if mask[i]:
            if pick == 0:
                return i
            pick -= 1
    return -1


@nb.njit(cache=True)
def _pin(slots, n_slots, used, t, cell, rng, out):
    """Put ``cell`` at a uniform unused slot before attempt ``t``."""
    free = np.zeros(n_slots, dtype=np.bool_)
    for j in range(n_slots):
        free[j] = slots[j] < t and not used[j]
    j = _uniform_true(free, n_slots, rng)
    used[j] = True
    out[slots[j]] = cell


@nb.njit(cache=True)
def _redraw_failures(s, out, player, m, rng):
    """Each opponent failure found one of the player's marks it had not found yet
    (uniform: how many there were to find is fixed by the turn order)."""
    mine = np.empty(9, dtype=np.int64)
    unfound = np.zeros(9, dtype=np.bool_)  # per entry of ``mine``
    n_mine = 0
    for t in range(m):
        if s[L + t] == player:
            if _placed(s, t):
                mine[n_mine], unfound[n_mine] = s[t], True
                n_mine += 1
        elif s[2 * L + t] == FOUND:
            i = _uniform_true(unfound, n_mine, rng)
            unfound[i] = False
            out[t] = mine[i]


@nb.njit(cache=True)
def _redraw_pending(out, opp, n, rng):
    """The opponent's attempt whose result is not out yet: any cell it had not tried."""
    untried = np.ones(9, dtype=np.bool_)
    for t in range(n - 1):
        if out[L + t] == opp:
            untried[out[t]] = False
    out[n - 1] = _uniform_true(untried, 9, rng)


@nb.njit(cache=True)
def history(s, params, out):
    k = 0
    for t in range(s[N]):  # each attempt, then its result once announced
        out[k] = s[t]
        k += 1
        if s[2 * L + t] >= 0:
            out[k] = s[2 * L + t]
            k += 1
    return k


KERNEL = Kernel(current_player, legal_actions, chance_outcomes, apply_action,
                returns, observe, info_tensor, redeterminize, history=history)


@register_game
class PhantomTTT(Game):
    """Phantom tic-tac-toe, OpenSpiel's ``reveal-numturns`` variant."""

    name = "phantom_ttt"

    def __init__(self, **params):
        super().__init__(**params)
        self.num_players = 2
        self.num_actions = 9
        self.max_chance_outcomes = 4
        self.state_size = 3 * L + 2
        self.tensor_shape = (11 * L + 29,)
        self.max_game_length = 2 * L
        self.kernel = KERNEL
        self.kparams = np.zeros(1, dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        s = np.full(self.state_size, -1, dtype=np.int64)
        s[N], s[NEXT] = 0, 0
        return s

    def view_data(self, state: State, player: int) -> tuple:
        s, tokens = state.data, []
        for t in range(int(s[N])):
            tokens.append(int(s[t]) if s[L + t] == player else -1)
            if s[2 * L + t] >= 0:
                tokens.append(int(s[2 * L + t]))
        return tuple(tokens)

    def state_from_view(self, view: View) -> State:
        s, p = self.initial_data(), view.player
        attempts = _attempts(view.data)
        for t, (cell, result) in enumerate(attempts):  # the opponent's cells: 0 until drawn
            s[t], s[L + t] = (cell, p) if cell >= 0 else (0, 1 - p)
            s[2 * L + t] = -1 if result is None else result
        s[N] = len(attempts)
        if attempts:
            mover, result = s[L + s[N] - 1], attempts[-1][1]
            s[NEXT] = (RESULT if result is None else mover if result == FOUND
                       else 1 - mover if result == PLACED else OVER)
        out = np.empty_like(s)
        self.kernel.redeterminize(s, self.kparams, p, new_rng(0), out)
        return State(self, out)

    def action_to_string(self, action: int, player: int) -> str:
        if player == CHANCE:
            return ("placed", "found the opponent's mark", "placed: three in a row",
                    "placed: the board is full")[action]
        return f"try row {action // 3 + 1} column {action % 3 + 1}"

    def describe(self, state: State) -> str:
        board = _board(state.data, state.data[N])
        return "/".join("".join(".xo"[board[3 * r + c]] for c in range(3)) for r in range(3))

    def describe_view(self, view: View) -> str:
        """The player's board (its marks, the opponent's it found, ``.`` untried)."""
        me, them, cells = "xo"[view.player], "xo"[1 - view.player], ["."] * 9
        attempts = _attempts(view.data)
        for cell, result in attempts:
            if cell >= 0 and result is not None:
                cells[cell] = them if result == FOUND else me
        tries = sum(cell < 0 for cell, _ in attempts)
        return (f"you are {me}; your board " + "/".join(
            "".join(cells[3 * r:3 * r + 3]) for r in range(3))
            + f"; the opponent has tried {tries} time(s)")


def _attempts(tokens: tuple) -> list[tuple[int, int | None]]:
    """A view's observations as (own cell or -1, result or None) per attempt."""
    out: list[tuple[int, int | None]] = []
    for i in range(0, len(tokens), 2):
        out.append((tokens[i], tokens[i + 1] if i + 1 < len(tokens) else None))
    return out
