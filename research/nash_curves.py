"""Exploitability against work done: training runs next to OpenSpiel's CFR.

    python -m research.nash_curves --run "kuhn_nash=runs/kuhn_nash_s*" \\
        --run "magnet=runs/kuhn_magnet_s*" --output docs/results/nash/kuhn_nash_curves \\
        --png docs/results/nash/kuhn_nash_curves.png

Each ``--run LABEL=GLOB`` names the run folders of one recipe (one per training
seed; ``LABEL=GLOB#average_policy`` or ``#average``: the curve of that network the runs
evaluated, ``eval/average_policy_exploitability`` ...); their ``metrics.jsonl``
give, at every evaluated iteration, the exact exploitability of the planner
(``eval/exploitability``) and of the raw network (``eval/exploitability_net``)
against the positions generated so far (searched decisions, ``positions``) and the
wall seconds of self-play and learning (``work_s``; evaluation excluded). Seeds are
aligned by iteration: the curve is their mean, with the minimum and maximum.

CFR (``pyspiel.CFRSolver``, OpenSpiel's C++ vanilla CFR, alternating updates):
the exploitability of its average policy (and of its current policy, CFR's own
last iterate) after each iteration, against positions = iterations x 2 x the
game's decision histories (one walk of the tree per player per iteration) and
its wall seconds on this machine.

``--include JSON`` adds every run curve of an earlier ``OUTPUT.json`` (same game) as it
is, without its run folders (``JSON#LABEL``: only the curve with that label);
``--cfr-from JSON`` takes that file's CFR curve instead of running CFR again (its wall
seconds are those of the machine that ran it).

``--average-curve LABEL=GLOB`` (with ``--average-from S``): for run folders with every
iteration checkpointed (``iter-<n>.pt``), the raw network with the mean of the weights of
iterations S..N (what ``trainer.average_from=S`` keeps, `isz.nn.average`), at every
evaluated iteration N >= S, its exact exploitability against the run's positions and
work seconds at N: a network-only curve (drawn dotted, no planner).

Writes ``OUTPUT.json`` (every curve) and ``OUTPUT.csv`` (one row per point);
``--png`` draws both panels (log-log) with matplotlib.
"""

from __future__ import annotations

import argparse
import csv
import glob
import json
import sys
import time
from pathlib import Path

import numpy as np

from isz.training.logging import METRICS, read_metrics
from isz.types import IszError

KEYS = {"planner": "eval/exploitability", "net": "eval/exploitability_net"}
PRODUCTS = ("average", "average_policy")  # a run's other evaluated networks (metrics prefix)


def run_curves(label: str, pattern: str, product: str = "") -> dict:
    """Mean/min/max over the seeds (run folders matching ``pattern``) at every iteration
    all of them evaluated. ``product``: "" (the run's network), or one of `PRODUCTS`
    (``average.pt``'s or ``average_policy.pt``'s evaluations, ``eval/<product>_...``)."""
    dirs = sorted(d for d in glob.glob(pattern) if (Path(d) / METRICS).is_file())
    if not dirs:
        raise IszError(f"--run {label}={pattern}: no run folder with a {METRICS}")
    keys = {who: k.replace("eval/", f"eval/{product}_") if product else k
            for who, k in KEYS.items()}
    per_seed = []
    for d in dirs:
        rows = {r["iteration"]: r for r in read_metrics(Path(d) / METRICS)
                if keys["planner"] in r}
        per_seed.append(rows)
    if not all(per_seed):
        raise IszError(f"--run {label}={pattern}: a run has no {keys['planner']!r} in its "
                       f"{METRICS}")
    its = sorted(set.intersection(*(set(r) for r in per_seed)))
    out = {"label": label, "runs": dirs, "iteration": its}
    for axis in ("positions", "work_s", "games"):
        out[axis] = [float(np.mean([r[i][axis] for r in per_seed])) for i in its]
    for who, key in keys.items():
        vals = np.array([[r[i].get(key, np.nan) for i in its] for r in per_seed])
        out[who] = {"mean": vals.mean(0).tolist(), "min": vals.min(0).tolist(),
                    "max": vals.max(0).tolist(), "seeds": vals.tolist()}
    return out


