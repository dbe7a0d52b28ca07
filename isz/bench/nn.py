"""Network-side speed rows for ``isz-bench``: self-play, forward, the evaluator's cache,
training.

Self-play throughput is measured with the default network (untrained weights:
speed does not depend on them) at several lockstep batch sizes; the goal is
that batching pays (positions/s at 64 well above 1).
"""

from __future__ import annotations

import time

import numpy as np
import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.nn.device import resolve_device
from isz.nn.model import build_model
from isz.selfplay import SelfPlayConfig, play
from isz.selfplay.records import Positions
from isz.training.learner import make_optimizer, train_step
from isz.types import IszError


def selfplay_speed(game_name: str, batch: int, games: int, simulations: int,
                   device: str = "auto", seed: int = 0) -> dict:
    torch.set_num_threads(1)  # as in training: the search and the network share the cores
    game = isz.make_game(game_name)
    dev = resolve_device(device)
    torch.manual_seed(seed)
    ev = NetworkEvaluator(build_model(game), dev, cache_size=0)
    cfg = SelfPlayConfig(parallel_games=batch, simulations=simulations)
    play(game, ev, SelfPlayConfig(parallel_games=2, simulations=4), 2,
         np.random.default_rng(seed))  # compile / warm up
    _, stats = play(game, ev, cfg, games, np.random.default_rng(seed))
    s = stats.as_scalars()
    return {"bench": "selfplay", "impl": "isz", "game": game_name, "device": str(dev),
            "batch": batch, "games": games, "simulations": simulations,
            "metric": "positions_per_s", "value": round(s["positions_per_s"], 1),
            "evaluations_per_s": round(s["evaluations_per_s"]),
            "batch_fill": round(s["batch_fill"], 3)}


def forward_speed(game_name: str, batch: int, device: str = "auto", reps: int = 50) -> dict:
    torch.set_num_threads(1)
    game = isz.make_game(game_name)
    dev = resolve_device(device)
    model = build_model(game).to(dev).eval()
    x = torch.randn(batch, game.tensor_size, device=dev)
    m = torch.ones(batch, game.num_actions, dtype=torch.bool, device=dev)
    with torch.no_grad():
        model(x, m)
        if dev.type == "cuda":
            torch.cuda.synchronize()
        t = time.perf_counter()
        for _ in range(reps):
            model(x, m)
        if dev.type == "cuda":
            torch.cuda.synchronize()
    rate = batch * reps / (time.perf_counter() - t)
    return {"bench": "forward", "impl": "isz", "game": game_name, "device": str(dev),
            "batch": batch, "metric": "samples_per_s", "value": round(rate)}


def evaluate_ms(evaluator, game, rows: int = 3000, repeat: float = 0.75, reps: int = 20,
                seed: int = 0) -> float:
    """Mean ms per 1,000 rows of ``evaluator.evaluate`` (after ``clear_cache()``, which
    any `NetworkEvaluator` has) on batches of ``rows`` rows of which a share ``repeat``
    was answered just before: the cache filled with a batch, then the batch shuffled and
    the rest replaced by new rows. Seeded: every evaluator timed with one ``seed`` sees
    the same rows."""
    rng = np.random.default_rng(seed)
    seen = rng.random((rows, game.tensor_size)).astype(np.float32)
    masks = np.ones((rows, game.num_actions), dtype=np.bool_)
    total = 0.0
    for _ in range(reps):
        evaluator.clear_cache()
        evaluator.evaluate(seen, masks)
        x = seen[rng.permutation(rows)]
        new = rng.random(rows) >= repeat
        x[new] = rng.random((int(new.sum()), game.tensor_size)).astype(np.float32)
        start = time.perf_counter()
        evaluator.evaluate(x, masks)
        total += time.perf_counter() - start
    return 1000 * total / reps / (rows / 1000)


def cache_speed(game_name: str, rows: int = 3000, repeat: float = 0.75, device: str = "auto",
                reps: int = 20, seed: int = 0) -> dict:
    """`evaluate_ms` of `NetworkEvaluator` with its cache beside the network alone on the
    same rows (no cache): what looking rows up costs against what running them costs (a
    replay belief's weighing asks about three quarters of its rows again)."""
    torch.set_num_threads(1)
    game = isz.make_game(game_name)
    dev = resolve_device(device)
    torch.manual_seed(seed)
    model = build_model(game)
    ms = {name: evaluate_ms(NetworkEvaluator(model, dev, cache_size=size), game, rows,
                            repeat, reps, seed)
          for name, size in (("cache", 100_000), ("network", 0))}
    return {"bench": "evaluator_cache", "impl": "isz", "game": game_name, "device": str(dev),
            "rows": rows, "repeat": repeat, "metric": "ms_per_1000_rows",
            "value": round(ms["cache"], 3), "network_alone": round(ms["network"], 3),
            "ratio": round(ms["cache"] / ms["network"], 3)}


