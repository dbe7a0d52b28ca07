"""What self-play produces: training positions as flat arrays.

A position is recorded at every decision: the actor's information-state
tensor (its own view only), its legal mask, the policy target of its search
and, once the game ends, every player's return (the value target, in
[-1, 1]). Value-only positions (another seat's view at the same decision)
carry an all-zero policy target, which the policy loss skips.
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
    returns: np.ndarray | None = None

    def add(self, tensor: np.ndarray, mask: np.ndarray, policy: np.ndarray, player: int):
        self.tensors.append(tensor.reshape(-1))
        self.masks.append(mask)
        self.policies.append(policy)
        self.players.append(player)

    def positions(self) -> Positions:
        n = len(self.players)
        return Positions(np.asarray(self.tensors, dtype=np.float32).reshape(n, -1),
                         np.asarray(self.masks, dtype=np.bool_),
                         np.asarray(self.policies, dtype=np.float32),
                         np.asarray(self.players, dtype=np.int64),
                         np.repeat(self.returns[None, :].astype(np.float32), n, axis=0))
