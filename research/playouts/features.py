"""Are a game's later move features worth their place? The first F_OLD and all F features
fitted to the same self-play games of a checkpoint's planner.

The trick games describe a move by 24 numbers (`isz.games.tricks_features`: the card
and the bid) and, since the hand block, 24 more (the card against the seat's own hand
and the world's other hands). This tool lets the checkpoint's planner play ``--games``
games against itself (deal seed ``--seed``) and ``--test-games`` more (seed ``--seed``
+ 1), fits the playout on the first ``--old`` features and on all of them, judges both
on the held-out games (card plays with a choice apart as well), and writes both weight
vectors (6 decimals: what a seat knob ``playout_weights=[...]`` takes) to ``--output``:

    python -m research.playouts.features runs/oh_hell/checkpoints/last.pt --games 500 \\
        --test-games 150 --seed 11 --output runs/playouts/features_s0.json

The match is then `research.head_to_head` with two seats of the same checkpoint, one
``playout_weights`` each.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from isz.agents.planner import load_planner
from isz.fs import write_json_atomic
from isz.games.tricks_features import F_CARD, F_OLD
from isz.nn.checkpoint import checkpoint_game, load_checkpoint
from isz.progress import Progress
from isz.search.playout import num_playout_weights
from isz.training.playout_fit import MoveRows, fit, judge, record_moves


def prefix(rows: MoveRows, k: int) -> MoveRows:
    """The rows with their first ``k`` features only."""
    return MoveRows(np.ascontiguousarray(rows.feats[:, :, :k]), rows.mask, rows.target)


def choices(rows: MoveRows) -> MoveRows:
    """The card plays with more than one legal move (no bid feature set: the trick
    features ``F_CARD:F_OLD``)."""
    bids = np.abs(rows.feats[:, :, F_CARD:F_OLD]).sum((1, 2))
    keep = (rows.mask.sum(1) > 1) & (bids == 0)
    return MoveRows(rows.feats[keep], rows.mask[keep], rows.target[keep])


def compare(path: str, games: int, test_games: int, seed: int, old: int) -> dict:
    """``{"old": {...}, "all": {...}}``: each fit's weights and held-out figures."""
    game = checkpoint_game(load_checkpoint(path))
    agent = load_planner(path, game, device="cpu")
    bar = Progress("self-play", games + test_games, "games")
    train = record_moves(agent, game, games, np.random.default_rng(seed), bar.update)
    test = record_moves(agent, game, test_games, np.random.default_rng(seed + 1), bar.update)
    bar.close()
    out = {"checkpoint": path, "games": games, "test_games": test_games, "seed": seed,
           "rows": len(train)}
    for name, k in (("old", old), ("all", num_playout_weights(game))):
        w = fit(prefix(train, k))
        out[name] = {"features": k, "weights": [round(float(x), 6) for x in w],
                     "held_out": judge(prefix(test, k), w),
                     "held_out_card_choices": judge(choices(prefix(test, k)), w)}
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--test-games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--old", type=int, default=F_OLD, help="the earlier feature count")
    ap.add_argument("--output", required=True)
    a = ap.parse_args(argv)
    result = compare(a.checkpoint, a.games, a.test_games, a.seed, a.old)
    write_json_atomic(Path(a.output), result)
    for name in ("old", "all"):
        r = result[name]
        print(f"{name} ({r['features']} features): held-out nll {r['held_out']['nll']:.4f} "
              f"(uniform {r['held_out']['uniform_nll']:.4f}), card choices "
              f"{r['held_out_card_choices']['nll']:.4f} "
              f"(uniform {r['held_out_card_choices']['uniform_nll']:.4f})")
    print(json.dumps({k: v for k, v in result.items() if k not in ("old", "all")}))
    return result


if __name__ == "__main__":
    main()
