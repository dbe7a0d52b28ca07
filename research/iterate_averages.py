"""Exact exploitability of a run's last iterate and of averages of its iterates.

    python -m research.iterate_averages runs/leduc_nash_magnet_s* --from 30 50 \\
        [--powers 0.5 1] [--until 100] --output docs/results/nash/leduc_iterate_averages.json

For each run folder (numbered checkpoints of every iteration, as with
``trainer.checkpoint_every=1``) and each first iteration S, the raw networks'
policies (policy heads alone, every information set of the game enumerated) of
iterations S..N are averaged three ways and their exact exploitability
(NashConv / 2, chips) computed: ``reach`` (each iterate weighted by its own
reach of the information set: the average policy that fictitious play, CFR and
NFSP's average network stand for), ``logit`` (the mean of the log-policies,
renormalised), and ``weights`` (the network with the mean of the iterates'
weights, `isz.nn.average`: what ``trainer.average_from=S`` keeps). The first
two need the game tree and are diagnostics; the third is what a run can use. With
``--powers a ...`` also ``reach t^a``: iterate t's reach times t^a, as
``trainer.average_policy_weight`` weighs the reservoir's rows (``sqrt``: a = 0.5,
``linear``: a = 1).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from isz.types import IszError


def network_policies(model, views, game) -> np.ndarray:
    """probs[I, a] of the raw network at every information set (one batch)."""
    import torch

    x = np.stack([v.tensor().reshape(-1) for v in views]).astype(np.float32)
    m = np.zeros((len(views), game.num_actions), dtype=bool)
    for i, v in enumerate(views):
        m[i, list(v.legal_actions)] = True
    with torch.no_grad():
        logits, _ = model(torch.from_numpy(x), torch.from_numpy(m))
        return torch.softmax(logits.double(), dim=-1).numpy()


def game_of(ck: Path):
    """(game, tree, exploit) of the run whose checkpoints folder is ``ck``: exploit(p)
    is the exact exploitability of probs p[I, A] over ``tree.views``."""
    from isz.evaluation.exploitability import exploitability, game_tree
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint

    game = checkpoint_game(load_checkpoint(ck / "last.pt"))
    tree = game_tree(game)
    index = {v.key: i for i, v in enumerate(tree.views)}

    def exploit(p: np.ndarray) -> float:
        return exploitability(game, lambda v: p[index[v.key]]).exploitability

    return game, tree, exploit


def run_averages(run: Path, starts: list[int], powers: tuple[float, ...] = (),
                 until: int | None = None) -> dict:
    """{"last": e, "by_start": {S: {"reach", "logit", "weights", "reach t^a" for each
    power a}}} for one run, over its iterates up to ``until`` (default: its last)."""
    from isz.nn.average import accumulate
    from isz.nn.checkpoint import load_model
    from research.average_checkpoints import numbered

    ck = Path(run) / "checkpoints"
    found = numbered(ck)
    if not found:
        raise IszError(f"{ck}: no iter-<n>.pt (train with trainer.checkpoint_every=1)")
    game, tree, exploit = game_of(ck)
    last_it = max(found) if until is None else until
    missing = [i for i in range(min(starts), last_it + 1) if i not in found]
    if missing:
        raise IszError(f"{ck}: iterations {missing[:10]} have no iter-<n>.pt")
    policies, models = {}, {}
    for i in range(min(starts), last_it + 1):
        models[i], _ = load_model(found[i], game)
        policies[i] = network_policies(models[i], tree.views, game)
    out = {"run": str(run), "last_iteration": last_it, "last": exploit(policies[last_it]),
           "by_start": {}}
    legal = policies[last_it] > 0
    for s in starts:
        its = range(s, last_it + 1)
        logs, avg = 0.0, None
        for n, i in enumerate(its, start=1):
            logs = logs + np.log(np.maximum(policies[i], 1e-300))
            avg = accumulate(avg, models[i], n)
        z = np.where(legal, logs / len(its), -np.inf)
        logit = np.exp(z - z.max(axis=1, keepdims=True))
        logit /= logit.sum(axis=1, keepdims=True)
        row = {"reach": exploit(_reach_average(tree, policies, its, 0.0, legal)),
               "logit": exploit(logit),
               "weights": exploit(network_policies(avg, tree.views, game))}
        for a in powers:
            row[f"reach t^{a:g}"] = exploit(_reach_average(tree, policies, its, a, legal))
        out["by_start"][str(s)] = row
    return out


def _reach_average(tree, policies: dict, its, power: float, legal: np.ndarray) -> np.ndarray:
    """probs[I, a]: the iterates' policies at I, iterate t weighted by t^power times its
    own reach of I (uniform over legal moves where none reaches I)."""
    from research.mirror_dynamics import own_reach

    num, den = 0.0, 0.0
    for i in its:
        w = float(i) ** power * own_reach(tree, policies[i])
        num = num + w[:, None] * policies[i]
        den = den + w
    avg = num / np.maximum(den, 1e-300)[:, None]
    return np.where(den[:, None] > 0, avg, legal / legal.sum(axis=1, keepdims=True))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--from", dest="starts", type=int, nargs="+", required=True)
    ap.add_argument("--powers", type=float, nargs="+", default=[],
                    help="also the reach average with iterate t weighted t^a")
    ap.add_argument("--until", type=int, help="the iterates up to this one (default: all)")
    ap.add_argument("--output")
    a = ap.parse_args(argv)
    rows = []
    try:
        if min(a.starts) < 1:
            raise IszError(f"--from values must be >= 1, got {a.starts}")
        for run in a.runs:
            r = run_averages(Path(run), a.starts, tuple(a.powers), a.until)
            rows.append(r)
            print(f"{run}: last {r['last']:.4f} " + " ".join(
                f"from {s}: " + " ".join(f"{k} {e:.4f}" for k, e in v.items())
                for s, v in r["by_start"].items()), flush=True)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.output:
        Path(a.output).parent.mkdir(parents=True, exist_ok=True)
        Path(a.output).write_text(json.dumps({"starts": a.starts, "powers": a.powers,
                                              "until": a.until, "runs": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
