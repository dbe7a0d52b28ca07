"""One real self-play iteration's Leduc targets against the exact mirror step, per set.

    python -m research.leduc_iteration CHECKPOINT [--all-hands] [--common-worlds]
        [--games 2048] [--draws 2] [--json FILE]

`research.leduc_target_error` models an iteration (Poisson counts of searches
per information set); this tool plays one (`isz.selfplay.play`, the settings of
`research.leduc_target_error.RECIPE`'s self-play: posterior belief, the mirror
target with the checkpoint's recorded magnet, every move drawn from its target)
``--draws`` times from the checkpoint, and groups the recorded positions by
information set. Per round and reach quartile (the groups of
`research.leduc_target_error.groups`): the targets per set, the share of sets
with none, the squared distance of the iteration's mean target to the exact step
(a set with none keeps P), and the value targets' error against the exact
on-policy value V*(I) (RMS over the sets with a target; rows of the hand held
carry the final return z, other hands' rows their search's value). Exploitability
of P, of the exact step and of the policy made of an iteration's mean targets
(what a network fitted exactly to them would play). ``--all-hands``: self-play
with ``selfplay.all_hands`` (every hand of each visited public state searched).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time

import numpy as np

from isz.evaluation.exploitability import exploitability
from isz.fs import write_atomic
from isz.selfplay import play
from isz.types import IszError
from research.leduc_exact import exact_tables, load_leduc, magnet_evaluator, net_policy
from research.leduc_target_error import groups, markdown, selfplay_config


def per_set(ex, pos, index: dict) -> dict:
    """Per information set (float64[K] each): the number of targets, the mean target's
    squared distance to the step (P where none), the mean value target's error."""
    k = len(ex.views)
    rows = np.flatnonzero(pos.policies.sum(axis=1) > 0)
    ids = np.array([index[pos.tensors[r].tobytes()] for r in rows], np.int64)
    count = np.bincount(ids, minlength=k).astype(np.float64)
    mean = np.zeros(ex.probs.shape)
    np.add.at(mean, ids, pos.policies[rows].astype(np.float64))
    seen = count > 0
    mean[seen] /= count[seen, None]
    mean[~seen] = ex.probs[~seen]
    value = np.zeros(k)
    np.add.at(value, ids, pos.returns[rows, pos.players[rows]].astype(np.float64))
    err = np.where(seen, value / np.maximum(count, 1) - ex.value, np.nan)
    return {"targets": count, "unseen": (~seen).astype(np.float64),
            "iteration_sq": ((mean - ex.step) ** 2).sum(axis=1), "value_err": err,
            "mean_target": mean}


def summarise(ex, sets: list[dict]) -> list[dict]:
    """One row per group: means over its sets and over the draws."""
    rows = []
    for name, m in groups(ex):
        row = {"group": name, "sets": int(m.sum())}
        for key in ("targets", "unseen", "iteration_sq"):
            row[key] = float(np.mean([s[key][m].mean() for s in sets]))
        sq = [np.nanmean(s["value_err"][m] ** 2) for s in sets
              if np.any(~np.isnan(s["value_err"][m]))]
        row["value_rms"] = float(np.sqrt(np.mean(sq))) if sq else float("nan")
        rows.append(row)
    return rows


def measure(a) -> dict:
    t0 = time.perf_counter()
    game, net = load_leduc(a.checkpoint)
    magnet = magnet_evaluator(a.checkpoint, game)
    ex = exact_tables(game, net_policy(net), a.eta, a.alpha,
                      None if magnet is None else net_policy(magnet))
    index = {v.tensor().astype(np.float32).tobytes(): i for i, v in enumerate(ex.views)}
    cfg = dataclasses.replace(selfplay_config(a, "common" if a.common_worlds else "network"),
                              parallel_games=256, temperature_moves=20, all_hands=a.all_hands)
    sets, searched, held = [], [], []
    for d in range(a.draws):
        pos, stats = play(game, net, cfg, a.games, np.random.default_rng(a.seed + d),
                          magnet=magnet)
        sets.append(per_set(ex, pos, index))
        searched.append(stats.positions)
        held.append(stats.positions - stats.other_hands)  # the decisions played
    key = {v.key: i for i, v in enumerate(ex.views)}

    def e(p):
        return exploitability(game, lambda v: p[key[v.key]]).exploitability
    return {"checkpoint": a.checkpoint, "all_hands": a.all_hands,
            "common_worlds": a.common_worlds, "games": a.games, "draws": a.draws,
            "simulations": a.simulations, "searches_per_iteration": float(np.mean(searched)),
            "decisions_per_iteration": float(np.mean(held)),
            "rows": summarise(ex, sets),
            "exploitability": {"network": e(ex.probs), "exact_step": e(ex.step),
                               "iteration_target": float(np.mean([e(s["mean_target"])
                                                                  for s in sets]))},
            "seconds": round(time.perf_counter() - t0, 1)}


def report(out: dict) -> str:
    head = (f"all_hands={out['all_hands']}, common_worlds={out['common_worlds']}: "
            f"{out['searches_per_iteration']:.0f} searches per iteration of {out['games']} "
            "games; exploitability " + ", ".join(f"{k} {x:.4f}" for k, x in
                                                  out["exploitability"].items()))
    return head + "\n\n" + markdown(out["rows"]) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--all-hands", action="store_true")
    ap.add_argument("--common-worlds", action="store_true")
    ap.add_argument("--simulations", type=int, default=128)
    ap.add_argument("--eta", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--games", type=int, default=2048, help="self-play games per iteration")
    ap.add_argument("--draws", type=int, default=2, help="iterations played")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    try:
        if min(a.draws, a.games, a.simulations) < 1:
            raise IszError(f"--draws, --games and --simulations must be >= 1, got "
                           f"{a.draws}, {a.games}, {a.simulations}")
        out = measure(a)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report(out))
    if a.json:
        write_atomic(a.json, lambda f: f.write(json.dumps(out, indent=1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
