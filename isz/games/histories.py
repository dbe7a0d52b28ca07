"""Every history of a small game, for the exact tools (exploitability, posteriors).

A history is a node of the game tree (terminals included). `count_histories`
answers "does the tree fit under a cap?" without building anything;
`enumerate_histories` lists the whole tree once per game (cached by
``game.spec``) as flat arrays in pre-order, parents before children. Both walk
the kernel arrays directly, without `State` objects.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from isz.games.base import Game
from isz.types import CHANCE, IszError


@dataclass(frozen=True)
class HistoryTable:
    """The tree of a game, one row per history (``n`` rows, root first).

    Attributes:
        player: int64[n] — seat to move, CHANCE or TERMINAL.
        parent: int64[n] — parent row (-1 at the root).
        action: int64[n] — action or chance outcome leading into the row (-1 at the root).
        prob: float64[n] — chance probability of that edge (1.0 after a decision).
        chance_reach: float64[n] — product of the chance probabilities from the root.
        states: int64[n, state_size] — the kernel state array of every history.
    """

    player: np.ndarray
    parent: np.ndarray
    action: np.ndarray
    prob: np.ndarray
    chance_reach: np.ndarray
    states: np.ndarray


def _moves(game: Game, s: np.ndarray, cur: int, acts: np.ndarray, probs: np.ndarray) -> int:
    k, p = game.kernel, game.kparams
    if cur == CHANCE:
        return int(k.chance_outcomes(s, p, acts, probs))
    probs[:] = 1.0
    return int(k.legal_actions(s, p, acts))


def _walk(game: Game, cap: int, visit) -> int:
    """Depth-first pre-order walk calling ``visit(state, parent, action, prob, player)``
    (returns the row index); stops after ``cap + 1`` histories. Returns the count."""
    k, p = game.kernel, game.kparams
    width = max(game.num_actions, game.max_chance_outcomes)
    stack = [(game.initial_data(), -1, -1, 1.0)]
    n = 0
    while stack and n <= cap:
        s, parent, a, prob = stack.pop()
        cur = int(k.current_player(s, p))
        row = visit(s, parent, a, prob, cur)
        n += 1
        if cur < 0 and cur != CHANCE:  # terminal
            continue
        acts, probs = np.empty(width, np.int64), np.empty(width, np.float64)
        m = _moves(game, s, cur, acts, probs)
        for i in range(m - 1, -1, -1):  # reversed: children pop in action order
            child = s.copy()
            k.apply_action(child, p, acts[i])
            stack.append((child, row, int(acts[i]), float(probs[i])))
    return n


def count_histories(game: Game, cap: int) -> int:
    """The number of histories of ``game``, or ``cap + 1`` as soon as it exceeds ``cap``."""
    return _walk(game, cap, lambda s, parent, a, prob, cur: -1)


_TABLES: dict[str, HistoryTable] = {}


def enumerate_histories(game: Game, max_histories: int) -> HistoryTable:
    """The `HistoryTable` of ``game`` (cached by ``game.spec``); `IszError` when the
    game has more than ``max_histories`` histories."""
    key = repr(game.spec)
    table = _TABLES.get(key)
    if table is None:
        # count before storing: a game over the cap is refused after a walk that keeps
        # nothing (about 4 us a history), and one under it is written straight into
        # arrays of the counted size (no row objects: about 8 bytes a state entry)
        n = count_histories(game, max_histories)
        if n > max_histories:
            raise IszError(f"game {game.name!r} has more than {max_histories} histories: too "
                           "large to enumerate")
        states = np.empty((n, game.state_size), np.int64)
        player, parent, action = (np.empty(n, np.int64) for _ in range(3))
        prob = np.empty(n, np.float64)
        rows = iter(range(n))

        def visit(st, up, a, pr, cur):
            i = next(rows)
            states[i], parent[i], action[i], prob[i], player[i] = st, up, a, pr, cur
            return i

        _walk(game, max_histories, visit)
        reach = prob.copy()
        for i in range(1, n):  # parents come first
            reach[i] *= reach[parent[i]]
        table = HistoryTable(player, parent, action, prob, reach, states)
        _TABLES[key] = table
    if len(table.player) > max_histories:
        raise IszError(f"game {game.name!r} has {len(table.player)} histories, more than "
                       f"{max_histories}: too large to enumerate")
    return table
