"""The world-value network: every seat's return from a whole (sampled) world.

Input: float32 ``[B, P * S]``, the concatenation of every seat's
information-state tensor in one world (``S = game.tensor_size``; built by
`research.world_value.compiled.make_world_value`'s ``world_features``). Output:
float32 ``[B, P]`` in [-1, 1], entry ``p`` = seat ``p``'s expected return
(the units of `State.returns`), not relative to the player to move.

A plain MLP (two ReLU layers, a tanh head) on purpose: the search kernels
evaluate it in numba at every leaf (`research.world_value.compiled`), so its
exported weights must be the whole network.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from isz.games.base import Game
from isz.types import check_int


class WorldValueNet(nn.Module):
    """``tanh(W3 relu(W2 relu(W1 x + b1) + b2) + b3)``: ``[B, P*S] -> [B, P]``."""

    def __init__(self, input_size: int, num_players: int, width: int = 128):
        super().__init__()
        self.input_size = check_int("world value input_size", input_size, lo=1)
        self.num_players = check_int("world value num_players", num_players, lo=1)
        self.width = check_int("world value width", width, lo=1)
        self.l1 = nn.Linear(input_size, width)
        self.l2 = nn.Linear(width, width)
        self.l3 = nn.Linear(width, num_players)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.l2(torch.relu(self.l1(x))))
        return torch.tanh(self.l3(h))

    @torch.no_grad()
    def export(self) -> tuple[np.ndarray, ...]:
        """Weights for the compiled evaluator: ``(W1[in, H], b1, W2[H, H], b2, W3[H, P],
        b3)``, float32 and C-contiguous (a row of W1 per input feature)."""
        out = []
        for layer in (self.l1, self.l2, self.l3):
            out.append(np.ascontiguousarray(layer.weight.detach().cpu().numpy().T,
                                            dtype=np.float32))
            out.append(layer.bias.detach().cpu().numpy().astype(np.float32))
        return tuple(out)


def build_world_value(game: Game, width: int = 128) -> WorldValueNet:
    """A fresh `WorldValueNet` sized for ``game``."""
    return WorldValueNet(game.num_players * game.tensor_size, game.num_players, width)
