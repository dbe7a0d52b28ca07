"""One gradient step of the AlphaZero loss on a replay batch.

loss = policy cross-entropy against the search's policy target (averaged over
       the positions that have one: value-only positions carry all zeros)
     + value_weight * mean squared error of every player's value against the
       value targets (the final returns, or their mix with the search's root
       value), the other seats' entries weighted by ``value_other_weight``;
       weight decay is AdamW's (decoupled).
"""

from __future__ import annotations

import contextlib
import math

import numpy as np
import torch

from isz.nn.device import autocast_context, autocast_dtype
from isz.nn.model import PolicyValueNet
from isz.selfplay.records import Positions
from isz.types import IszError

Scheduler = torch.optim.lr_scheduler.LRScheduler


class TrainingDiverged(IszError):
    """A non-finite loss: the run stops and keeps its last good checkpoint."""


def make_optimizer(model: PolicyValueNet, lr: float, weight_decay: float, total_steps: int,
                   schedule: str) -> tuple[torch.optim.Optimizer, Scheduler]:
    """AdamW with a 'cosine' decay to 10% or a 'constant' learning rate."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    if schedule == "cosine":
        def f(step: int) -> float:
            t = min(step / max(total_steps, 1), 1.0)
            return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t))
    else:
        def f(step: int) -> float:
            return 1.0
    return opt, torch.optim.lr_scheduler.LambdaLR(opt, f)


def loss_terms(model: PolicyValueNet, batch: Positions, device: torch.device,
               value_weight: float, other_weight: float = 1.0) -> dict[str, torch.Tensor]:
    """Policy CE, value MSE and their weighted sum for one batch.

    The value MSE weighs each row's own entry (column ``players[i]``: the seat
    whose view it is) 1 and the other seats' entries ``other_weight``, and is
    normalised by the total weight (``other_weight = 1``: the plain mean over
    every entry). The other seats' final returns are the same on all ~100 rows
    of a game and hidden from the viewer, so a network can fit them only by
    recognising the game: they teach memorisation.
    """
    x = torch.from_numpy(batch.tensors).to(device)
    mask = torch.from_numpy(batch.masks).to(device)
    pi = torch.from_numpy(batch.policies).to(device)
    z = torch.from_numpy(batch.returns).to(device)
    logits, v = model(x, mask)
    logp = torch.log_softmax(logits, dim=-1)
    has_target = (pi.sum(dim=-1) > 0).float()
    policy = -(pi * logp).sum(dim=-1).sum() / has_target.sum().clamp(min=1.0)
    err = (v - z) ** 2
    if other_weight == 1.0:
        value = err.mean()
    else:
        own = torch.nn.functional.one_hot(torch.from_numpy(batch.players).to(device),
                                          err.shape[1]).to(err.dtype)
        w = own + other_weight * (1.0 - own)
        value = (w * err).sum() / w.sum()
    return {"policy": policy, "value": value, "total": policy + value_weight * value}


def train_step(model, opt, sched, batch: Positions, device, value_weight: float,
               grad_clip: float = 5.0, other_weight: float = 1.0) -> dict[str, float]:
    model.train()
    # bf16 autocast on CUDA (no loss scaling needed); fp32 elsewhere, including
    # fp16-only GPUs, where autocast would need a GradScaler.
    use_bf16 = autocast_dtype(torch.device(device)) == torch.bfloat16
    ctx = autocast_context(device) if use_bf16 else contextlib.nullcontext()
    with ctx:
        terms = loss_terms(model, batch, device, value_weight, other_weight)
    total = terms["total"]
    if not torch.isfinite(total):
        raise TrainingDiverged(f"loss became {total.item()} (policy {terms['policy'].item()}, "
                               f"value {terms['value'].item()}); the run stops here and the "
                               "last good checkpoint is kept")
    opt.zero_grad(set_to_none=True)
    total.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    opt.step()
    sched.step()
    model.eval()
    return {k: float(t.detach()) for k, t in terms.items()} | {"grad_norm": float(gn)}


def train_steps(model, opt, sched, draw, steps: int, device, tcfg,
                progress) -> dict[str, float]:
    """``steps`` of `train_step` on batches ``draw()`` (a `Positions` each) with the
    run's value weights (``trainer`` config ``tcfg``); each loss term's mean over them."""
    sums: dict[str, float] = {}
    for _ in range(steps):
        for k, v in train_step(model, opt, sched, draw(), device, tcfg.value_weight,
                               other_weight=tcfg.value_other_weight).items():
            sums[k] = sums.get(k, 0.0) + v
        progress.update()
    return {k: v / steps for k, v in sums.items()}


@torch.no_grad()
def value_diagnostics(model: PolicyValueNet, pos: Positions, final_returns, device,
                      batch: int = 4096) -> dict[str, float]:
    """How well the value head predicts positions it has not trained on.

    Called on fresh self-play positions before they enter the buffer. Over
    every row's own entry (row i, column ``players[i]``: the value the search
    reads from that seat's own view), mean squared error of the network's
    value against the final return z (``final_returns``, float32[N, P]),
    against the training target (``pos.returns``: z, or its mix with the root
    value), and of the zero predictor against z. A value head that memorises
    its games scores worse than the zero predictor here.
    """
    model.eval()
    vs = []
    for i in range(0, len(pos), batch):
        x = torch.from_numpy(pos.tensors[i:i + batch]).to(device)
        mask = torch.from_numpy(pos.masks[i:i + batch]).to(device)
        vs.append(model(x, mask)[1].float().cpu().numpy())
    rows = np.arange(len(pos))
    v = np.concatenate(vs)[rows, pos.players]
    z = np.asarray(final_returns)[rows, pos.players]
    target = pos.returns[rows, pos.players]
    return {"value/fresh_mse_z": float(np.mean((v - z) ** 2)),
            "value/fresh_mse_target": float(np.mean((v - target) ** 2)),
            "value/fresh_mse_zero": float(np.mean(z ** 2)),
            "value/fresh_mse_target_zero": float(np.mean(target ** 2))}

