"""Each agent's moves at every information state of a small game: where do two
planners (or a planner and rollout search) choose differently?

    python -m research.moves --game kuhn_poker --time 0.01 --repeats 5 \
        --agent s0=runs/def_kuhn_s0/checkpoints/last.pt --agent so_ismcts

An ``--agent`` is ``LABEL=CHECKPOINT`` (its planner, recorded settings) or a registered
agent's name. Every information state of the acting seats (from the game's enumerated
histories) is asked ``--repeats`` times, each with its own generator seed; one line a
state: its view data and each agent's moves as action names joined by ``/``
(docs/results/poker_recipe.md, Kuhn poker).
"""

from __future__ import annotations

import argparse

import numpy as np

import isz
from isz.games.base import State
from isz.games.histories import enumerate_histories


def _agent(spec: str, game, seconds: float):
    label, _, path = spec.partition("=")
    if path:
        return label, isz.load_planner(path, game, device="cpu", time_budget=seconds)
    return label, isz.make_agent(label, game, time_budget=seconds)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--agent", action="append", required=True)
    ap.add_argument("--time", type=float, default=0.01, help="seconds a move")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--max-histories", type=int, default=50_000)
    a = ap.parse_args(argv)
    game = isz.make_game(a.game)
    agents = [_agent(s, game, a.time) for s in a.agent]
    table = enumerate_histories(game, a.max_histories)
    views = {}
    for s, p in zip(table.states, table.player, strict=True):
        if p >= 0:
            v = State(game, s.copy()).view(int(p))
            views.setdefault(v.key, v)
    for key in sorted(views, key=lambda k: (len(k[1]), k)):
        v = views[key]
        cells = [f"{label}: " + "/".join(game.action_to_string(ag.act(v, np.random.default_rng(i)),
                                                              v.player)
                                         for i in range(a.repeats))
                 for label, ag in agents]
        print(f"seat {v.player} {v.data}  " + "  ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
