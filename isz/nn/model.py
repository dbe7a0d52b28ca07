"""The policy/value network: a residual MLP over the flattened info-state tensor.

Shapes (``B`` batch, ``S = game.tensor_size``, ``A = game.num_actions``,
``P = game.num_players``):

- input ``x``: float32 ``[B, S]`` (or ``[B, *game.tensor_shape]``, flattened here);
- ``mask``: bool ``[B, A]``, True = legal;
- policy logits: float32 ``[B, A]``, illegal entries set to `MASKED_LOGIT`;
- value: float32 ``[B, P]`` in [-1, 1], entry ``p`` = seat ``p``'s expected
  return in the units of `State.returns` (chips / ``game.utility_scale``),
  NOT relative to the player to move.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn

from isz.games.base import Game
from isz.types import IszError, check_int

MASKED_LOGIT = -1e9
"""Logit of an illegal action. Finite on purpose: ``exp`` underflows to exactly 0
in float32, yet ``0 * log_softmax`` stays 0 (with -inf it would be NaN), and a
row with no legal action softmaxes to uniform instead of NaN."""


@dataclass(frozen=True)
class ModelConfig:
    """Network hyperparameters (stored in checkpoints as a plain dict)."""

    width: int = 128  # hidden units of the trunk
    depth: int = 2  # residual blocks in the trunk

    def __post_init__(self):
        check_int("model width", self.width, lo=1)
        check_int("model depth", self.depth, lo=0)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> ModelConfig:
        unknown = sorted(set(d) - {"width", "depth"})
        if unknown:
            raise IszError(f"unknown model config key(s) {', '.join(unknown)}; "
                           "allowed: width, depth")
        return cls(**d)


class ResidualBlock(nn.Module):
    """Pre-activation block: ``x + W2 relu(LN(W1 relu(LN(x))))``, ``[B, W] -> [B, W]``."""

    def __init__(self, width: int):
        super().__init__()
        self.body = nn.Sequential(
            nn.LayerNorm(width), nn.ReLU(), nn.Linear(width, width),
            nn.LayerNorm(width), nn.ReLU(), nn.Linear(width, width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.body(x)


class PolicyValueNet(nn.Module):
    """Residual MLP trunk with a masked policy head and a per-player value head.

    Args:
        input_size: ``S``, the flattened info-state size.
        num_actions: ``A``, the game's fixed action space.
        num_players: ``P``, one value per seat.
        cfg: width and depth of the trunk.
    """

    def __init__(self, input_size: int, num_actions: int, num_players: int,
                 cfg: ModelConfig | None = None):
        super().__init__()
        cfg = cfg or ModelConfig()
        self.cfg = cfg
        self.input_size = check_int("input_size", input_size, lo=1)
        self.num_actions = check_int("num_actions", num_actions, lo=1)
        self.num_players = check_int("num_players", num_players, lo=1)
        w = cfg.width
        self.stem = nn.Linear(input_size, w)
        self.trunk = nn.Sequential(*[ResidualBlock(w) for _ in range(cfg.depth)],
                                   nn.LayerNorm(w), nn.ReLU())
        self.policy_head = nn.Linear(w, num_actions)
        self.value_head = nn.Sequential(nn.Linear(w, w), nn.ReLU(), nn.Linear(w, num_players))

    def forward(self, x: torch.Tensor,
                mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Return ``(logits [B, A], value [B, P])``.

        Args:
            x: info-state tensors ``[B, S]`` or ``[B, *tensor_shape]``.
            mask: bool ``[B, A]`` (True = legal) or None for no masking. Illegal
                logits become `MASKED_LOGIT`, so ``softmax`` gives them exactly 0.
        """
        x = x.reshape(x.shape[0], -1)
        self._check_input(x)
        return self.heads(self.trunk(self.stem(x)), mask)

    def _check_input(self, x: torch.Tensor) -> None:
        if x.shape[1] != self.input_size:
            raise IszError(f"network input has {x.shape[1]} features per row; "
                           f"this network takes {self.input_size}")

    def heads(self, h: torch.Tensor, mask: torch.Tensor | None = None,
              value: bool = True) -> tuple[torch.Tensor, torch.Tensor | None]:
        """``(logits [B, A], value [B, P] or None)`` from the trunk's output ``h [B, W]``
        (``value=False``: the policy alone, the value head skipped)."""
        # float32 heads: under autocast the masked constant must not overflow bf16/fp16
        logits = self.policy_head(h).float()
        if mask is not None:
            if mask.shape != logits.shape:
                raise IszError(f"mask shape {tuple(mask.shape)} does not match logits "
                               f"shape {tuple(logits.shape)}")
            logits = logits.masked_fill(~mask.bool(), MASKED_LOGIT)
        return logits, torch.tanh(self.value_head(h).float()) if value else None

    def policy_logits_parts(self, base: torch.Tensor, groups: torch.Tensor,
                            cols: torch.Tensor, vals: torch.Tensor,
                            mask: torch.Tensor | None = None) -> torch.Tensor:
        """Masked logits ``[B, A]`` of the rows ``base[groups]`` (``[D, S]``, 0 at
        ``cols``) with entries ``cols`` (``[K]``) set to ``vals`` (``[B, K]``); the same
        as ``forward`` on those rows, but the stem (linear) is applied once per template
        row plus ``K`` of its columns per row, and the value head is skipped."""
        self._check_input(base)
        h = self.stem(base)[groups] + vals @ self.stem.weight[:, cols].T
        return self.heads(self.trunk(h), mask, value=False)[0]

    @torch.no_grad()
    def predict(self, x: torch.Tensor,
                mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Inference helper: ``(probabilities [B, A], value [B, P])`` without gradients."""
        logits, value = self(x, mask)
        return torch.softmax(logits, dim=-1), value


def build_model(game: Game, cfg: ModelConfig | dict | None = None) -> PolicyValueNet:
    """A fresh `PolicyValueNet` sized for ``game`` (``cfg`` may be a plain dict)."""
    if isinstance(cfg, dict):
        cfg = ModelConfig.from_dict(cfg)
    return PolicyValueNet(game.tensor_size, game.num_actions, game.num_players, cfg)
