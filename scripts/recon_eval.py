#!/usr/bin/env python3
"""A trained recon planner against planner variants and rollout search, per seat.

    python scripts/recon_eval.py runs/recon_hard/checkpoints/last.pt --opponent so_ismcts \\
        --deals 1000 --iterations 32
    python scripts/recon_eval.py CKPT --opponent pimc --seconds 0.02   # equal time per move

Agent A is the checkpoint's planner as trained (its belief: for recon_hard the particle
filter whose adversary plays the network; ``--belief-policy uniform``: a random
walker). Opponents: ``planner_uniform`` (the same planner, its filter's adversary a
random walker), ``so_ismcts``, ``pimc`` (rollout search; their belief is the game's
exact posterior of a random-walk adversary). ``--iterations`` gives every agent that
many simulations; ``--seconds`` instead gives every agent that time per move
(``time_budget``). Prints the match table and each agent's score in each seat with
its SE (seat 0 = recon, seat 1 = adversary) and seconds and simulations per decision;
writes JSON to ``--output``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from isz import IszError, load_planner, make_agent  # noqa: E402
from isz.evaluation import match  # noqa: E402
from isz.evaluation.seats import seat_rows  # noqa: E402
from isz.types import check_choice, check_int  # noqa: E402

OPPONENTS = ("planner", "planner_uniform", "so_ismcts", "pimc")


def _budget(args) -> dict:
    if args.seconds is not None:
        if args.seconds <= 0:
            raise IszError(f"--seconds must be > 0, got {args.seconds}")
        return {"time_budget": args.seconds, "iterations": None}
    return {"iterations": check_int("--iterations", args.iterations, lo=1)}


def build(args):
    """(game, [A, B])."""
    budget = _budget(args)
    import torch

    # one core per decision for every agent (as scripts/evaluate.py): equal cost
    torch.set_num_threads(1)
    mine = {} if args.belief_policy is None else {"belief_policy": args.belief_policy}
    a = load_planner(args.checkpoint, device="cpu", **budget, **mine)
    if args.opponent.startswith("planner"):
        policy = "uniform" if args.opponent == "planner_uniform" else "network"
        b = load_planner(args.checkpoint, a.game, device="cpu", belief_policy=policy, **budget)
    else:
        b = make_agent(args.opponent, a.game, **budget)
    return a.game, [a, b]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--opponent", default="so_ismcts", help=", ".join(OPPONENTS))
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=None, help="time per move (equal time)")
    ap.add_argument("--belief-policy", default=None, choices=("network", "uniform"),
                    help="agent A's filter: the network's adversary or a random walker "
                         "(default: as trained)")
    ap.add_argument("--output", default=None, help="JSON file (written atomically)")
    args = ap.parse_args(argv)
    try:
        check_choice("--opponent", args.opponent, OPPONENTS)
        game, agents = build(args)
        res = match(game, agents, check_int("--deals", args.deals, lo=1),
                    check_int("--seed", args.seed, lo=0), progress=False)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    rows = seat_rows(res)
    print(res.table())
    for i, row in enumerate(rows):
        seats = "  ".join(f"seat {s}: {x['score']:.3f} ± {x['se']:.3f}"
                          for s, x in enumerate(row["seats"]))
        print(f"{'AB'[i]} {row['name']}: {seats}  ({row['seconds_per_decision'] * 1e3:.1f} "
              f"ms and {row['simulations_per_decision']:.0f} simulations a decision)")
    if args.output:
        from scripts.evaluate import write_json_atomic

        write_json_atomic(Path(args.output), {"config": vars(args), "seats": rows,
                                              "result": res.to_dict()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
