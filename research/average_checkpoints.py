"""The weight average of a run's numbered checkpoints, as one loadable checkpoint.

    python -m research.average_checkpoints runs/leduc_nash_magnet_s0 --from 50

Folds the networks of ``checkpoints/iter-<n>.pt`` for n = ``--from`` .. the last
one into their running mean (`isz.nn.average.accumulate`, as the training loop's
``trainer.average_from`` does, so the result is the same to the bit) and writes
it as ``checkpoints/<--output>`` (default ``average-from-<S>.pt``) with the
planner knobs of ``last.pt``: ``python -m research.nash_table --checkpoint <name>`` and
`isz.load_planner` read it like any checkpoint. Every iteration from ``--from``
to the last numbered one must have its checkpoint (train with
``trainer.checkpoint_every=1`` and a ``trainer.keep_last`` that keeps them).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from isz.types import IszError


def numbered(ck: Path) -> dict[int, Path]:
    """iteration -> ``iter-<n>.pt`` under the checkpoints folder ``ck``."""
    out = {}
    for p in ck.glob("iter-*.pt"):
        m = re.fullmatch(r"iter-(\d+)\.pt", p.name)
        if m:
            out[int(m.group(1))] = p
    return out


def average_run(run: Path, start: int, output: str | None = None) -> Path:
    """Write the average of iterations ``start``.. of ``run`` and return its path."""
    from isz.nn.average import accumulate
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint, load_model, save_checkpoint
    from isz.nn.model import ModelConfig

    ck = Path(run) / "checkpoints"
    found = numbered(ck)
    if start < 1:
        raise IszError(f"--from must be >= 1, got {start}")
    if not found or max(found) < start:
        raise IszError(f"{ck}: no numbered checkpoint at or after iteration {start} "
                       f"(found: {sorted(found)[-5:]})")
    wanted = range(start, max(found) + 1)
    missing = [i for i in wanted if i not in found]
    if missing:
        raise IszError(f"{ck}: iterations {missing[:10]} have no iter-<n>.pt; train with "
                       "trainer.checkpoint_every=1 and a keep_last that keeps them")
    last = load_checkpoint(ck / "last.pt")
    game = checkpoint_game(last)
    average = None
    for n, i in enumerate(wanted, start=1):
        model, _ = load_model(found[i], game)
        average = accumulate(average, model, n)
    out = ck / (output or f"average-from-{start}.pt")
    planner = dict((last.get("extra") or {}).get("planner") or {})
    return save_checkpoint(out, model=average, game=game,
                           model_cfg=ModelConfig.from_dict(last["model_config"]),
                           counters={"iteration": max(found), "averaged": len(wanted)},
                           extra={"planner": planner, "average_from": start})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", help="run folders")
    ap.add_argument("--from", dest="start", type=int, required=True,
                    help="first iteration averaged")
    ap.add_argument("--output", help="file name under checkpoints/")
    a = ap.parse_args(argv)
    try:
        for run in a.runs:
            print(average_run(Path(run), a.start, a.output), flush=True)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
