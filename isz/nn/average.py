"""Weight averaging of a network over training (SWA: Izmailov et al., 2018).

The average of the networks after iterations ``S..t`` is kept as a running mean
of their parameters: ``avg <- avg + (net - avg) / n`` with ``n`` the number of
networks averaged so far (``n = 1`` copies). For a slowly moving network the
averaged weights give, to first order, the mean of the iterates' logits at every
input: the geometric mean of their policies, an average policy that
`research.mirror_dynamics` (``avg_weight=logit``) shows converging on Leduc
where the last iterate of the moving-magnet dynamics cycles under noisy targets.
The training loop (``trainer.average_from``) and ``research.average_checkpoints``
(from numbered checkpoints) both use `accumulate`, so their averages agree to the bit.
"""

from __future__ import annotations

import copy

import torch

from isz.nn.model import PolicyValueNet
from isz.types import IszError


@torch.no_grad()
def accumulate(average: PolicyValueNet | None, model: PolicyValueNet,
               count: int) -> PolicyValueNet:
    """Fold ``model`` into the running mean ``average`` of ``count - 1`` networks and
    return it (``count == 1`` or ``average is None``: a frozen copy of ``model``)."""
    if count < 1:
        raise IszError(f"count must be >= 1 (the networks averaged, this one included), "
                       f"got {count}")
    if average is None or count == 1:
        return copy.deepcopy(model).eval().requires_grad_(False)
    src = model.state_dict()
    for k, a in average.state_dict().items():
        m = src[k]
        if a.is_floating_point():
            a.add_((m.to(a.dtype) - a) / count)
        else:
            a.copy_(m)
    return average
