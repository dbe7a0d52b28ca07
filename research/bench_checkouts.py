"""Is one checkout of isz faster than another? Bench rows of both, row by row, alternately.

    .venv/bin/python -m research.bench_checkouts --before ../isz-before --repeats 16 \\
        --out docs/results/speed/bench_kernel_refactor.jsonl
    .venv/bin/python -m research.bench_checkouts --summary \\
        --out docs/results/speed/bench_kernel_refactor.jsonl   # the table of ratios

Each checkout (its own ``.venv``, e.g. a ``git worktree`` of the older commit set up with
``bash scripts/setup.sh``) runs in a worker process of its own that computes one row on
request: `isz.bench.search.search_speed` (rollout search, one decision), or
`isz.bench.nn.planner_speed` (the network planner, one decision), or a `PUCTBatch` run with
a numpy evaluator (the compiled PUCT kernels without torch; ``kernel_us_per_simulation``
times the ``descend`` and ``expand`` calls alone). Every row is measured in both
workers back to back, in alternating order, so a change of the machine's load touches
both; compare the ratios of paired rows. Both workers are warmed up (numba compiled or
loaded from cache) before anything is recorded. BLAS runs on one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

SEARCH_ROWS = [(game, kind, agent, iterations, reps)
               for game, kind in (("tricks", "first decision"), ("oh_hell", "first card play"))
               for agent in ("so_ismcts", "mo_ismcts", "puct_ismcts")
               for iterations, reps in ((1000, 15), (4000, 7))]


def calls() -> list[dict]:
    """The rows of one repeat: rollout search, network planner, PUCT batch."""
    out = [{"fn": "search", "args": [g, a, k, it, reps]} for g, k, a, it, reps in SEARCH_ROWS]
    for game in ("tricks", "oh_hell"):
        out += [{"fn": "planner", "args": [game, 1, 256]},
                {"fn": "planner", "args": [game, 16, 256]},
                {"fn": "planner", "args": [game, 16, 1000],
                 "kwargs": {"expand_after": 16, "below_threshold": "search"}},
                {"fn": "batch", "args": [game, 1, 1, 256, 5]},
                {"fn": "batch", "args": [game, 1, 16, 256, 5]},
                {"fn": "batch", "args": [game, 64, 1, 32, 3]}]
    return out


class NumpyEval:
    """Fixed random projections of the tensor as priors and values (no torch)."""

    def __init__(self, game):
        r = np.random.default_rng(3)
        self.wp = r.standard_normal((game.tensor_size, game.num_actions)).astype(np.float32)
        self.wv = r.standard_normal((game.tensor_size, game.num_players)).astype(np.float32)

    def evaluate(self, tensors, masks):
        z = np.where(masks, tensors @ self.wp, -np.inf)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True), np.tanh(0.1 * (tensors @ self.wv))


def _timed(fn, spent: list[float]):
    """``fn`` that adds the seconds of each call to ``spent[0]``."""
    def call(*args):
        t0 = time.perf_counter()
        out = fn(*args)
        spent[0] += time.perf_counter() - t0
        return out
    return call


def batch_speed(game_name: str, searches: int, lanes: int, sims: int, reps: int) -> dict:
    """Median simulations/s (all searches) of `PUCTBatch.run` with `NumpyEval` at the
    planner's bench position, and the median µs a simulation spent in the kernel calls."""
    import isz
    from isz.belief import UniformBelief
    from isz.bench.search import planner_position
    from isz.search.puct_driver import PUCTBatch, PUCTConfig

    game = isz.make_game(game_name)
    view = planner_position(game)
    belief, ev = UniformBelief(game), NumpyEval(game)
    rates, kernel = [], []
    for r in range(reps + 1):  # the first one warms up
        rng = np.random.default_rng(r)
        worlds = np.stack([belief.sample_many(view, sims, rng) for _ in range(searches)])
        batch = PUCTBatch(game, PUCTConfig(), worlds, [view.player] * searches, r, lanes=lanes)
        spent = [0.0]
        batch.descend, batch.expand = _timed(batch.descend, spent), _timed(batch.expand, spent)
        t = time.perf_counter()
        batch.run(ev, sims)
        if r:
            rates.append(searches * sims / (time.perf_counter() - t))
            kernel.append(spent[0] / (searches * sims) * 1e6)
    return {"bench": "puct_batch_speed", "game": game_name, "searches": searches,
            "lanes": lanes, "iterations": sims, "metric": "simulations_per_s",
            "value": round(statistics.median(rates)), "min": round(min(rates)),
            "max": round(max(rates)),
            "kernel_us_per_simulation": round(statistics.median(kernel), 3)}


