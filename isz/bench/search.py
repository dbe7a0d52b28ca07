"""Speed measurements behind ``isz-bench``: JSON-able rows, medians of reps.

Positions are fixed by a seed so that runs compare like with like: the first
decision of a dealt game, or (trick-taking games with a bid) the first card
play after random bids.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

import isz
from isz.games.base import Game, State


def _advance(state: State, rng: np.random.Generator, stop) -> State:
    """Play chance and random actions until ``stop(state)`` holds at a decision node."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        if stop(state):
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    raise RuntimeError("no such position")


def position(game: Game, kind: str = "first decision", seed: int = 0) -> State:
    """'first decision', or 'first card play' (the first move that plays a card)."""
    rng = np.random.default_rng(seed)
    if kind == "first decision":
        return _advance(game.new_initial_state(), rng, lambda s: True)
    if kind == "first card play":
        cards = game.params.get("suits", 0) * game.params.get("ranks", 0)
        return _advance(game.new_initial_state(), rng,
                        lambda s: max(s.legal_actions()) < cards and len(s.legal_actions()) > 1)
    raise isz.IszError(f"unknown position {kind!r}; allowed: first decision, first card play")


PLANNER_POSITIONS = {"oh_hell": "first card play"}


def planner_position(game: Game, seed: int = 0):
    """The view of the bench position of ``game`` (first card play in Oh Hell)."""
    state = position(game, PLANNER_POSITIONS.get(game.label, "first decision"), seed)
    return state.view(state.current_player())


def search_speed(game_name: str, agent_name: str, kind: str, iterations: int = 1000,
                 reps: int = 5, seed: int = 0, knobs: dict | None = None) -> dict:
    """Median iterations/s of one decision of ``agent_name`` (with ``knobs``) at a fixed
    position."""
    game = isz.make_game(game_name)
    state = position(game, kind, seed)
    agent = isz.make_agent(agent_name, game, iterations=iterations, **(knobs or {}))
    p = state.current_player()
    rng = np.random.default_rng(seed)

    def decide():
        if agent.cheats:
            return agent.act_cheating(state.clone(), rng)
        return agent.act(state.view(p), rng)

    decide()  # compile / warm up
    rates = []
    for _ in range(reps):
        t = time.perf_counter()
        decide()
        rates.append(iterations / (time.perf_counter() - t))
    return {"bench": "search_speed", "impl": "isz", "game": game_name, "position": kind,
            "agent": agent_name, "iterations": iterations, "metric": "iterations_per_s",
            "value": round(statistics.median(rates)), "min": round(min(rates)),
            "max": round(max(rates))}


def arena_speed(game_name: str, agents: list[str], deals: int, iterations: int,
                seed: int = 0) -> dict:
    """Games/s of a small `match` (every seat rotation of ``deals`` deals)."""
    from isz.evaluation.arena import match

    game = isz.make_game(game_name)
    built = [isz.make_agent(a, game, **({"iterations": iterations}
                                        if "iterations" in isz.agent_knobs(a) else {}))
             for a in agents]
    match(game, built, deals=1, seed=seed, progress=False)  # compile / warm up
    res = match(game, built, deals=deals, seed=seed, progress=False)
    d = res.to_dict()
    return {"bench": "arena", "impl": "isz", "game": game_name, "agents": agents,
            "iterations": iterations, "deals": deals, "games": d["games"],
            "metric": "games_per_s", "value": round(d["games_per_s"], 2)}


def leaf_rows(games: list[tuple[str, str]], iterations: int, reps: int) -> list[dict]:
    """so_ismcts with the random playout (``leaf=playout``) and with a fitted playout
    (``leaf=policy``: the game's move features scored at every move of the playout) at
    the same position, side by side: what a fitted playout costs an iteration. The
    weights are small and fixed; the cost does not depend on their values."""
    from isz.search.playout import num_playout_weights

    rows = []
    for game_name, kind in games:
        f = num_playout_weights(isz.make_game(game_name))
        for knobs in ({"leaf": "playout"}, {"leaf": "policy", "playout_weights": [0.1] * f}):
            row = search_speed(game_name, "so_ismcts", kind, iterations, reps, knobs=knobs)
            rows.append({**row, "leaf": knobs["leaf"]})
    return rows
