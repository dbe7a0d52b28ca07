"""Is the fitted playout's linear softmax what holds the Oh Hell loop at its plateau?

The loop's apprentice (`isz.training.playout_fit`) scores each legal move by ``w · φ(a)``
(φ the game's move features) and is refitted to the planner's moves at every generation;
refitting pays once, not again. If a richer scorer over the same features predicted the
planner's moves much better on held-out games, the apprentice's capacity would be the
ceiling (and a compiled small network the next playout to build); if not, it is not.

Records ``--games`` + ``--test-games`` self-play games of a checkpoint's planner (its
recorded settings, as ``isz-fit-playout`` does), fits the linear scorer (the loop's own
`fit`) and small MLPs ``φ -> hidden -> 1`` over the same features (Adam, the best
epoch on a validation fifth of the training rows), and prints one JSON line per scorer:
held-out negative log-likelihood and top-1 agreement beside uniform play's.

    python -m research.playouts.capacity runs/oh_hell/checkpoints/last.pt --games 1500 \
        --test-games 300 --workers 2 --cache rows.npz
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from isz.training.playout_fit import MoveRows, fit, judge, record_chunks


def _record(path: str, games: int, seed: np.random.SeedSequence, workers: int) -> MoveRows:
    from isz.agents.planner import load_planner
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint

    game = checkpoint_game(load_checkpoint(path))
    agent = load_planner(path, game, device="cpu")
    return record_chunks(agent, game, games, seed, workers)


def _rows(args) -> tuple[MoveRows, MoveRows]:
    cache = Path(args.cache) if args.cache else None
    if cache and cache.exists():
        z = np.load(cache)
        return (MoveRows(z["f0"], z["m0"], z["t0"]), MoveRows(z["f1"], z["m1"], z["t1"]))
    train_seed, test_seed = np.random.SeedSequence(args.seed).spawn(2)
    rows = _record(args.checkpoint, args.games, train_seed, args.workers)
    test = _record(args.checkpoint, args.test_games, test_seed, args.workers)
    if cache:
        np.savez(cache, f0=rows.feats, m0=rows.mask, t0=rows.target,
                 f1=test.feats, m1=test.mask, t1=test.target)
    return rows, test


class _Scorer(torch.nn.Module):
    """A move's score from its features: ``φ -> hidden (ReLU) -> 1``, plus a linear
    skip (so the MLP starts where the linear scorer can be)."""

    def __init__(self, f: int, hidden: int):
        super().__init__()
        self.skip = torch.nn.Linear(f, 1, bias=False)
        self.body = torch.nn.Sequential(torch.nn.Linear(f, hidden), torch.nn.ReLU(),
                                        torch.nn.Linear(hidden, 1, bias=False))

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # [N, H, F] -> [N, H]
        return (self.skip(x) + self.body(x)).squeeze(-1)


def _scores(model, x, m) -> torch.Tensor:
    """[N, H]: each legal move's score, -inf past the legal ones."""
    return model(x).masked_fill(~m, float("-inf"))


def _nll(z, t) -> torch.Tensor:
    """Mean negative log-likelihood of the moves made ``t`` under scores ``z``."""
    return -torch.log_softmax(z, 1).gather(1, t[:, None]).mean()


def _fit_mlp(rows: MoveRows, hidden: int, seed: int, epochs: int = 40) -> _Scorer:
    torch.manual_seed(seed)
    x = torch.from_numpy(rows.feats).float()
    m, t = torch.from_numpy(rows.mask), torch.from_numpy(rows.target)
    n_val = len(t) // 5
    model = _Scorer(x.shape[2], hidden)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3, weight_decay=1e-5)
    gen = torch.Generator().manual_seed(seed)
    best, best_state = float("inf"), None
    for _ in range(epochs):
        for idx in torch.randperm(len(t) - n_val, generator=gen).add(n_val).split(512):
            opt.zero_grad()
            _nll(_scores(model, x[idx], m[idx]), t[idx]).backward()
            opt.step()
        with torch.no_grad():
            val = float(_nll(_scores(model, x[:n_val], m[:n_val]), t[:n_val]))
        if val < best:
            best, best_state = val, {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(best_state)
    return model


def _judge_mlp(model: _Scorer, rows: MoveRows) -> dict[str, float]:
    x = torch.from_numpy(rows.feats).float()
    m, t = torch.from_numpy(rows.mask), torch.from_numpy(rows.target)
    with torch.no_grad():
        z = _scores(model, x, m)
        nll = float(_nll(z, t))
        top1 = float((z.argmax(1) == t).float().mean())
    return {"rows": len(rows), "nll": nll, "top1": top1}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkpoint")
    p.add_argument("--games", type=int, default=1500)
    p.add_argument("--test-games", type=int, default=300)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--hidden", default="16,64")
    p.add_argument("--cache", help="an .npz of the recorded rows (written, then reused)")
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    rows, test = _rows(args)
    print(json.dumps({"recorded_rows": len(rows), "test_rows": len(test),
                      "seconds": round(time.perf_counter() - t0, 1)}), flush=True)
    w = fit(rows)
    print(json.dumps({"scorer": "linear", "params": len(w), **judge(test, w)}), flush=True)
    for h in [int(x) for x in args.hidden.split(",")]:
        model = _fit_mlp(rows, h, args.seed)
        n = sum(q.numel() for q in model.parameters())
        print(json.dumps({"scorer": f"mlp{h}", "params": n, **_judge_mlp(model, test)}),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