def average_curve(label: str, pattern: str, start: int) -> dict:
    """Exploitability of the raw network with the weights averaged over iterations
    ``start``..N, at every iteration N >= ``start`` that all the runs evaluated."""
    from isz.evaluation.exploitability import exploitability, game_tree
    from isz.nn.average import accumulate
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint, load_model
    from research.average_checkpoints import numbered
    from research.iterate_averages import network_policies

    base = run_curves(label, pattern)
    its = [i for i in base["iteration"] if i >= start]
    if not its:
        raise IszError(f"--average-curve {label}: no evaluated iteration >= {start}")
    vals = []
    for d in base["runs"]:
        ck = Path(d) / "checkpoints"
        found = numbered(ck)
        missing = [i for i in range(start, its[-1] + 1) if i not in found]
        if missing:
            raise IszError(f"{ck}: iterations {missing[:10]} have no iter-<n>.pt")
        game = checkpoint_game(load_checkpoint(ck / "last.pt"))
        tree = game_tree(game)
        index = {v.key: k for k, v in enumerate(tree.views)}
        avg, row = None, []
        for n, i in enumerate(range(start, its[-1] + 1), start=1):
            model, _ = load_model(found[i], game)
            avg = accumulate(avg, model, n)
            if i in its:
                p = network_policies(avg, tree.views, game)
                e = exploitability(game, lambda v, p=p, ix=index: p[ix[v.key]])
                row.append(e.exploitability)
        vals.append(row)
    keep = [base["iteration"].index(i) for i in its]
    out = {"label": label, "runs": base["runs"], "iteration": its, "average_from": start,
           "planner": None}
    for axis in ("positions", "work_s", "games"):
        out[axis] = [base[axis][k] for k in keep]
    v = np.array(vals)
    out["net"] = {"mean": v.mean(0).tolist(), "min": v.min(0).tolist(),
                  "max": v.max(0).tolist(), "seeds": v.tolist()}
    return out


def cfr_curve(game_name: str, iterations: int) -> dict:
    """OpenSpiel CFR's exploitability (average and current policy) per iteration."""
    import pyspiel

    from isz.evaluation.exploitability import game_tree
    from isz.games.registry import make_game

    tree = game_tree(make_game(game_name))
    decisions = sum(p >= 0 for p in tree.player)
    game = pyspiel.load_game(game_name)
    solver = pyspiel.CFRSolver(game)
    marks = sorted(set(np.unique(np.geomspace(1, iterations, 60).astype(int)).tolist()))
    out = {"label": "CFR (OpenSpiel)", "iteration": [], "positions": [], "work_s": [],
           "average": [], "current": [], "decision_histories": decisions}
    spent, done = 0.0, 0
    for m in marks:
        t0 = time.perf_counter()
        while done < m:
            solver.evaluate_and_update_policy()
            done += 1
        spent += time.perf_counter() - t0  # exploitability evaluation not counted
        out["iteration"].append(m)
        out["positions"].append(2 * decisions * m)
        out["work_s"].append(spent)
        out["average"].append(pyspiel.exploitability(game, solver.average_policy()))
        out["current"].append(pyspiel.exploitability(game, solver.current_policy()))
    return out


def write_csv(path: Path, runs: list[dict], cfr: dict) -> None:
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["curve", "iteration", "positions", "work_s", "exploitability_mean",
                    "exploitability_min", "exploitability_max"])
        for r in runs:
            for who in KEYS:
                if r.get(who) is None:
                    continue
                for i, it in enumerate(r["iteration"]):
                    w.writerow([f"{r['label']} ({who})", it, r["positions"][i],
                                f"{r['work_s'][i]:.3f}", f"{r[who]['mean'][i]:.6f}",
                                f"{r[who]['min'][i]:.6f}", f"{r[who]['max'][i]:.6f}"])
        for who in ("average", "current"):
            for i, it in enumerate(cfr["iteration"]):
                v = f"{cfr[who][i]:.6f}"
                w.writerow([f"CFR ({who} policy)", it, cfr["positions"][i],
                            f"{cfr['work_s'][i]:.6f}", v, v, v])


CFR_COLOR = "0.25"
AXES = (("positions", "positions generated (searched decisions; CFR: 2 x decision histories "
         "per iteration)"),
        ("work_s", "wall seconds (self-play + learning; CFR: solver time)"))


