"""Does batching one decision's simulations cost strength? Planner vs itself.

    python -m research.lanes_match runs/tricks/checkpoints/last.pt --simulations 64 --deals 1000

The checkpoint's planner with ``lanes`` simulations in flight per network call
(default: its automatic choice) plays the same planner with one simulation per
call (the search before batching), at the same simulation count, every deal
once per seat rotation. A score within 2 SE of 0.5 means the virtual-loss
batching leaves the strength at equal simulations unchanged. Writes JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

import isz
from isz.evaluation import match


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--simulations", type=int, default=64)
    ap.add_argument("--lanes", default="auto", help="lanes of the batched planner")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--output", default="results/lanes_match.json")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    lanes = a.lanes if a.lanes == "auto" else int(a.lanes)
    try:
        batched = isz.load_planner(a.checkpoint, iterations=a.simulations, lanes=lanes,
                                   device="cpu")
        single = isz.load_planner(a.checkpoint, iterations=a.simulations, lanes=1,
                                  device="cpu")
        res = match(batched.game, [batched, single], deals=a.deals, seed=a.seed,
                    workers=a.workers)
    except isz.IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"lanes {batched.lanes} vs 1 at {a.simulations} simulations")
    print(res.table())
    out = Path(a.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    payload = {"checkpoint": a.checkpoint, "simulations": a.simulations,
               "lanes": [batched.lanes, 1], "result": res.to_dict()}
    out.write_text(json.dumps(payload, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
