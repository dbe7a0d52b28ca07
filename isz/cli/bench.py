"""``isz-bench`` (or ``python scripts/bench.py``): isz benchmarks as JSON lines on stdout,
one measurement per line (the measurements: `isz.bench`).

    isz-bench                                     # everything
    isz-bench --only search --games tricks --agents so_ismcts
    isz-bench --only distributed                  # one process vs forked processes vs Ray actors
    isz-bench --only leaf                         # the random playout vs a fitted one
    isz-bench --only buffer                       # a checkpoint's buffer write, whole vs segment

Rows carry ``{"bench", "game", "agent", "metric", "value", ...}``. Speed
depends on the machine and its load: compare rows measured in the same run
(before and after a change, isz and a reference implementation).
"""

from __future__ import annotations

import argparse
import json
import os

from isz.bench.search import arena_speed, leaf_rows, search_speed

SEARCH_POSITIONS = [
    ("tricks", "first decision"),
    ("oh_hell", "first card play"),
    ("kuhn_poker", "first decision"),
    ("leduc_poker", "first decision"),
    ("recon", "first decision"),
]
AGENTS = ["so_ismcts", "mo_ismcts", "pimc", "cheat_uct", "puct_ismcts"]  # puct_ismcts: rollouts
LEAF_POSITIONS = [("tricks", "first decision"), ("oh_hell", "first card play"),
                  ("recon", "first decision")]  # recon: no move features, action ids


def planner_rows(games: list[str], lanes: str, device: str, expand_after: str = "1",
                 leaf_mix: float = 0.0, tree: str = "mo", iterations: int = 256,
                 below_threshold: str = "playout", agent: str = "puct_ismcts"):
    """One decision of the planner at each ``lanes`` and expansion threshold
    (``expand_after``, comma list) next to rollout so_ismcts at the same position,
    and the ratio planner simulations/s : so_ismcts iterations/s."""
    from isz.bench import nn as speed_nn
    from isz.bench.search import PLANNER_POSITIONS

    for game in games:
        so = search_speed(game, "so_ismcts", PLANNER_POSITIONS.get(game, "first decision"),
                          1000, 7)
        yield so
        for n in map(int, lanes.split(",")):
            for e in map(int, expand_after.split(",")):
                row = speed_nn.planner_speed(game, n, iterations, device=device,
                                             expand_after=e, leaf_mix=leaf_mix, tree=tree,
                                             below_threshold=below_threshold,
                                             agent=agent)
                row["ratio_to_so_ismcts"] = round(row["value"] / so["value"], 5)
                yield row


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description="isz benchmarks: JSON lines on stdout")
    ap.add_argument("--only", default="search,leaf,arena,belief,selfplay,planner,nn",
                    help="comma list of sections: " + ", ".join(SECTIONS) + " (distributed "
                         "is not in the default: it trains for minutes; nor is buffer: it "
                         "writes GBs)")
    ap.add_argument("--planner-games", default="tricks,oh_hell")
    ap.add_argument("--planner-lanes", default="1,16",
                    help="lanes of the single-decision planner rows (1 = before batching)")
    ap.add_argument("--planner-expand-after", default="1",
                    help="comma list of the planner rows' expansion thresholds (1 = off)")
    ap.add_argument("--planner-leaf-mix", type=float, default=0.0,
                    help="leaf_mix of the planner rows (1: random-playout leaf values)")
    ap.add_argument("--planner-tree", default="mo", help="tree of the planner rows: mo, so")
    ap.add_argument("--planner-below-threshold", default="playout",
                    help="below_threshold of the planner rows: playout, search")
    ap.add_argument("--planner-agent", default="puct_ismcts",
                    choices=("puct_ismcts", "guided_so_ismcts"),
                    help="the agent of the planner rows")
    ap.add_argument("--planner-iterations", type=int, default=256,
                    help="simulations of one planner decision")
    ap.add_argument("--device", default="auto", help="device of the network rows")
    ap.add_argument("--selfplay-game", default="tricks")
    ap.add_argument("--selfplay-batches", default="1,64,256")
    ap.add_argument("--nn-batches", default="1,64,256", help="batch sizes of the forward rows")
    ap.add_argument("--games", default=",".join(g for g, _ in SEARCH_POSITIONS))
    ap.add_argument("--agents", default=",".join(AGENTS))
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--deals", type=int, default=20, help="deals for the arena rows")
    ap.add_argument("--actors", default=None,
                    help="distributed: comma list of process and actor counts "
                    "(default 1, 2, 4, .. cores)")
    ap.add_argument("--train-iterations", type=int, default=6,
                    help="distributed: iterations per run (the first 2 are warm-up)")
    ap.add_argument("--buffer-game", default="oh_hell", help="buffer: the rows' game")
    ap.add_argument("--buffer-rows", default="250000,8448",
                    help="buffer: the ring's positions and one iteration's (the oh_hell "
                    "preset's: 256 games of 33)")
    ap.add_argument("--out", default=None, help="also append the rows to this file")
    return ap


