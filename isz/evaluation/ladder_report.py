"""What a ladder shows: ``ladder.json`` (`summary`), TensorBoard scalars and a PNG of
rating against training hours.

TensorBoard (``<run_dir>/tb/ladder``, a run of its own next to training's
events, rewritten whole on every ladder so each step holds the latest fit):

- ``ladder/planner``: each checkpoint's rating (step = its training iteration);
- ``ladder/planner_se``: its standard error;
- ``ladder/hours``: training hours when that checkpoint was saved;
- ``ladder/<baseline>``: each baseline's rating at every checkpoint's step (flat
  lines; the anchor's is 0).

The PNG (matplotlib, Agg backend) draws each checkpoint's rating with ±1 SE bars
against training hours (minutes for a run under half an hour; iterations where
the run recorded no time) and each
baseline as a flat line with its ±1 SE band.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

from isz.evaluation.ladder_fit import ELO, Ratings
from isz.evaluation.ladder_games import Table
from isz.evaluation.ladder_players import Checkpoint
from isz.evaluation.spec import PLANNER
from isz.fs import write_atomic

TB_FOLDER = "ladder"  # under <run_dir>/tb


def summary(head: dict, r: Ratings, baselines: dict[str, dict], checkpoints: list[Checkpoint],
            games: list[Table], connected: bool) -> dict:
    """The ``ladder.json`` payload: ``head`` (run, game, budget, deals, ...), then the
    rating method, every rated player (baselines with their ``knobs``, then the
    checkpoints) and every table (``pairings``)."""
    work = _work(games)
    players = [{"name": b, "kind": "baseline", "agent": b, "knobs": knobs}
               for b, knobs in baselines.items()]
    players += [{"name": c.name, "kind": "checkpoint", "agent": PLANNER,
                 "checkpoint_kind": c.kind, "iteration": c.iteration,
                 "generation": c.generation, "hours": c.hours, "file": c.file,
                 "sha256": c.sha256, "planner": c.planner} for c in checkpoints]
    for p in players:
        n = p["name"]
        p.update({"rating": r.rating.get(n), "se": r.se.get(n), "comparisons": r.games.get(n),
                  **work.get(n, {})})
    return {
        **head, "anchor": r.anchor,
        "rating": {"scale": "Elo: P(a beats b) = 1 / (1 + 10^((R_b - R_a) / 400))",
                   "method": "Bradley-Terry maximum likelihood (choix.ilsr_pairwise_dense) "
                             "over every game's seat pairs, ties half a win",
                   "se": f"bootstrap over deals ({r.bootstrap} resamples), SE of the "
                         f"difference to {r.anchor}",
                   "elo_per_log_strength": ELO, "connected": connected},
        "players": [p for p in players if p["rating"] is not None],
        "pairings": [_pairing(t) for t in games],
        "played_deals": sum(t.played for t in games),
    }


def _pairing(t: Table) -> dict:
    """One table's record: scores, the paired differences, each seat's utility (the
    game's own unit, e.g. chips a game, with its SE over deals: what the ratings, fitted
    on ranks, leave out where a game's returns are not a win or a loss), the work of
    each seat."""
    res = t.result
    return {"name": t.name, "players": list(t.players), "deals": res.deals,
            "games": res.games, "played_deals": t.played, "journal": t.journal.name,
            "scores": [_finite(a.score) for a in res.agents],
            "score_se": [_finite(a.score_se) for a in res.agents],
            "paired": res.paired(),
            "utilities": [_finite(a.utility) for a in res.agents],
            "utility_se": [_finite(a.utility_se) for a in res.agents],
            "seconds_per_move": [_finite(a.seconds_per_decision) for a in res.agents],
            "simulations_per_move": [_finite(a.simulations_per_decision)
                                     for a in res.agents]}


def _work(games: list[Table]) -> dict[str, dict]:
    """Each player's decisions and mean seconds and simulations a decision, over
    every table it sat at."""
    sums: dict[str, list[float]] = {}
    for t in games:
        for p, a in zip(t.players, t.result.agents, strict=True):
            if not a.decisions:
                continue
            acc = sums.setdefault(p, [0.0, 0.0, 0.0])
            acc[0] += a.decisions
            acc[1] += a.seconds_per_decision * a.decisions
            acc[2] += a.simulations_per_decision * a.decisions
    return {p: {"decisions": int(n), "seconds_per_move": sec / n,
                "simulations_per_move": sims / n} for p, (n, sec, sims) in sums.items()}


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def write_tensorboard(tb_dir: Path, ladder: dict) -> Path:
    """The ladder's scalars into ``tb_dir/ladder`` (replacing the last ladder's)."""
    from torch.utils.tensorboard import SummaryWriter

    final = Path(tb_dir) / TB_FOLDER
    tmp = Path(tb_dir) / f".{TB_FOLDER}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    writer = SummaryWriter(log_dir=str(tmp))
    baselines = [p for p in ladder["players"] if p["kind"] == "baseline"]
    for p in ladder["players"]:
        if p["kind"] != "checkpoint":
            continue
        step = p["iteration"]
        writer.add_scalar("ladder/planner", p["rating"], step)
        writer.add_scalar("ladder/planner_se", p["se"], step)
        if p["hours"] is not None:
            writer.add_scalar("ladder/hours", p["hours"], step)
        for b in baselines:
            writer.add_scalar(f"ladder/{b['name']}", b["rating"], step)
    writer.close()
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    return final


def x_axis(ckpts: list[dict]) -> tuple[list[float], str, bool]:
    """The chart's x value of each checkpoint, the axis label, and whether the axis is
    logarithmic. Training hours where every checkpoint has them (minutes for a run
    under half an hour), else iterations; logarithmic when they span 8x or more and
    neighbours are spaced more like a doubling than evenly (their median ratio 1.5 or
    more), so that generations that double (`trainer.generation_schedule=doubling`) sit
    evenly instead of crowding the left edge, and many evenly spaced ones (every 10th
    iteration of a long run) do not crowd the right edge instead."""
    by_hours = bool(ckpts) and all(p["hours"] is not None for p in ckpts)
    minutes = by_hours and max(p["hours"] for p in ckpts) < 0.5
    xs = [p["hours"] * (60 if minutes else 1) if by_hours else p["iteration"] for p in ckpts]
    label = ("training iteration" if not by_hours else
             "training minutes" if minutes else "training hours")
    log = bool(xs) and min(xs) > 0 and max(xs) >= 8 * min(xs)
    if log:
        ordered = sorted(xs)
        ratios = sorted(b / a for a, b in zip(ordered, ordered[1:], strict=False))
        log = ratios[len(ratios) // 2] >= 1.5
    return xs, label, log


def draw_png(path: Path, ladder: dict) -> Path:
    """Rating against training hours, with SE bars; baselines as flat lines."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.ticker import NullFormatter

    ckpts = [p for p in ladder["players"] if p["kind"] == "checkpoint"]
    xs, xlabel, log = x_axis(ckpts)
    fig, ax = plt.subplots(figsize=(9, 5.5), dpi=110)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, b in enumerate(p for p in ladder["players"] if p["kind"] == "baseline"):
        c = colors[(i + 1) % len(colors)]
        ax.axhline(b["rating"], color=c, lw=1.5, ls="--", label=b["name"])
        if b["se"]:
            ax.axhspan(b["rating"] - b["se"], b["rating"] + b["se"], color=c, alpha=0.12)
    if ckpts:
        ax.errorbar(xs, [p["rating"] for p in ckpts], yerr=[p["se"] for p in ckpts],
                    color=colors[0], marker="o", ms=4, capsize=3, lw=1.5,
                    label="checkpoints (±1 SE)")
        for x, p in zip(xs, ckpts, strict=True):
            ax.annotate(p["name"], (x, p["rating"]), textcoords="offset points",
                        xytext=(4, 6), fontsize=7, color="0.35")
    ax.set_xlabel(xlabel)
    if log:  # ticks at the checkpoints' own times: powers of ten say little here
        ax.set_xscale("log")
        ax.set_xticks(xs, [f"{x:.3g}" for x in xs])
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_ylabel(f"rating (Elo; {ladder['anchor']} = 0)")
    budget = ladder["budget"]
    per_move = f"{budget['time_per_move']} s a move" if budget["time_per_move"] is not None \
        else f"{budget['iterations']} simulations a move"
    ax.set_title(f"{ladder['game']['label']}: ladder at {per_move}, "
                 f"{ladder['deals']} deals a table", fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    write_atomic(path, lambda f: fig.savefig(f, format="png"), binary=True)
    plt.close(fig)
    return Path(path)
