"""Does a trained planner keep its time a move? A checkpoint's planner (its recorded
settings) plays ``--games`` games against ``--baseline`` at ``--time`` seconds a move, in
one process, seats rotating; every planner decision is timed on the wall clock. Prints
and writes (JSON) the mean, 99th percentile and largest time a decision and the mean
simulations a decision, leaving out the first ``--warm`` games (they compile).

    python -m research.decision_time runs/recipe_lost_cities_s0/checkpoints/last.pt \\
        --time 0.01 --games 30 --seed 7 --output lost_cities_decision_time.json
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import isz
from isz.fs import write_json_atomic


def play(planner, other, games: int, warm: int, rng: np.random.Generator) -> tuple:
    """(seconds float[D], simulations int[D]) of the planner's decisions after ``warm``
    games; the planner sits in seat ``g % num_players`` of game ``g``."""
    game, times, sims = planner.game, [], []
    for g in range(games):
        state, seat = game.new_initial_state(), g % game.num_players
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            view = state.view(state.current_player())
            if view.player != seat:
                state.apply_action(other.act(view, rng))
                continue
            t = time.perf_counter()
            state.apply_action(planner.act(view, rng))
            if g >= warm:
                times.append(time.perf_counter() - t)
                sims.append(planner.last_simulations)
    return np.array(times), np.array(sims)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--baseline", default="so_ismcts")
    ap.add_argument("--time", type=float, default=0.01)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--warm", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--output")
    a = ap.parse_args(argv)
    if a.games <= a.warm:
        ap.error(f"--games must exceed --warm ({a.warm}), got {a.games}")
    planner = isz.load_planner(a.checkpoint, time_budget=a.time)
    other = isz.make_agent(a.baseline, planner.game, time_budget=a.time)
    t, sims = play(planner, other, a.games, a.warm, np.random.default_rng(a.seed))
    out = {"checkpoint": a.checkpoint, "baseline": a.baseline, "time": a.time,
           "games": a.games, "warm": a.warm, "seed": a.seed, "decisions": len(t),
           "mean_s": round(float(t.mean()), 5), "p99_s": round(float(np.percentile(t, 99)), 5),
           "max_s": round(float(t.max()), 5), "simulations": round(float(sims.mean()), 1)}
    print(" ".join(f"{k}={v}" for k, v in out.items()))
    if a.output:
        write_json_atomic(a.output, out)
    return out


if __name__ == "__main__":
    main()