def train_speed(game_name: str, batch: int, device: str = "auto", steps: int = 50) -> dict:
    torch.set_num_threads(1)
    game = isz.make_game(game_name)
    dev = resolve_device(device)
    model = build_model(game).to(dev)
    opt, sched = make_optimizer(model, 1e-3, 1e-4, steps, "constant")
    rng = np.random.default_rng(0)
    masks = np.ones((batch, game.num_actions), dtype=np.bool_)
    pos = Positions(rng.standard_normal((batch, game.tensor_size)).astype(np.float32), masks,
                    masks / game.num_actions, np.zeros(batch, dtype=np.int64),
                    np.zeros((batch, game.num_players), dtype=np.float32))
    pos.policies = pos.policies.astype(np.float32)
    train_step(model, opt, sched, pos, dev, 1.0)
    t = time.perf_counter()
    for _ in range(steps):
        train_step(model, opt, sched, pos, dev, 1.0)
    return {"bench": "train", "impl": "isz", "game": game_name, "device": str(dev),
            "batch": batch, "metric": "steps_per_s",
            "value": round(steps / (time.perf_counter() - t), 1)}


PLANNER_AGENTS = ("puct_ismcts", "guided_so_ismcts")  # the network planners a row can time


def planner_speed(game_name: str, lanes: int, iterations: int = 256, reps: int = 5,
                  device: str = "auto", seed: int = 0, expand_after: int = 1,
                  leaf_mix: float = 0.0, tree: str = "mo",
                  below_threshold: str = "playout", agent: str = "puct_ismcts") -> dict:
    """Median simulations/s of one decision of the network planner (default network),
    with ``lanes`` simulations in flight per network call (1 = one leaf per call),
    at the position `search_speed` uses, so the two rows compare side by side.
    ``expand_after``, ``leaf_mix``, ``tree``, ``below_threshold``: the planner
    settings of ``agent`` ``puct_ismcts`` (``guided_so_ismcts`` takes none of them).
    The row also records the evaluator rows per simulation of the last decision
    (guided_so_ismcts: one row a decision)."""
    from isz.bench.search import planner_position

    torch.set_num_threads(1)
    game = isz.make_game(game_name)
    dev = resolve_device(device)
    torch.manual_seed(seed)
    ev = NetworkEvaluator(build_model(game), dev)
    if agent not in PLANNER_AGENTS:
        raise IszError(f"planner agent {agent!r}: expected one of {', '.join(PLANNER_AGENTS)}")
    name = agent
    if name == "guided_so_ismcts":
        agent = isz.make_agent(name, game, iterations=iterations, evaluator=ev)
    else:
        agent = isz.make_agent(name, game, iterations=iterations, lanes=lanes,
                               evaluator=ev, expand_after=expand_after, leaf_mix=leaf_mix,
                               tree=tree, below_threshold=below_threshold)
    view = planner_position(game, seed)
    agent.act(view, np.random.default_rng(seed))  # compile / warm up
    rates = []
    for r in range(reps):
        ev.clear_cache()  # every decision starts cold, as in a match
        t = time.perf_counter()
        agent.act(view, np.random.default_rng(seed + r))
        rates.append(iterations / (time.perf_counter() - t))
    if name == "puct_ismcts":
        batch = agent._search(agent.check_view(view), np.random.default_rng(seed))
        per_sim = batch.evaluations / batch.simulations
    else:
        per_sim = 1 / iterations
    return {"bench": "planner_speed", "impl": "isz", "game": game_name, "device": str(dev),
            "lanes": lanes, "iterations": iterations, "expand_after": expand_after,
            "leaf_mix": leaf_mix, "tree": tree, "below_threshold": below_threshold,
            "agent": name, "metric": "simulations_per_s",
            "value": round(float(np.median(rates))), "min": round(min(rates)),
            "max": round(max(rates)),
            "evaluations_per_simulation": round(per_sim, 4)}
