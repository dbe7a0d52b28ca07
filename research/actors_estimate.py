"""How long would a recipe take with N self-play actors? An estimate from a run's own log.

    python -m research.actors_estimate runs/a0 [runs/a2 ...] --wall 214 192 --actors 2 8 32

Reads each run's ``metrics.jsonl`` (one row an iteration). Per iteration, self-play
seconds are the positions it added over the self-play rate of one process
(``perf/positions_per_s``, divided by the number of actors in a run with actors: what
one of them managed beside the others and the learner) and learner seconds its gradient
steps over ``perf/train_steps_per_s``. With ``--wall`` (each run's measured wall
seconds, in the order given) the rest of the run (start-up, compilation, the in-run
ladder and the final evaluation) is wall minus the iterations' ``elapsed_s``. The
estimate for N actors, each with its own core at the run's per-process rate and an
efficiency ``--efficiency`` (0.8: the scaling goal, not measured here), overlaps
self-play and learning as the actor loop does: an iteration takes the larger of the
two, and the rest is kept as measured. It is an estimate: nothing here ran on N machines.
One JSON line per run, each followed by one per N.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np


def per_iteration(run: Path) -> dict:
    """Median seconds an iteration of self-play and of learning, the iterations'
    total elapsed seconds, and their count (the first 2 left out of the medians:
    compilation, actor start-up)."""
    rows = [json.loads(line) for line in (run / "metrics.jsonl").open()]
    pos = np.diff([0] + [r["positions"] for r in rows])
    steps = np.diff([0] + [r["steps"] for r in rows])
    procs = np.array([max(1, sum(k.startswith("perf/actor") and k.endswith("/positions_per_s")
                                 for k in r)) for r in rows])
    sp = pos * procs / np.array([r["perf/positions_per_s"] for r in rows])
    ln = steps / np.array([r["perf/train_steps_per_s"] for r in rows])
    return {"run": str(run), "iterations": len(rows), "processes": int(procs[-1]),
            "selfplay_s": float(np.median(sp[2:])), "learner_s": float(np.median(ln[2:])),
            "iterations_s": float(rows[-1]["elapsed_s"]),
            "positions_per_iteration": int(np.median(pos))}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--wall", nargs="*", type=float, default=[])
    ap.add_argument("--actors", nargs="*", type=int, default=[8, 32])
    ap.add_argument("--efficiency", type=float, default=0.8)
    a = ap.parse_args(argv)
    if len(a.wall) > len(a.runs):
        ap.error(f"--wall gives {len(a.wall)} times for {len(a.runs)} runs")
    rows = [per_iteration(r) for r in a.runs]
    for row, wall in zip(rows, a.wall, strict=False):
        row["wall_s"] = wall
        row["rest_s"] = round(wall - row["iterations_s"], 1)
    for row in rows:
        print(json.dumps(row))
        for n in a.actors:
            it = max(row["learner_s"], row["selfplay_s"] / (a.efficiency * n))
            print(json.dumps({"run": row["run"], "actors": n, "iteration_s": round(it, 2),
                              "estimate_s": round(row["iterations"] * it
                                                  + row.get("rest_s", 0.0), 1),
                              "learner_bound": it == row["learner_s"]}))


if __name__ == "__main__":
    main()
