"""Exact exploitability of final checkpoints: raw network and planner, over seeds.

    python -m research.nash_table --run "magnet=runs/kuhn_magnet_s*" \\
        --planner-seeds 0 1 2 3 4 --output docs/results/nash/kuhn_nash_table.json

For each ``--run LABEL=GLOB`` (one run folder per training seed) it loads every
run's ``checkpoints/<--checkpoint>`` (default ``last.pt``: the final iterate,
not ``best.pt``) and computes the exact exploitability (NashConv / 2, chips) of
the raw network (its policy head alone: deterministic) and of the planner at
the settings its run recorded (`isz.load_planner`; ``--knob key=value`` changes
one, e.g. ``iterations=1024``) for each planner seed (the generator of every
search, `isz.evaluation.agent_policy`). It prints, and writes as JSON, each
recipe's values per training seed and planner seed, their mean and range.
``isz-evaluate checkpoint=... agents=[planner] exploitability=true seed=S``
gives the same planner figure for one checkpoint and seed.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path

import numpy as np

from isz.types import IszError


def _value(text: str):
    """A --knob value: int, float, true/false, or the string itself."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def measure(path: Path, planner_seeds: list[int], knobs: dict) -> dict:
    """Raw-network and per-seed planner exploitability of one checkpoint."""
    import torch

    from isz import load_planner
    from isz.evaluation.exploitability import agent_policy, exploitability
    from isz.search.evaluator import evaluator_policy

    torch.set_num_threads(1)
    planner = load_planner(str(path), device="cpu", **knobs)
    game = planner.game
    net = exploitability(game, evaluator_policy(planner.evaluator)).exploitability
    per_seed = [exploitability(game, agent_policy(planner, s)).exploitability
                for s in planner_seeds]
    return {"checkpoint": str(path), "net": net, "planner": per_seed,
            "planner_knobs": {k: v for k, v in planner.knobs.items()
                              if k not in ("evaluator", "belief")}}


def summary(values) -> dict:
    v = np.asarray(values, dtype=np.float64)
    return {"mean": float(v.mean()), "min": float(v.min()), "max": float(v.max()),
            "n": int(v.size)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", action="append", required=True, metavar="LABEL=GLOB")
    ap.add_argument("--checkpoint", default="last.pt", help="file under checkpoints/")
    ap.add_argument("--planner-seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--knob", action="append", default=[], metavar="KEY=VALUE",
                    help="planner knob overriding the run's (iterations=1024, ...)")
    ap.add_argument("--output", help="JSON file to write")
    a = ap.parse_args(argv)
    try:
        knobs = {}
        for kv in a.knob:
            if "=" not in kv:
                raise IszError(f"--knob {kv!r}: expected KEY=VALUE")
            k, v = kv.split("=", 1)
            knobs[k] = _value(v)
        table = []
        for spec in a.run:
            if "=" not in spec:
                raise IszError(f"--run {spec!r}: expected LABEL=GLOB")
            label, pattern = spec.split("=", 1)
            paths = sorted(Path(d) / "checkpoints" / a.checkpoint for d in glob.glob(pattern))
            paths = [p for p in paths if p.is_file()]
            if not paths:
                raise IszError(f"--run {spec}: no run folder with checkpoints/{a.checkpoint}")
            rows = []
            for p in paths:
                rows.append(measure(p, a.planner_seeds, knobs))
                r = rows[-1]
                print(f"{label} {p}: net {r['net']:.4f} planner "
                      + " ".join(f"{x:.4f}" for x in r["planner"]), flush=True)
            entry = {"label": label, "runs": rows, "knobs": knobs,
                     "net": summary([r["net"] for r in rows]),
                     "planner": summary([x for r in rows for x in r["planner"]]),
                     "planner_by_run": [summary(r["planner"]) for r in rows]}
            table.append(entry)
            n, pl = entry["net"], entry["planner"]
            print(f"{label}: net {n['mean']:.4f} ({n['min']:.4f}-{n['max']:.4f}) over "
                  f"{n['n']} training seeds; planner {pl['mean']:.4f} "
                  f"({pl['min']:.4f}-{pl['max']:.4f}) over {pl['n']} (training x planner "
                  "seeds)", flush=True)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.output:
        Path(a.output).parent.mkdir(parents=True, exist_ok=True)
        Path(a.output).write_text(json.dumps({"checkpoint": a.checkpoint,
                                              "planner_seeds": a.planner_seeds,
                                              "recipes": table}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
