"""PROTOTYPE: so_ismcts with world-value leaves against plain so_ismcts at equal time.

    python -m research.world_value.match --game oh_hell --weights wv.npz --time 0.02
"""

from __future__ import annotations

import argparse
import json

import numpy as np

import isz
from isz.agents.search_agents import SOISMCTSAgent
from isz.evaluation.arena import match
from isz.types import seed_from
from research.world_value.so_value import so_value_search


class ValueSO(SOISMCTSAgent):
    name = "so_ismcts"

    def __init__(self, game, weights, leaf_mix, **knobs):
        super().__init__(game, **knobs)
        self.weights, self.leaf_mix = weights, leaf_mix

    def _search(self, view, rng):
        tree = so_value_search(self.game, self._sampler(view, rng), view.player, self.budget,
                               c=self.c, seed=seed_from(rng), weights=self.weights,
                               leaf_mix=self.leaf_mix)
        return tree.stats(0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="oh_hell")
    ap.add_argument("--belief", default="voids")
    ap.add_argument("--weights", required=True)
    ap.add_argument("--leaf_mix", type=float, default=0.0)
    ap.add_argument("--time", type=float, default=0.02)
    ap.add_argument("--c", type=float, default=0.7)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    game = isz.make_game(a.game)
    z = np.load(a.weights)
    w = tuple(z[f"arr_{i}"] for i in range(6))
    budget = {"time_budget": a.time, "iterations": None}
    agents = [ValueSO(game, w, a.leaf_mix, belief=a.belief, c=a.c, **budget)]
    for _ in range(game.num_players - 1):
        agents.append(isz.make_agent("so_ismcts", game, belief=a.belief, **budget))
    r = match(game, agents, a.deals, a.seed, workers=a.workers, progress=False)
    print(r.table())
    print(json.dumps({"game": a.game, "time": a.time, "leaf_mix": a.leaf_mix, "c": a.c,
                      "weights": a.weights, **r.to_dict()}))


if __name__ == "__main__":
    main()
