"""Battleship on a small square board: an isz game written outside the package.

A held-out check of the default recipe on a kind of hiding the other examples lack:
what is hidden is each seat's own choice at the start (where its ships lie), and
every later move is public. Each player places its fleet on its own ``n × n`` board,
unseen by the opponent, ships in a fixed order (lengths ``3, 2, 2``: the first
``ships`` of them), player 0 first. Then the players take turns to shoot one cell of
the other's board they have not shot, player 0 first; every shot and whether it hit
is announced to both. Whoever first hits every cell of the other's fleet wins (+1 /
-1); there are no draws.

Sequence: the placements (player 0's ships, then player 1's; each hidden from the
other seat), then shots (public) each followed by its result (chance, one certain
outcome, public). Actions: shoot cell ``c`` (``0..S-1``, ``S = n²``, row-major), or
place the current ship at ``S + o·S + c`` (``o`` = 0 across from ``c`` to the right,
1 down from ``c``; it must fit on the board and not touch the seat's earlier ships'
cells). Results: ``MISS`` (0), ``HIT`` (1).

State array (int64[2K + 4S + 3], ``K`` ships, ``M = 2S`` shot slots): ``s[qK + j]``
player ``q``'s ship ``j`` as ``o·S + c``; ``s[2K:2K+M]`` the cell of each shot in
order (shot ``t`` is player ``t mod 2``'s), ``s[2K+M:2K+2M]`` its result; -1 = not
yet; then the number of shots, what comes next (``SHOOT``, ``RESULT`` or ``OVER``)
and the winner (-1 while the game goes on). ``kparams`` = ``[n, K, lengths...]``.

View data: ``(*own ships (K), opponent's ships placed, *shots (M), *results (M))``.
Tensor (float32[(K + 6)·S + K + 3]): one plane of S cells for each own ship; for the
opponent's board, then the player's own: cells hit, cells missed, and each shot's
place in the order of shots ((t + 1) / M); then the opponent's ships placed,
one-hot (K + 1), and the player, one-hot (2).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from isz import CHANCE, TERMINAL, Game, IszError, State, View, register_game
from isz.games import Kernel, new_rng, rand_below

MISS, HIT = 0, 1
SHOOT, RESULT, OVER = 0, 1, 2
LENGTHS = (3, 2, 2)


@nb.njit(cache=True)
def _layout(params):
    """(S, K, M, index of the shot count): the sizes every kernel function needs."""
    n, k = params[0], params[1]
    return n * n, k, 2 * n * n, 2 * k + 4 * n * n


@nb.njit(cache=True)
def _ship_mask(params, j, pid):
    """The cells of ship ``j`` placed at ``pid`` as a bitmask, 0 if it leaves the board."""
    n = params[0]
    length = params[2 + j]
    o, c = pid // (n * n), pid % (n * n)
    r, col = c // n, c % n
    if (o == 0 and col + length > n) or (o == 1 and r + length > n):
        return 0
    mask = 0
    for i in range(length):
        cell = c + i if o == 0 else c + i * n
        mask |= 1 << cell
    return mask


@nb.njit(cache=True)
def _placed(s, params, q):
    k = params[1]
    for j in range(k):
        if s[q * k + j] < 0:
            return j
    return k


@nb.njit(cache=True)
def _fleet(s, params, q):
    """Player ``q``'s placed ships' cells as a bitmask."""
    mask = 0
    for j in range(_placed(s, params, q)):
        mask |= _ship_mask(params, j, s[q * params[1] + j])
    return mask


@nb.njit(cache=True)
def _marks(s, params, shooter, result):
    """The cells ``shooter`` shot with announced ``result``, as a bitmask."""
    _, k, m, ns = _layout(params)
    mask = 0
    for t in range(shooter, s[ns], 2):
        if s[2 * k + m + t] == result:
            mask |= 1 << s[2 * k + t]
    return mask


@nb.njit(cache=True)
def current_player(s, params):
    for q in range(2):
        if _placed(s, params, q) < params[1]:
            return q
    ns = _layout(params)[3]
    if s[ns + 1] == OVER:
        return TERMINAL
    return CHANCE if s[ns + 1] == RESULT else s[ns] % 2


@nb.njit(cache=True)
def legal_actions(s, params, out):
    sq, k, _, ns = _layout(params)
    cur = current_player(s, params)
    n_out = 0
    j = _placed(s, params, cur)
    if j < k:  # placing ship j: every fitting place clear of the earlier ships
        taken = _fleet(s, params, cur)
        for pid in range(2 * sq):
            mask = _ship_mask(params, j, pid)
            if mask != 0 and mask & taken == 0:
                out[n_out] = sq + pid
                n_out += 1
        return n_out
    shot = 0
    for t in range(cur, s[ns], 2):
        shot |= 1 << s[2 * k + t]
    for c in range(sq):
        if not shot >> c & 1:
            out[n_out] = c
            n_out += 1
    return n_out


@nb.njit(cache=True)
def chance_outcomes(s, params, out_a, out_p):
    _, k, _, ns = _layout(params)
    t = s[ns] - 1  # the shot whose result is due
    out_a[0] = HIT if _fleet(s, params, 1 - t % 2) >> s[2 * k + t] & 1 else MISS
    out_p[0] = 1.0
    return 1


@nb.njit(cache=True)
def apply_action(s, params, a):
    sq, k, m, ns = _layout(params)
    cur = current_player(s, params)
    if cur >= 0 and a >= sq:
        s[cur * k + _placed(s, params, cur)] = a - sq
    elif cur >= 0:
        s[2 * k + s[ns]] = a
        s[ns] += 1
        s[ns + 1] = RESULT
    else:
        t = s[ns] - 1
        s[2 * k + m + t] = a
        s[ns + 1] = SHOOT
        hits = _marks(s, params, t % 2, HIT)
        if a == HIT and hits == _fleet(s, params, 1 - t % 2):
            s[ns + 1], s[ns + 2] = OVER, t % 2


@nb.njit(cache=True)
def returns(s, params, out):
    w = s[_layout(params)[3] + 2]
    if w >= 0:
        out[w], out[1 - w] = 1.0, -1.0


@nb.njit(cache=True)
def observe(s, params, a, player):
    cur = current_player(s, params)
    if cur == CHANCE or cur == player or a < params[0] * params[0]:
        return a  # results and shots are public, own placements known
    return -1  # "the opponent placed a ship": one token wherever it lies


@nb.njit(cache=True)
def info_tensor(s, params, player, out):
    sq, k, m, ns = _layout(params)
    out[:] = 0.0
    for j in range(_placed(s, params, player)):
        mask = _ship_mask(params, j, s[player * k + j])
        for c in range(sq):
            out[j * sq + c] = mask >> c & 1
    for t in range(s[ns]):
        base = (k + (0 if t % 2 == player else 3)) * sq  # the opponent's board first
        c, res = s[2 * k + t], s[2 * k + m + t]
        if res == HIT:
            out[base + c] = 1.0
        elif res == MISS:
            out[base + sq + c] = 1.0
        out[base + 2 * sq + c] = (t + 1) / m
    tail = (k + 6) * sq
    out[tail + _placed(s, params, 1 - player)] = 1.0
    out[tail + k + 1 + player] = 1.0


@nb.njit(cache=True)
def redeterminize(s, params, player, rng, out):
    sq, k, _, _ = _layout(params)
    out[:] = s
    opp = 1 - player
    made = _placed(s, params, opp)  # how many: the template marks them, values unknown
    hits, misses = _marks(s, params, player, HIT), _marks(s, params, player, MISS)
    while True:  # rejection: each ship anywhere, kept if the fleet fits every result
        mask = 0
        ok = True
        for j in range(made):
            pid = rand_below(rng, 2 * sq)
            cells = _ship_mask(params, j, pid)
            if cells == 0 or cells & mask != 0:
                ok = False
                break
            mask |= cells
            out[opp * k + j] = pid
        if ok and mask & misses == 0 and mask & hits == hits:
            return


@nb.njit(cache=True)
def info_key(s, params, player):
    """The player's own ships, base 2S + 1: all it holds hidden."""
    sq, k = params[0] * params[0], params[1]
    key = 0
    for j in range(k):
        key = key * (2 * sq + 1) + s[player * k + j] + 1
    return key