def _search(a):
    for game, kind in SEARCH_POSITIONS:
        if game in a.games.split(","):
            for agent in a.agents.split(","):
                yield search_speed(game, agent, kind, a.iterations, a.reps)


def _leaf(a):
    games = a.games.split(",")
    yield from leaf_rows([p for p in LEAF_POSITIONS if p[0] in games], a.iterations, a.reps)


def _arena(a):
    yield arena_speed("tricks", ["so_ismcts", "pimc"], a.deals, a.iterations)
    yield arena_speed("tricks", ["random", "random"], 50 * a.deals, 1)


def _belief(a):
    from isz.bench.belief import belief_rows
    yield from belief_rows()


def _selfplay(a):
    from isz.bench import nn as speed_nn
    for b in map(int, a.selfplay_batches.split(",")):
        yield speed_nn.selfplay_speed(a.selfplay_game, b, games=max(b, 16), simulations=32,
                                      device=a.device)


def _planner(a):
    yield from planner_rows(a.planner_games.split(","), a.planner_lanes, a.device,
                            a.planner_expand_after, a.planner_leaf_mix, a.planner_tree,
                            a.planner_iterations, a.planner_below_threshold, a.planner_agent)


def _nn(a):
    from isz.bench import nn as speed_nn
    for b in map(int, a.nn_batches.split(",")):
        yield speed_nn.forward_speed(a.selfplay_game, b, device=a.device)
    yield speed_nn.cache_speed(a.selfplay_game, device=a.device)
    yield speed_nn.train_speed(a.selfplay_game, 256, device=a.device)


def _buffer(a):
    from isz.bench.buffer import buffer_save_rows
    capacity, per_iteration = map(int, a.buffer_rows.split(","))
    yield buffer_save_rows(a.buffer_game, capacity, per_iteration)


def _distributed(a):
    from isz.bench import distributed as sd
    counts = (list(map(int, a.actors.split(","))) if a.actors
              else sd.actor_counts(len(os.sched_getaffinity(0))))
    yield from sd.distributed_rows(a.selfplay_game, counts, a.train_iterations,
                                   device=a.device)


# each section's rows, in the order they run; a section reads the options it needs
SECTIONS = {"search": _search, "leaf": _leaf, "arena": _arena, "belief": _belief,
            "selfplay": _selfplay, "planner": _planner, "nn": _nn, "buffer": _buffer,
            "distributed": _distributed}


def main(argv=None) -> int:
    """The ``isz-bench`` console command: every section asked for, one JSON line a row."""
    a = _parser().parse_args(argv)
    sections = a.only.split(",")
    unknown = [x for x in sections if x not in SECTIONS]
    if unknown:
        raise SystemExit(f"isz-bench: unknown section(s) {', '.join(map(repr, unknown))} in "
                         f"--only; known: {', '.join(SECTIONS)}")
    out = open(a.out, "a") if a.out else None  # noqa: SIM115
    for name in SECTIONS:
        if name not in sections:
            continue
        for row in SECTIONS[name](a):
            line = json.dumps(row)
            print(line, flush=True)
            if out:
                out.write(line + "\n")
                out.flush()
    return 0
