"""What self-play produces: training positions as flat arrays.

A position is recorded at every decision: the actor's information-state
tensor (its own view only), its legal mask, the policy target of its search
and, once the game ends, every player's return (the value target, in
[-1, 1]). Value-only positions (another seat's view at the same decision)
carry an all-zero policy target, which the policy loss skips.

With ``value_target_q = lam > 0`` the acting seat's own entry of a decision
row becomes ``(1 - lam) * z + lam * q``: ``z`` its final return, ``q`` its
search's root value at that decision (both that seat's return in [-1, 1]).
Every other entry keeps ``z``, and so does every value-only row, unless
``q_rows = "all"``: then a value-only row's own entry mixes in the root value
of that seat's next decision. The final return is
shared by all ~100 rows of a game and is what a value head can memorise; ``q``
differs from decision to decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Positions:
    """A batch of positions; all arrays share the first dimension N.

    tensors: float32[N, tensor_size]; masks: bool[N, num_actions];
    policies: float32[N, num_actions] (sums to 1 over legal actions, or all 0
    for a value-only position); players: int64[N] (whose view);
    returns: float32[N, num_players].
    """

    tensors: np.ndarray
    masks: np.ndarray
    policies: np.ndarray
    players: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.players)

    @staticmethod
    def concat(parts: list[Positions]) -> Positions:
        return Positions(*(np.concatenate([getattr(p, f) for p in parts])
                           for f in ("tensors", "masks", "policies", "players", "returns")))


@dataclass
class GameRecord:
    """One finished self-play game: its positions and final returns."""

    tensors: list = field(default_factory=list)
    masks: list = field(default_factory=list)
    policies: list = field(default_factory=list)
    players: list = field(default_factory=list)
    root_values: list = field(default_factory=list)  # the searcher's q per row (nan: none)
    returns: np.ndarray | None = None

    def add(self, tensor: np.ndarray, mask: np.ndarray, policy: np.ndarray, player: int,
            root_value: float = float("nan")):
        """One row; ``root_value``: the acting ``player``'s search value q in [-1, 1]
        (nan for a value-only row)."""
        self.tensors.append(tensor.reshape(-1))
        self.masks.append(mask)
        self.policies.append(policy)
        self.players.append(player)
        self.root_values.append(root_value)

    def positions(self, value_target_q: float = 0.0, q_rows: str = "decisions") -> Positions:
        """The rows as `Positions`; value targets ``z``, the own entry of some rows
        mixed with a root value by ``value_target_q`` (module docstring).

        q_rows: ``decisions``: only the acting seat's decision rows, with their
        own search's q; ``all``: also every value-only row of a seat, with the q
        of that seat's next decision (rows after its last decision keep z).
        ``value_target_q = 0`` gives ``z`` everywhere, untouched.
        """
        n = len(self.players)
        players = np.asarray(self.players, dtype=np.int64)
        returns = np.repeat(self.returns[None, :].astype(np.float32), n, axis=0)
        if value_target_q > 0:
            q = np.asarray(self.root_values, dtype=np.float64)
            if q_rows == "all":
                q = _next_own_value(q, players)
            rows = np.flatnonzero(~np.isnan(q))
            z = returns[rows, players[rows]].astype(np.float64)
            returns[rows, players[rows]] = (1.0 - value_target_q) * z + value_target_q * q[rows]
        return Positions(np.asarray(self.tensors, dtype=np.float32).reshape(n, -1),
                         np.asarray(self.masks, dtype=np.bool_),
                         np.asarray(self.policies, dtype=np.float32),
                         players, returns)


Q_ROWS = ("decisions", "all")


def _next_own_value(q: np.ndarray, players: np.ndarray) -> np.ndarray:
    """``q`` with each nan (a value-only row) replaced by the root value of the same
    player's next decision row (nan when it has none): float64[N]."""
    out, nxt = q.copy(), {}
    for i in range(len(q) - 1, -1, -1):
        p = int(players[i])
        if np.isnan(q[i]):
            out[i] = nxt.get(p, np.nan)
        else:
            nxt[p] = q[i]
    return out
