"""Polish a finished run's average network as ``trainer.average_policy_polish`` would have.

    python -m research.polish_average runs/leduc_nash_nfsp_iterates_s* --steps 8000 \\
        --name average_policy_polish8000 -- experiment=leduc_nash_nfsp_iterates

For each run folder (``trainer.average_policy_from`` on, no polish) it restores the
average network's final state from ``checkpoints/last.pt`` (its weights, its
reservoir, its generator) and takes ``--steps`` more gradient steps on that
reservoir with a fresh optimizer, exactly as the run's last iteration would have with
``trainer.average_policy_polish=STEPS`` (`AveragePolicy.polish`; the tests hold the
two equal to the bit). The result is written as ``checkpoints/NAME.pt``, a copy of
``average_policy.pt`` with the polished weights, so `research.nash_table --checkpoint
NAME.pt` measures it. The trainer's settings (learning rate, schedule, batch size,
value weights) are the ones the run recorded in its ``config.yaml``, or, for a run from
before runs recorded them, the hydra overrides after ``--`` as its command line gave them,
its ``trainer.seed`` included (the average policy's generator is seeded from it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

from isz.types import IszError


def polish_run(run: Path, tcfg, steps: int, name: str) -> dict[str, float]:
    """Polish ``run``'s final average state ``steps`` steps and write ``NAME.pt`` beside
    its ``average_policy.pt``; the polish's mean losses."""
    import dataclasses

    from isz.nn.checkpoint import checkpoint_game, load_checkpoint
    from isz.nn.model import ModelConfig
    from isz.progress import Progress
    from isz.training.average_policy import AveragePolicy

    ck = run / "checkpoints"
    last = load_checkpoint(ck / "last.pt")
    saved = last["extra"].get("average_policy")
    if saved is None:
        raise IszError(f"{run}: its last.pt keeps no average policy (a run with "
                       "trainer.average_policy_from=0)")
    cpu = torch.device("cpu")
    avg = AveragePolicy.restore(saved, checkpoint_game(last),
                                ModelConfig.from_dict(last["model_config"]), tcfg, cpu, ck)
    tcfg = dataclasses.replace(tcfg, average_policy_polish=steps)
    losses = avg.polish(tcfg, cpu, Progress(f"polish {run.name}", steps, "steps"))
    write_copy(ck, name, avg.model.state_dict())
    return losses


OWN_FILES = ("last", "best", "average", "average_policy")  # a run's own checkpoints


def check_name(name: str) -> None:
    """IszError when ``--name`` would overwrite one of the run's own checkpoints."""
    if name in OWN_FILES:
        raise IszError(f"--name {name!r} would overwrite the run's own checkpoint")


def write_copy(ck: Path, name: str, weights: dict) -> None:
    """``ck/NAME.pt``: a copy of the run's ``average_policy.pt`` (of ``last.pt`` when it
    has none) with ``weights``, written atomically, loadable like any checkpoint."""
    from isz.fs import write_atomic
    from isz.training.average_policy import FILE

    src = ck / FILE if (ck / FILE).exists() else ck / "last.pt"
    out = torch.load(src, weights_only=True, map_location="cpu")
    out["model"] = weights
    write_atomic(ck / f"{name}.pt", lambda f: torch.save(out, f), binary=True)


def trainer_config(overrides: list[str]):
    """The trainer settings that ``scripts/train.py OVERRIDES`` would run with."""
    from omegaconf import OmegaConf

    from isz.cli import compose
    from isz.cli.conf import conf_dir
    from isz.cli.train import store_schema

    store_schema()
    return OmegaConf.to_object(compose(conf_dir(), "train", overrides)).trainer


def run_trainer_config(run: Path, overrides: list[str]):
    """The trainer settings of ``run``: composed from ``overrides`` when given, else the
    ones the run recorded (``config.yaml``); torch's CPU threads set as the run set them
    (the thread count can change a float's last bit)."""
    from isz.training.config import CONFIG_FILE, load_run_config

    # read when there (to check the seed) or needed (no overrides: its error if missing)
    recorded = load_run_config(run).trainer \
        if (run / CONFIG_FILE).is_file() or not overrides else None
    tcfg = trainer_config(overrides) if overrides else recorded
    # the average policy's generator is seeded from trainer.seed: another seed would not
    # give the run's bits (a run without config.yaml needs trainer.seed among overrides)
    if recorded is not None and tcfg.seed != recorded.seed:
        raise IszError(f"trainer.seed={tcfg.seed} differs from {run}'s own seed "
                       f"{recorded.seed} ({CONFIG_FILE}): give trainer.seed={recorded.seed}")
    torch.set_num_threads(tcfg.torch_threads)
    return tcfg


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("runs", nargs="+", type=Path)
    p.add_argument("--steps", type=int, required=True)
    p.add_argument("--name", required=True, help="the file written: checkpoints/NAME.pt")
    args = p.parse_args(argv[:cut])
    if args.steps < 1:
        raise IszError(f"--steps must be at least 1, got {args.steps}")
    check_name(args.name)
    for run in args.runs:
        tcfg = run_trainer_config(run, argv[cut + 1:])
        losses = polish_run(run, tcfg, args.steps, args.name)
        print(run, {k: round(v, 4) for k, v in losses.items()}, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
