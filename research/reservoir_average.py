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

With ``--iterates RUN ...`` (one folder per run, each with every iterate kept:
``trainer.checkpoint_every=1``, e.g. a run whose own network is the same to the bit)
and ``--from S`` (default 10) it also splits that gap. First the exact average of
iterates S..N with iterate t weighted at each set by how often its own self-play
reaches it (both seats and chance), as a reservoir samples them, not by its own
reach alone. Then that average resampled: at each set, as many iterates drawn by
that weight as the reservoir has rows there (``--draws`` times, and with ten times
the rows), the noise of a reservoir of that size.
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


def run_reservoir(run: Path, iterates: Path | None = None, draws: int = 3,
                  start: int = 10) -> dict:
    """{"run", "rows", "network", "tabular", "unseen", "sets"} for one run folder, and
    `sampling_split`'s figures with ``iterates``."""
    from isz.nn.checkpoint import load_model
    from isz.training.average_policy import FILE
    from isz.training.reservoir import ReservoirBuffer
    from research.iterate_averages import game_of, network_policies

    ck = Path(run) / "checkpoints"
    files = sorted(ck.glob("reservoir-*.npz"))
    if not files or not (ck / FILE).exists():
        raise IszError(f"{ck}: no reservoir-<n>.npz and {FILE} (train with "
                       "trainer.average_policy_from > 0)")
    game, tree, exploit = game_of(ck)
    res = ReservoirBuffer.load(files[-1])
    n = len(res)
    mean, count = tabular_average(res.arrays["tensors"][:n].reshape(n, -1),
                                  res.arrays["policies"][:n], tree.views)
    net = network_policies(load_model(ck / FILE, game)[0], tree.views, game)
    tab = np.where(count[:, None] > 0, mean, net)
    out = {"run": str(run), "rows": n, "network": exploit(net), "tabular": exploit(tab),
           "unseen": int((count == 0).sum()), "sets": len(tree.views)}
    if iterates is not None:
        out.update(sampling_split(iterates, count, draws, start))
    return out


def play_reach(tree, probs: np.ndarray) -> np.ndarray:
    """visits[I]: the probability that play under ``probs`` (both seats) and chance
    reaches some history of I; shape (infosets,)."""
    reach = np.ones(len(tree.player))
    out = np.zeros(len(tree.views))
    for node in range(len(tree.player)):
        p = tree.player[node]
        if p >= 0:
            out[tree.infoset[node]] += reach[node]
        for a, child, chance in tree.children[node]:
            reach[child] = reach[node] * (probs[tree.infoset[node]][a] if p >= 0 else chance)
    return out


def sampling_split(iterates: Path, count: np.ndarray, draws: int, start: int = 10) -> dict:
    """{"play_weighted", "resampled", "resampled_x10"} for the run ``iterates`` (every
    iterate kept) and a reservoir's rows per set ``count``."""
    from isz.nn.checkpoint import load_model
    from research.average_checkpoints import numbered
    from research.iterate_averages import game_of, network_policies

    ck = Path(iterates) / "checkpoints"
    found = numbered(ck)
    its = [i for i in range(start, max(found, default=0) + 1) if i in found]
    if len(its) != max(found, default=0) - start + 1 or not its:
        raise IszError(f"{ck}: needs iter-<n>.pt of every iteration from {start} "
                       "(train with trainer.checkpoint_every=1)")
    game, tree, exploit = game_of(ck)
    if len(tree.views) != len(count):
        raise IszError(f"{ck}: its game has {len(tree.views)} information sets, the "
                       f"reservoir's {len(count)}: the iterates of another game")
    probs = np.stack([network_policies(load_model(found[i], game)[0], tree.views, game)
                      for i in its])  # [T, I, A]
    w = np.stack([play_reach(tree, p) for p in probs])  # [T, I]
    legal = probs[-1] > 0
    seen = w.sum(0) > 0
    exact = np.where(seen[:, None], np.einsum("ti,tia->ia", w, probs)
                     / np.maximum(w.sum(0), 1e-300)[:, None], legal / legal.sum(1, keepdims=True))
    rng = np.random.default_rng(0)
    out = {"iterates": str(iterates), "play_weighted": exploit(exact)}
    for name, k in (("resampled", 1), ("resampled_x10", 10)):
        vals = []
        for _ in range(draws):
            avg = exact.copy()
            for i in np.flatnonzero((count > 0) & seen):
                t = rng.choice(len(its), size=int(count[i]) * k, p=w[:, i] / w[:, i].sum())
                avg[i] = probs[t, i].mean(0)
            vals.append(exploit(avg))
        out[name] = vals
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--iterates", nargs="+", help="one run folder per run, every iterate "
                    "kept: split the tabular average's gap (see the module's doc)")
    ap.add_argument("--from", dest="start", type=int, default=10,
                    help="with --iterates: the first iterate averaged")
    ap.add_argument("--draws", type=int, default=3)
    ap.add_argument("--output")
    a = ap.parse_args(argv)
    rows = []
    try:
        if a.iterates and len(a.iterates) != len(a.runs):
            raise IszError(f"--iterates names {len(a.iterates)} folders for "
                           f"{len(a.runs)} runs: give one per run")
        for k, run in enumerate(a.runs):
            r = run_reservoir(Path(run), Path(a.iterates[k]) if a.iterates else None,
                              a.draws, a.start)
            rows.append(r)
            print(f"{run}: network {r['network']:.4f} tabular {r['tabular']:.4f} "
                  f"({r['unseen']} of {r['sets']} sets without a row)" + (
                      f"; iterates play-weighted {r['play_weighted']:.4f}, resampled "
                      f"{np.mean(r['resampled']):.4f}, x10 {np.mean(r['resampled_x10']):.4f}"
                      if a.iterates else ""), flush=True)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.output:
        Path(a.output).parent.mkdir(parents=True, exist_ok=True)
        Path(a.output).write_text(json.dumps({"runs": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