@nb.njit(cache=True)
def history(s, params, out):
    sq, k, m, ns = _layout(params)
    n_out = 0
    for i in range(2 * k):
        if s[i] < 0:
            return n_out
        out[n_out] = sq + s[i]
        n_out += 1
    for t in range(s[ns]):
        out[n_out] = s[2 * k + t]
        n_out += 1
        if s[2 * k + m + t] < 0:
            return n_out
        out[n_out] = s[2 * k + m + t]
        n_out += 1
    return n_out


KERNEL = Kernel(current_player, legal_actions, chance_outcomes, apply_action, returns,
                observe, info_tensor, redeterminize, info_key=info_key, history=history)


@register_game
class Battleship(Game):
    """Two-player Battleship on an ``size × size`` board with 1-3 ships."""

    name = "battleship"
    PARAMS = {"size": 4, "ships": 2}

    def __init__(self, **params):
        super().__init__(**params)
        n, k = self.params["size"], self.params["ships"]
        if isinstance(n, bool) or not isinstance(n, int) or not 3 <= n <= 5:
            raise IszError(f"battleship size must be an integer in [3, 5], got {n!r}")
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 3:
            raise IszError(f"battleship ships must be an integer in [1, 3], got {k!r}")
        sq = n * n
        self.num_players = 2
        self.num_actions = 3 * sq
        self.max_chance_outcomes = 2
        self.state_size = 2 * k + 4 * sq + 3
        self.tensor_shape = ((k + 6) * sq + k + 3,)
        self.max_game_length = 2 * k + 4 * sq
        self.kernel = KERNEL
        self.kparams = np.array([n, k, *LENGTHS[:k]], dtype=np.int64)

    @property
    def _sizes(self) -> tuple[int, int, int]:
        """(S, K, M): cells, ships, shot slots (the kernels' `_layout`)."""
        return _layout(self.kparams)[:3]

    def initial_data(self) -> np.ndarray:
        s = np.full(self.state_size, -1, dtype=np.int64)
        s[-3:] = (0, SHOOT, -1)
        return s

    def view_data(self, state: State, player: int) -> tuple:
        sq, k, m = self._sizes
        s = state.data
        own = s[player * k:(player + 1) * k].tolist()
        theirs = int((s[(1 - player) * k:(2 - player) * k] >= 0).sum())
        return (*own, theirs, *s[2 * k:2 * k + 2 * m].tolist())

    def state_from_view(self, view: View) -> State:
        sq, k, m = self._sizes
        d, p = view.data, view.player
        s = self.initial_data()
        s[p * k:(p + 1) * k] = d[:k]
        s[(1 - p) * k:(1 - p) * k + d[k]] = 0  # mark the opponent's ships as placed
        s[2 * k:2 * k + 2 * m] = d[k + 1:]
        shots = sum(1 for c in d[k + 1:k + 1 + m] if c >= 0)
        out = np.empty_like(s)  # draw them (fixed seed: a deterministic template)
        self.kernel.redeterminize(s, self.kparams, p, new_rng(0), out)
        out[-3] = shots
        if shots and out[2 * k + m + shots - 1] < 0:
            out[-2] = RESULT
        elif shots and out[2 * k + m + shots - 1] == HIT:
            shooter = (shots - 1) % 2  # the last hit may have sunk the fleet
            if _marks(out, self.kparams, shooter, HIT) == _fleet(out, self.kparams, 1 - shooter):
                out[-2:] = (OVER, shooter)
        return State(self, out)

    def action_to_string(self, action: int, player: int) -> str:
        sq, n = self._sizes[0], self.params["size"]
        if player == CHANCE:
            return ("miss", "hit")[action]
        if action < sq:
            return f"shoot {_cell(action, n)}"
        o, c = divmod(action - sq, sq)
        return f"place at {_cell(c, n)} {('across', 'down')[o]}"

    def describe(self, state: State) -> str:
        return "\n".join(self._board(state.data, q, -1, True) for q in (0, 1))

    def describe_view(self, view: View) -> str:
        s, p = self.state_from_view(view).data, view.player
        return "\n".join((self._board(s, p, p, True), self._board(s, 1 - p, p, False)))

    def _board(self, s: np.ndarray, q: int, viewer: int, ships: bool) -> str:
        """Player ``q``'s board in rows: ``#`` a ship (when ``ships``), ``X`` hit, ``o`` missed."""
        n, (sq, k, m) = self.params["size"], self._sizes
        fleet = _fleet(s, self.kparams, q) if ships else 0
        grid = ["#" if fleet >> c & 1 else "." for c in range(sq)]
        for t in range(1 - q, int(s[-3]), 2):
            res = s[2 * k + m + t]
            grid[s[2 * k + t]] = "X" if res == HIT else ("o" if res == MISS else "?")
        who = "your" if q == viewer else ("the opponent's" if viewer >= 0 else f"player {q}'s")
        rows = [" ".join(grid[r * n:(r + 1) * n]) for r in range(n)]
        return f"{who} board:\n  " + "\n  ".join(rows)


def _cell(c: int, n: int) -> str:
    return f"{'ABCDE'[c % n]}{c // n + 1}"
