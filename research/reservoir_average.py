"""Is an average network's error its fit, or what its reservoir holds?

    python -m research.reservoir_average runs/leduc_nash_nfsp_eta10u_s* \\
        --output docs/results/nash/leduc_nash_nfsp_250_eta10u_reservoir.json

For each run folder (``trainer.average_policy_from`` on) it reads the last
reservoir (``checkpoints/reservoir-<n>.npz``) and the average network
(``checkpoints/average_policy.pt``), and computes the exact exploitability
(NashConv / 2, chips) of two policies: the network's, and the reservoir's own
tabular average (at every information set, the mean of the policy targets of
its rows: what a network that fitted the reservoir perfectly, set by set, would
play; a set with no row plays the network's policy). The number of sets with no
row is reported. A network far worse than its tabular average is a fitting
problem; a tabular average far worse than the exact average of the run's
iterates (`research.iterate_averages`) is a problem of the targets themselves.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from isz.types import IszError


def tabular_average(rows_x: np.ndarray, rows_p: np.ndarray, views) -> tuple[np.ndarray,
                                                                             np.ndarray]:
    """(mean[I, A], count[I]): the mean policy target of the rows at each information
    set of ``views`` (rows matched by their tensor), and how many rows it has."""
    lut = {v.tensor().reshape(-1).astype(np.float32).tobytes(): i
           for i, v in enumerate(views)}
    idx = np.array([lut.get(r.tobytes(), -1) for r in rows_x.astype(np.float32)])
    if (idx < 0).any():
        raise IszError(f"{int((idx < 0).sum())} reservoir rows match no information set "
                       "of the game (another game's reservoir?)")
    count = np.bincount(idx, minlength=len(views))
    total = np.zeros((len(views), rows_p.shape[1]))
    np.add.at(total, idx, rows_p)
    return total / np.maximum(count, 1)[:, None], count


def run_reservoir(run: Path) -> dict:
    """{"run", "rows", "network", "tabular", "unseen", "sets"} for one run folder."""
    from isz.evaluation.exploitability import exploitability, game_tree
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint, load_model
    from isz.training.average_policy import FILE
    from isz.training.reservoir import ReservoirBuffer
    from research.iterate_averages import network_policies

    ck = Path(run) / "checkpoints"
    files = sorted(ck.glob("reservoir-*.npz"))
    if not files or not (ck / FILE).exists():
        raise IszError(f"{ck}: no reservoir-<n>.npz and {FILE} (train with "
                       "trainer.average_policy_from > 0)")
    game = checkpoint_game(load_checkpoint(ck / "last.pt"))
    tree = game_tree(game)
    index = {v.key: i for i, v in enumerate(tree.views)}
    res = ReservoirBuffer.load(files[-1])
    n = len(res)
    mean, count = tabular_average(res.arrays["tensors"][:n].reshape(n, -1),
                                  res.arrays["policies"][:n], tree.views)
    net = network_policies(load_model(ck / FILE, game)[0], tree.views, game)
    tab = np.where(count[:, None] > 0, mean, net)

    def exploit(p: np.ndarray) -> float:
        return exploitability(game, lambda v: p[index[v.key]]).exploitability

    return {"run": str(run), "rows": n, "network": exploit(net), "tabular": exploit(tab),
            "unseen": int((count == 0).sum()), "sets": len(tree.views)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--output")
    a = ap.parse_args(argv)
    rows = []
    try:
        for run in a.runs:
            r = run_reservoir(Path(run))
            rows.append(r)
            print(f"{run}: network {r['network']:.4f} tabular {r['tabular']:.4f} "
                  f"({r['unseen']} of {r['sets']} sets without a row)", flush=True)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.output:
        Path(a.output).parent.mkdir(parents=True, exist_ok=True)
        Path(a.output).write_text(json.dumps({"runs": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
