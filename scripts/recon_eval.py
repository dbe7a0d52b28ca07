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
writes JSON to ``--output``. ``--filter-diagnostics``: at every recon decision (either
agent's) the arena's hook, which sees the true state, asks a network-driven and a
uniform-motion copy of A's filter for the probability of the adversary's true slot
and counts the distinct worlds in 256 draws of each (the agents never see it).
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
DIAG_WORLDS = 256  # worlds drawn per filter and recon decision to count distinct ones


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


def filter_hook(planner, game):
    """(hook for `match`'s ``on_decision``, summary()) comparing two copies of
    ``planner``'s filter, its adversary the network or a random walker, at every
    recon decision: the probability each gives the true adversary slot and the
    distinct worlds among `DIAG_WORLDS` draws. ``summary()`` gives per filter the
    mean probability, mean log probability and mean distinct worlds, and the mean
    per-game difference of log probabilities (network - uniform) with its SE over
    games."""
    import math

    import numpy as np

    from isz.belief.diagnostics import true_state_probability
    from isz.search.evaluator import make_search_belief

    spec = planner.knobs["belief"]
    filters = {p: make_search_belief(spec, game, planner.evaluator, p)
               for p in ("network", "uniform")}
    if not all(hasattr(b, "marginal") for b in filters.values()):
        raise IszError(f"--filter-diagnostics needs a recon filter (particle or bayes), "
                       f"the planner's belief is {spec!r}")
    games: list[list[tuple]] = []
    last_t = [math.inf]

    def hook(state, seat, view, agent):
        if seat != 0:
            return
        t = int(view.data[1])
        if t <= last_t[0]:
            games.append([])
        last_t[0] = t
        row = []
        for b in filters.values():
            worlds = b.sample_many(view, DIAG_WORLDS, np.random.default_rng(0))
            row += [true_state_probability(b, view, state), len({w.tobytes() for w in worlds})]
        games[-1].append(tuple(row))

    def summary() -> dict:
        x = np.array([r for g in games for r in g], dtype=np.float64).reshape(-1, 4)
        out = {"decisions": len(x), "games": len(games)}
        for i, name in enumerate(filters):
            p = x[:, 2 * i]
            out[name] = {"p_true": float(p.mean()) if len(x) else math.nan,
                         "log_p_true": float(np.log(np.maximum(p, 1e-12)).mean())
                         if len(x) else math.nan,
                         "distinct_worlds": float(x[:, 2 * i + 1].mean()) if len(x) else math.nan}
        d = np.array([np.mean([math.log(max(r[0], 1e-12)) - math.log(max(r[2], 1e-12))
                               for r in g]) for g in games if g])
        out["log_p_diff"] = float(d.mean()) if len(d) else math.nan
        out["log_p_diff_se"] = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 \
            else math.nan
        return out

    return hook, summary


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
    ap.add_argument("--filter-diagnostics", action="store_true",
                    help="at every recon decision: the true slot's probability under a "
                         "network-driven and a uniform-motion copy of A's filter")
    args = ap.parse_args(argv)
    try:
        check_choice("--opponent", args.opponent, OPPONENTS)
        game, agents = build(args)
        hook, summary = filter_hook(agents[0], game) if args.filter_diagnostics \
            else (None, None)
        res = match(game, agents, check_int("--deals", args.deals, lo=1),
                    check_int("--seed", args.seed, lo=0), progress=False, on_decision=hook)
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
    payload = {"config": vars(args), "seats": rows, "result": res.to_dict()}
    if summary is not None:
        payload["filter_diagnostics"] = diag = summary()
        for name in ("network", "uniform"):
            f = diag[name]
            print(f"{name} filter: P(true slot) {f['p_true']:.4f}, mean log {f['log_p_true']:.4f}, "
                  f"{f['distinct_worlds']:.1f} distinct worlds of {DIAG_WORLDS}")
        print(f"log P(true) network - uniform: {diag['log_p_diff']:+.4f} ± "
              f"{diag['log_p_diff_se']:.4f} ({diag['decisions']} recon decisions, "
              f"{diag['games']} games)")
    if args.output:
        from scripts.evaluate import write_json_atomic

        write_json_atomic(Path(args.output), payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
