"""The network evaluator's cache before and after, on the same rows, in one process.

    git show 43f330b:isz/agents/network.py > /tmp/isz_network_before.py
    .venv/bin/python -m research.evaluator_cache_ab --before /tmp/isz_network_before.py \\
        > docs/results/speed/evaluator_cache_before_after.jsonl

One JSON line per game and batch size: ms per 1,000 rows of one ``evaluate`` call on a
batch of which a share ``--repeat`` was answered just before (`isz.bench.nn.evaluate_ms`),
for the ``NetworkEvaluator`` of the file given (``before``), today's (``today``) and
today's with its cache off (``network``: the network alone on the same rows). The three
use one network (the default shape, its weights drawn with torch seed 0) and one thread;
the batches come from one seed, so every evaluator sees the same rows.
"""

from __future__ import annotations

import argparse
import importlib.util
import json

import torch

import isz
from isz.agents.network import NetworkEvaluator
from isz.bench.nn import evaluate_ms
from isz.games import import_game_module
from isz.nn.model import build_model

GAMES = (("crazy_eights", {"players": 3}, "examples.crazy_eights"), ("tricks", {}, None))


def _load(path: str):
    spec = importlib.util.spec_from_file_location("isz_network_before", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.NetworkEvaluator


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="an older isz/agents/network.py")
    ap.add_argument("--rows", default="64,3000", help="comma list of batch sizes")
    ap.add_argument("--repeat", type=float, default=0.75)
    ap.add_argument("--reps", type=int, default=100)
    a = ap.parse_args(argv)
    before = _load(a.before)
    torch.set_num_threads(1)
    for name, params, module in GAMES:
        if module:
            import_game_module(module)
        game = isz.make_game(name, **params)
        torch.manual_seed(0)
        model = build_model(game)
        for rows in map(int, a.rows.split(",")):
            ms = {label: round(evaluate_ms(cls(model, "cpu", cache_size=cache), game, rows,
                                           a.repeat, a.reps), 3)
                  for label, cls, cache in (("before", before, 100_000),
                                            ("today", NetworkEvaluator, 100_000),
                                            ("network", NetworkEvaluator, 0))}
            print(json.dumps({"game": name, "params": params, "rows": rows,
                              "repeat": a.repeat, "ms_per_1000_rows": ms}), flush=True)


if __name__ == "__main__":
    main()
