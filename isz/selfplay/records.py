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

A row of another hand (``all_hands``: an information set of the acting seat that
it does not hold, searched at the same public state) has no final return of its
own: its value target is fixed when it is recorded (``value``: its search's
value ``v``, the seat's own entry; the other seats share ``-v`` equally, as in a
zero-sum game) and no mix changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

FIELDS = ("tensors", "masks", "policies", "players", "returns")  # of `Positions`, in order


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
        return Positions(*(np.concatenate([getattr(p, f) for p in parts]) for f in FIELDS))

    @staticmethod
    def empty(game) -> Positions:
        """No positions of ``game`` (every game of a chunk over before a learned move)."""
        return Positions(np.zeros((0, game.tensor_size), np.float32),
                         np.zeros((0, game.num_actions), np.bool_),
                         np.zeros((0, game.num_actions), np.float32),
                         np.zeros(0, np.int64), np.zeros((0, game.num_players), np.float32))

    def take(self, idx: np.ndarray) -> Positions:
        """The rows ``idx`` (int indices or a bool mask over the N rows)."""
        return Positions(*(getattr(self, f)[idx] for f in FIELDS))


@dataclass
class GameRecord:
    """One finished self-play game: its positions and final returns."""

    tensors: list = field(default_factory=list)
    masks: list = field(default_factory=list)
    policies: list = field(default_factory=list)
    players: list = field(default_factory=list)
    root_values: list = field(default_factory=list)  # the searcher's q per row (nan: none)
    fixed_values: list = field(default_factory=list)  # another hand's value target (nan: z)
    returns: np.ndarray | None = None

    def add(self, tensor: np.ndarray, mask: np.ndarray, policy: np.ndarray, player: int,
            root_value: float = float("nan"), value: float = float("nan")):
        """One row; ``root_value``: the acting ``player``'s search value q in [-1, 1]
        (nan for a value-only row); ``value``: a fixed value target in [-1, 1] for
        ``player`` instead of the final return (another hand's row; nan: none)."""
        self.tensors.append(tensor.reshape(-1))
        self.masks.append(mask)
        self.policies.append(policy)
        self.players.append(player)
        self.root_values.append(root_value)
        self.fixed_values.append(value)

    def fixed_rows(self) -> np.ndarray:
        """bool[N]: the rows whose value target was fixed when recorded."""
        return ~np.isnan(np.asarray(self.fixed_values, dtype=np.float64))

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
        fixed = np.flatnonzero(self.fixed_rows())
        if len(fixed):
            v = np.asarray(self.fixed_values, dtype=np.float32)[fixed]
            others = max(returns.shape[1] - 1, 1)
            returns[fixed] = (-v / others)[:, None]
            returns[fixed, players[fixed]] = v
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
