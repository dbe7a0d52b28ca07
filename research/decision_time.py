"""Does a trained planner keep its time a move? A checkpoint's planner (its recorded
settings) plays ``--games`` games against ``--baseline`` at ``--time`` seconds a move,
in one process, game ``g`` being deal ``g`` of seed ``--seed`` in rotation ``g`` (as a
match seeds them, `isz.evaluation.play.play_game`); every planner decision is timed on
the wall clock. Prints and writes (JSON) the mean, 99th percentile and largest time a
decision and the mean simulations a decision, leaving out the first ``--warm`` games
(they compile); where the planner's belief is `replay`, also how many of its
``candidates`` draws each pool weighed under the deadline (mean, and the share of pools
that weighed them all).

    python -m research.decision_time runs/recipe_lost_cities_s0/checkpoints/last.pt \\
        --time 0.01 --games 30 --seed 7 --output lost_cities_decision_time.json
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import isz
from isz.belief.replay import ReplayBelief
from isz.evaluation.play import play_game
from isz.fs import write_json_atomic


class Timed:
    """``agent`` with each decision's wall seconds and simulations appended to ``times``
    and ``sims``; everything else is the agent's."""

    def __init__(self, agent):
        self.agent, self.times, self.sims = agent, [], []

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def act(self, view, rng):
        t = time.perf_counter()
        action = self.agent.act(view, rng)
        self.times.append(time.perf_counter() - t)
        self.sims.append(self.agent.last_simulations)
        return action


def count_pool_draws(agent) -> list[int] | None:
    """Where ``agent.belief`` is `replay`: a list that each pool's draws weighed (the sum
    of its counts) are appended to; else None."""
    belief = getattr(agent, "belief", None)
    if not isinstance(belief, ReplayBelief):
        return None
    draws, weigh = [], belief._weigh

    def counted(view, rng, deadline):
        out = weigh(view, rng, deadline)
        draws.append(int(out[1].sum()))
        return out

    belief._weigh = counted  # on this instance only
    return draws


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
    planner = Timed(isz.load_planner(a.checkpoint, time_budget=a.time))
    draws = count_pool_draws(planner.agent)
    game = planner.game
    agents = [planner] + [isz.make_agent(a.baseline, game, time_budget=a.time)
                          for _ in range(game.num_players - 1)]
    for g in range(a.games):
        if g == a.warm:
            planner.times.clear(), planner.sims.clear()
            if draws is not None:
                draws.clear()
        play_game(game, agents, a.seed, g, g % game.num_players)
    t, sims = np.array(planner.times), np.array(planner.sims)
    out = {"checkpoint": a.checkpoint, "baseline": a.baseline, "time": a.time,
           "games": a.games, "warm": a.warm, "seed": a.seed, "decisions": len(t),
           "mean_s": round(float(t.mean()), 5), "p99_s": round(float(np.percentile(t, 99)), 5),
           "max_s": round(float(t.max()), 5), "simulations": round(float(sims.mean()), 1)}
    if draws:
        d = np.array(draws)
        out |= {"pools": len(d), "pool_draws": round(float(d.mean()), 1),
                "pools_whole": round(float(np.mean(d == planner.agent.belief.candidates)), 3)}
    print(" ".join(f"{k}={v}" for k, v in out.items()))
    if a.output:
        write_json_atomic(a.output, out)
    return out


if __name__ == "__main__":
    main()