def draw_png(path: Path, runs: list[dict], cfr: dict, game_name: str) -> None:
    """Both panels (log-log): each recipe's planner (solid, min-max band over its seeds)
    and raw network (dashed), CFR's average (thick) and current (thin) policy."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, panels = plt.subplots(1, 2, figsize=(14, 6.2), dpi=100)
    for ax, (axis, xlabel) in zip(panels, AXES, strict=True):
        for i, r in enumerate(runs):
            c = colors[i % len(colors)]
            band = r["planner"] or r["net"]
            ax.fill_between(r[axis], band["min"], band["max"], color=c, alpha=0.2, lw=0)
            if r["planner"] is None:  # an averaged-weights curve: raw network only
                ax.plot(r[axis], r["net"]["mean"], color=c, lw=2.5, ls="--", marker="o",
                        mfc="none", label=f"{r['label']} from it. {r['average_from']}: raw "
                        f"network, mean over {len(r['runs'])} seeds (band: min-max)")
                continue
            ax.plot(r[axis], r["planner"]["mean"], color=c, lw=2.5,
                    label=f"{r['label']}: planner mean over {len(r['runs'])} seeds "
                    "(band: min-max); dashed: raw network")
            ax.plot(r[axis], r["net"]["mean"], color=c, lw=1.5, ls="--", marker="o",
                    mfc="none")
        ax.plot(cfr[axis], cfr["average"], color=CFR_COLOR, lw=2.5,
                label="CFR (OpenSpiel): average policy (thick), current policy (thin)")
        ax.plot(cfr[axis], cfr["current"], color=CFR_COLOR, lw=1)
        ax.set(xscale="log", yscale="log", xlabel=xlabel, ylabel="exploitability",
               title=f"{game_name}: exploitability during training (NashConv / 2, chips)")
        ax.grid(alpha=0.3, which="both")
    handles, labels = panels[0].get_legend_handles_labels()
    # one column: two columns of these long labels ran past the figure's edges
    fig.legend(handles, labels, loc="lower center", ncol=1, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.02 + 0.032 * len(labels), 1, 1))
    fig.savefig(path, format="png")
    plt.close(fig)


def _earlier(path: str, game: str) -> dict:
    """An earlier OUTPUT.json of this script, checked to be of ``game``."""
    try:
        old = json.loads(Path(path).read_text())
    except (OSError, ValueError) as e:
        raise IszError(f"{path}: cannot read an earlier curves JSON ({e})") from e
    if old.get("game") != game:
        raise IszError(f"{path}: curves of {old.get('game')!r}, not --game {game}")
    for r in old["runs"]:
        r.setdefault("included_from", str(path))
    return old


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", action="append", default=[], metavar="LABEL=GLOB[#PRODUCT]",
                    help="a recipe's run folders (one per training seed); #average or "
                    "#average_policy: that network's evaluations instead of the run's")
    ap.add_argument("--include", action="append", default=[], metavar="JSON[#LABEL]",
                    help="add the run curves of an earlier OUTPUT.json (same game); "
                    "#LABEL: only the one with that label")
    ap.add_argument("--cfr-from", metavar="JSON",
                    help="take the CFR curve of an earlier OUTPUT.json (same game)")
    ap.add_argument("--average-curve", action="append", default=[], metavar="LABEL=GLOB",
                    help="raw network with weights averaged from --average-from to each "
                    "evaluated iteration (runs with every iteration checkpointed)")
    ap.add_argument("--average-from", type=int, default=10)
    ap.add_argument("--game", default="kuhn_poker", help="game of the runs (CFR's game)")
    ap.add_argument("--cfr-iterations", type=int, default=10000)
    ap.add_argument("--output", required=True, help="path without suffix: .json and .csv")
    ap.add_argument("--png", help="also draw the figure here")
    a = ap.parse_args(argv)
    try:
        if not (a.run or a.include or a.average_curve):
            raise IszError("nothing to draw: give --run, --include or --average-curve")
        runs = []
        for spec in a.include:
            path, _, only = spec.partition("#")
            old = [r for r in _earlier(path, a.game)["runs"] if not only or r["label"] == only]
            if not old:
                raise IszError(f"--include {spec}: no curve labelled {only!r}")
            runs.extend(old)
        for flag, specs in (("--run", a.run), ("--average-curve", a.average_curve)):
            for spec in specs:
                if "=" not in spec:
                    raise IszError(f"{flag} {spec!r}: expected LABEL=GLOB")
                label, pattern = spec.split("=", 1)
                pattern, _, product = pattern.partition("#")
                if product and (flag != "--run" or product not in PRODUCTS):
                    raise IszError(f"{flag} {spec!r}: #{product} is not a product of a run; "
                                   f"--run takes #{' or #'.join(PRODUCTS)}")
                runs.append(run_curves(label, pattern, product) if flag == "--run"
                            else average_curve(label, pattern, a.average_from))
        cfr = _earlier(a.cfr_from, a.game)["cfr"] if a.cfr_from \
            else cfr_curve(a.game, a.cfr_iterations)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    out = Path(a.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps({"game": a.game, "runs": runs, "cfr": cfr},
                                                   indent=1))
    write_csv(out.with_suffix(".csv"), runs, cfr)
    if a.png:
        draw_png(Path(a.png), runs, cfr, a.game)
    print(f"wrote {out.with_suffix('.json')}, {out.with_suffix('.csv')}"
          + (f", {a.png}" if a.png else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
