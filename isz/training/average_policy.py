"""NFSP's average-policy network (Heinrich and Silver, 2016), beside the run's network.

With ``trainer.average_policy_from=S`` every iteration t >= S offers its self-play
positions (those with a policy target) to a reservoir (`ReservoirBuffer`), which
keeps a uniform sample of all of them, and a second network learns from it by the
same loss as the run's network (policy cross-entropy to the recorded policy
target, value MSE to the value target). In self-play the recorded policy target is
the distribution the move was drawn from (within ``search.temperature_moves``), so
an information set I enters the reservoir once per visit: iteration t's policy at I
weighted by how often play reached I under it (times t with
``trainer.average_policy_weight=linear``, times sqrt(t) with ``sqrt``). The network
fitted to that sample is the reach-weighted average of the played policies, the
average that fictitious play and CFR converge with, where the last iterate may cycle
(`research.iterate_averages` measures it exactly on a run's iterates). With
``trainer.average_policy_target=network`` a row's target is instead the run's
network's policy at it, after the iteration's training (iteration t's network, as
``iter-<t>.pt`` keeps it): the reservoir then samples the network iterates, smooth
where a rarely reached information set has only a few noisy search policies. With
``trainer.average_policy_games=G`` the rows come instead from G extra games an
iteration in which the network plays one seat and the others move uniformly at
random (`isz.training.solo_games`): rows in proportion to the network's own reach.

The average network starts as a copy of the run's network at iteration S and is
written as ``checkpoints/average_policy.pt``, a checkpoint like any other. It
draws from its own generator (seeded from ``trainer.seed``) and never feeds back
into self-play, so the run's own network trains to the bit as without it.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from isz.nn.model import ModelConfig, PolicyValueNet, build_model
from isz.progress import Progress
from isz.selfplay.records import Positions
from isz.settings.training import AVERAGE_POLICY_POWERS as POWERS
from isz.training.learner import make_optimizer, train_steps
from isz.training.reservoir import ReservoirBuffer
from isz.training.solo_games import solo_positions

_SALT = 0xA7E2  # its generator's stream, apart from the run's own
FILE = "average_policy.pt"


def _generator(seed: int) -> np.random.Generator:
    return np.random.default_rng([int(seed), _SALT])


@dataclass
class AveragePolicy:
    """The average network, its optimizer and schedule, its reservoir and generator."""

    model: PolicyValueNet
    optimizer: torch.optim.Optimizer
    scheduler: object
    reservoir: ReservoirBuffer
    rng: np.random.Generator
    first: int  # the iteration it started at (its schedule runs from there to the end)

    @classmethod
    def start(cls, model: PolicyValueNet, tcfg, iteration: int) -> AveragePolicy:
        """A copy of ``model`` that trains from iteration ``iteration`` to the run's end."""
        net = copy.deepcopy(model).requires_grad_(True)
        opt, sched = _optimizer(net, tcfg, iteration)
        return cls(net, opt, sched, ReservoirBuffer(tcfg.average_policy_buffer),
                   _generator(tcfg.seed), int(iteration))

    def add(self, pos: Positions, iteration: int, weighting: str = "uniform",
            network: PolicyValueNet | None = None, device=None) -> None:
        """Offer ``pos``'s rows that carry a policy target (value-only rows do not), each
        weighted ``iteration ** POWERS[weighting]``; with ``network``, each row's policy
        target is replaced by that network's policy at the row
        (``trainer.average_policy_target=network``)."""
        rows = pos.take(pos.policies.sum(axis=1) > 0)
        if network is not None:
            rows.policies = policies_at(network, rows, device)
        self._offer(rows, iteration, weighting)

    def play(self, game, network: PolicyValueNet, games: int, iteration: int,
             weighting: str, device) -> int:
        """Offer the network's rows of ``games`` games against uniform opponents
        (`solo_positions`, drawn from its own generator), each weighted as in `add`
        (``trainer.average_policy_games``); the number of rows."""
        rows = solo_positions(game, network, games, self.rng, device)
        self._offer(rows, iteration, weighting)
        return len(rows)

    def _offer(self, rows: Positions, iteration: int, weighting: str) -> None:
        """Offer ``rows`` to the reservoir, each weighted ``iteration ** POWERS[weighting]``."""
        self.reservoir.add(rows, self.rng, float(iteration) ** POWERS[weighting])

    def learn(self, tcfg, device, progress: Progress) -> dict[str, float]:
        """``trainer.average_policy_steps`` gradient steps on reservoir batches; the
        mean losses as ``average_policy/<term>``."""
        means = self._steps(self.optimizer, self.scheduler, tcfg.average_policy_steps,
                            tcfg, device, progress)
        out = {f"average_policy/{k}": v for k, v in means.items()}
        out["average_policy/reservoir_size"] = float(len(self.reservoir))
        out["average_policy/offered"] = float(self.reservoir.total_added)
        return out

    def polish(self, tcfg, device, progress: Progress) -> dict[str, float]:
        """``trainer.average_policy_polish`` more gradient steps on the reservoir as it
        stands, by a fresh optimizer whose schedule spans just them (the run's learning
        rate, then its decay); the mean losses as ``average_policy/polish_<term>``. The
        run's last iteration calls it, so a resume repeats it from the same state."""
        n = tcfg.average_policy_polish
        opt, sched = make_optimizer(self.model, tcfg.lr, tcfg.weight_decay, n,
                                    tcfg.lr_schedule)
        means = self._steps(opt, sched, n, tcfg, device, progress)
        return {f"average_policy/polish_{k}": v for k, v in means.items()}

    def _steps(self, opt, sched, n: int, tcfg, device, progress: Progress) -> dict[str, float]:
        """``n`` steps of the run's loss on reservoir batches drawn by its own generator."""
        return train_steps(self.model, opt, sched,
                           lambda: self.reservoir.sample(tcfg.batch_size, self.rng),
                           n, device, tcfg, progress)

    def state(self, reservoir_file: str) -> dict:
        """What ``last.pt`` keeps of it (the reservoir itself is ``reservoir_file``)."""
        return {"state": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                "scheduler": json.dumps(self.scheduler.state_dict()),
                "rng": json.dumps(self.rng.bit_generator.state),
                "reservoir_file": reservoir_file, "first": self.first}

    @classmethod
    def restore(cls, saved: dict, game, model_cfg: ModelConfig, tcfg, device,
                folder: Path) -> AveragePolicy:
        """The inverse of `state`; ``folder`` holds the reservoir file."""
        net = build_model(game, model_cfg).to(device)
        net.load_state_dict(saved["state"])
        net.eval()
        first = int(saved["first"])
        opt, sched = _optimizer(net, tcfg, first)
        opt.load_state_dict(saved["optimizer"])
        sched.load_state_dict(json.loads(saved["scheduler"]))
        rng = _generator(tcfg.seed)
        rng.bit_generator.state = json.loads(saved["rng"])
        reservoir = ReservoirBuffer.load(folder / saved["reservoir_file"])
        return cls(net, opt, sched, reservoir, rng, first)


@torch.no_grad()
def policies_at(net: PolicyValueNet, pos: Positions, device,
                batch: int = 8192) -> np.ndarray:
    """float32[N, A]: ``net``'s policy (its masked softmax) at each row of ``pos``."""
    out = []
    for i in range(0, len(pos), batch):
        x = torch.from_numpy(pos.tensors[i:i + batch]).to(device)
        m = torch.from_numpy(pos.masks[i:i + batch]).to(device)
        out.append(net.predict(x, m)[0].float().cpu().numpy())
    return np.concatenate(out) if out else np.zeros_like(pos.policies)


def _optimizer(net: PolicyValueNet, tcfg, start: int):
    """The run's optimizer settings over the average network's own steps."""
    total = (tcfg.iterations - start + 1) * tcfg.average_policy_steps
    return make_optimizer(net, tcfg.lr, tcfg.weight_decay, total, tcfg.lr_schedule)
