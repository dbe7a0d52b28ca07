"""A card-location net: where does each card the seat cannot see lie, given its view?

Input: the seat's information-state tensor (float32[T], `View.tensor`). Output:
logits float32[C, L] over the locations of each card c, L = P classes (0: the
stock, r = 1..P-1: the seat r places after the viewer; `research.location.data`).
Trained by cross-entropy on the true locations of self-play positions, only over
the cards the seat does not see. Exported as numpy weights so that a belief runs
it without torch: ``(W1[T, H], b1[H], W2[H, H], b2[H], W3[H, C * L], b3[C * L])``.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn


class LocationNet(nn.Module):
    def __init__(self, tensor_size: int, num_cards: int, classes: int, width: int = 256):
        super().__init__()
        self.c, self.k = num_cards, classes
        self.body = nn.Sequential(nn.Linear(tensor_size, width), nn.ReLU(),
                                  nn.Linear(width, width), nn.ReLU(),
                                  nn.Linear(width, num_cards * classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """float32[B, T] -> logits float32[B, C, L]."""
        return self.body(x).view(-1, self.c, self.k)

    def export(self) -> list[np.ndarray]:
        out = []
        for layer in self.body:
            if isinstance(layer, nn.Linear):
                out += [layer.weight.detach().numpy().T.copy(),
                        layer.bias.detach().numpy().copy()]
        return out


def log_probs_np(weights, x: np.ndarray, num_cards: int, prior=None) -> np.ndarray:
    """float64[B, C, L]: log-softmax over locations of the exported net on float32[B, T],
    its logits added to ``prior`` (float[B, C, L], `research.location.data.log_prior`)."""
    w1, b1, w2, b2, w3, b3 = weights
    h = np.maximum(x @ w1 + b1, 0.0)
    h = np.maximum(h @ w2 + b2, 0.0)
    z = (h @ w3 + b3).reshape(len(x), num_cards, -1).astype(np.float64)
    if prior is not None:
        z = z + prior
    z -= z.max(axis=2, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=2, keepdims=True))


def masked_nll(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy over the cards with a label (``y`` int64[B, C], -1: seen)."""
    keep = y >= 0
    return nn.functional.cross_entropy(logits[keep], y[keep])