def worker() -> None:
    """Answer JSON calls on stdin with JSON rows on stdout (this checkout's isz)."""
    from isz.bench.nn import planner_speed
    from isz.bench.search import search_speed

    for line in sys.stdin:
        c = json.loads(line)
        if c["fn"] == "search":
            row = search_speed(*c["args"])
        elif c["fn"] == "batch":
            row = batch_speed(*c["args"])
        else:
            row = planner_speed(*c["args"], **c.get("kwargs", {}))
        print(json.dumps(row), flush=True)


def _label(r: dict) -> tuple[str, str, str]:
    if r["bench"] == "search_speed":
        return r["game"], r["agent"], f'{r["iterations"]:,} iterations'
    if r["bench"] == "puct_batch_speed":
        return (r["game"], "PUCTBatch, numpy evaluator",
                f'{r["searches"]} search(es), lanes {r["lanes"]}, {r["iterations"]} sims')
    extra = f', expand_after {r["expand_after"]}, {r["below_threshold"]}' \
        if r["expand_after"] > 1 else ""
    return r["game"], "planner (network)", f'lanes {r["lanes"]}, {r["iterations"]} sims{extra}'


def summary(path: str) -> str:
    """A markdown table: per row, the median rates and the median (quartiles) of the
    paired ratios after / before; kernel rows from ``kernel_us_per_simulation``."""
    rates: dict = {}
    for line in open(path):
        r = json.loads(line)
        key = _label(r)
        rates.setdefault(key, {}).setdefault(r["checkout"], {})[r["repeat"]] = r["value"]
        if "kernel_us_per_simulation" in r:
            k2 = (key[0], "PUCT kernel calls (descend + expand)", key[2])
            rates.setdefault(k2, {}).setdefault(r["checkout"], {})[r["repeat"]] = \
                1e6 / r["kernel_us_per_simulation"]
    lines = ["| game | what | row | before /s | after /s | after / before, median "
             "(quartiles) of pairs |", "|---|---|---|---|---|---|"]
    for (game, what, row), d in rates.items():
        b, a = d["before"], d["after"]
        pairs = sorted(a[i] / b[i] for i in b if i in a)
        q1, q3 = pairs[len(pairs) // 4], pairs[(3 * len(pairs)) // 4]
        lines.append(f"| {game} | {what} | {row} | {statistics.median(b.values()):,.0f} | "
                     f"{statistics.median(a.values()):,.0f} | {statistics.median(pairs):.2f} "
                     f"({q1:.2f}-{q3:.2f}) |")
    return "\n".join(lines)


def _commit(root: Path) -> str:
    return subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], text=True,
                          capture_output=True, check=True).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="the other checkout (with its .venv)")
    ap.add_argument("--after", default=".", help="this checkout by default")
    ap.add_argument("--repeats", type=int, default=16)
    ap.add_argument("--out", required=True, help="JSON lines are appended here")
    ap.add_argument("--summary", action="store_true",
                    help="print the table of ratios of the rows in --out and stop")
    a = ap.parse_args()
    if a.summary:
        print(summary(a.out))
        return
    if not a.before:
        ap.error("--before is required to measure")
    roots = {"before": Path(a.before).resolve(), "after": Path(a.after).resolve()}
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    procs = {name: subprocess.Popen([str(root / ".venv/bin/python"), str(Path(__file__).resolve()),
                                     "--worker"], cwd=root, env=env, text=True,
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE)
             for name, root in roots.items()}
    commits = {name: _commit(root) for name, root in roots.items()}

    def row(name: str, c: dict) -> dict:
        procs[name].stdin.write(json.dumps(c) + "\n")
        procs[name].stdin.flush()
        return json.loads(procs[name].stdout.readline())

    todo = calls()
    for c in todo:  # compile or load the kernels, warm up: not recorded
        for name in roots:
            row(name, c)
    with open(a.out, "a") as out:
        for rep in range(a.repeats):
            for i, c in enumerate(todo):
                for name in ("before", "after") if (rep + i) % 2 == 0 else ("after", "before"):
                    r = row(name, c)
                    r.update(checkout=name, commit=commits[name], repeat=rep)
                    out.write(json.dumps(r) + "\n")
                    out.flush()
            print(f"repeat {rep + 1}/{a.repeats}", file=sys.stderr, flush=True)
    for p in procs.values():
        p.stdin.close()
        p.wait()


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main()
