"""Re-learn a finished run's average network from its saved iterates, as other average
policy settings would have learned it in the run.

    python -m research.replay_average runs/leduc_nash_nfsp_eta10_s1 \\
        --name average_policy_fsp -- experiment=leduc_nash_fsp trainer.seed=1

The average network learns from the run's network and from nothing else that the
run's network depends on, and never feeds back into it (`isz.training.average_policy`).
So a run kept with ``trainer.checkpoint_every=1`` and every ``iter-<t>.pt`` holds all
that a different average policy needs: for t from ``trainer.average_policy_from`` to
``trainer.iterations`` this tool loads iteration t's network, lets the average policy
take its rows from it, and takes the iteration's gradient steps, then polishes on the
last. It supports the settings whose rows come from the network alone:
``trainer.average_policy_games`` (the network's own games against uniform opponents);
self-play's positions are not saved. The tests hold the result equal to the bit to the
average network of a run trained with the same settings. The hydra overrides after
``--`` give the trainer settings (without them: the run's own, from its
``config.yaml``, which replays the run's average network as it was), the run's
``trainer.seed`` among them (the average policy's generator is seeded from it; a
run with a ``config.yaml`` refuses another); the result is
``checkpoints/NAME.pt``, a copy of ``average_policy.pt`` (or of ``last.pt``'s network
when the run had none) with the re-learned weights.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

from isz.types import IszError


def replay_run(run: Path, tcfg, name: str) -> dict[str, float]:
    """Re-learn ``run``'s average network under ``tcfg`` and write ``NAME.pt``; the last
    iteration's mean losses."""
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint, load_model
    from isz.progress import Progress
    from isz.training.average_policy import AveragePolicy
    from research.average_checkpoints import numbered
    from research.polish_average import write_copy

    if not (tcfg.average_policy_from and tcfg.average_policy_games):
        raise IszError("replay needs trainer.average_policy_from > 0 and "
                       "trainer.average_policy_games > 0 (self-play's positions are not saved)")
    ck = run / "checkpoints"
    found = numbered(ck)
    its = range(tcfg.average_policy_from, tcfg.iterations + 1)
    missing = [t for t in its if t not in found]
    if missing:
        raise IszError(f"{run}: no iter-<t>.pt for iterations {_span(missing)} (a run kept "
                       "with trainer.checkpoint_every=1 and a trainer.keep_last that keeps "
                       "them all)")
    game = checkpoint_game(load_checkpoint(found[its[0]]))
    cpu, avg, losses, t0 = torch.device("cpu"), None, {}, time.perf_counter()
    for t in its:
        net, _ = load_model(found[t], game)
        if avg is None:
            avg = AveragePolicy.start(net, tcfg, t)
        avg.play(game, net, tcfg.average_policy_games, t, tcfg.average_policy_weight, cpu)
        losses = avg.learn(tcfg, cpu, Progress(f"{run.name} {t}", tcfg.average_policy_steps,
                                               "steps"))
        if t % 10 == 0 or t == its[-1]:  # a line a while where no bar shows
            print(f"{run}: iteration {t}/{its[-1]}, reservoir {len(avg.reservoir)} of "
                  f"{avg.reservoir.total_added} offered, {time.perf_counter() - t0:.0f} s",
                  flush=True)
    if tcfg.average_policy_polish:
        losses.update(avg.polish(tcfg, cpu, Progress(f"polish {run.name}",
                                                     tcfg.average_policy_polish, "steps")))
    write_copy(ck, name, avg.model.state_dict())
    return losses


def _span(ts: list[int]) -> str:
    return str(ts[0]) if len(ts) == 1 else f"{ts[0]}..{ts[-1]} ({len(ts)} of them)"


def main(argv: list[str] | None = None) -> int:
    from research.polish_average import check_name, run_trainer_config

    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("runs", nargs="+", type=Path)
    p.add_argument("--name", required=True, help="the file written: checkpoints/NAME.pt")
    args = p.parse_args(argv[:cut])
    check_name(args.name)
    for run in args.runs:
        losses = replay_run(run, run_trainer_config(run, argv[cut + 1:]), args.name)
        print(run, {k: round(v, 4) for k, v in losses.items()}, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
