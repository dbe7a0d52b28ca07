"""Train a `LocationNet` on `research.location.data` files; report held-out figures.

    python -m research.location.train --train runs/location/p0_s0.npz \\
        --test runs/location/p0_s1.npz --output runs/location/net.npz

Held-out, per unseen card (one JSON line): the net's mean negative log-likelihood
of the true location and its accuracy, against the *count prior* (a card's
probability of each location in proportion to the unseen cards that location
holds, which the view shows: what a uniform deal gives, voids aside).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from isz import make_game
from isz.fs import write_json_atomic
from research.location.data import labels, log_prior
from research.location.net import LocationNet, log_probs_np, masked_nll


def tensors(game, states: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """uint8[N, T]: each position's seat's information-state tensor (0/1 entries)."""
    out = np.zeros((len(states), game.tensor_size), np.float32)
    it, kp = game.kernel.info_tensor, game.kparams
    for i in range(len(states)):
        it(states[i], kp, int(seats[i]), out[i])
    assert np.all((out == 0) | (out == 1)), "tensor entries are not 0/1"
    return out.astype(np.uint8)


def load(game, paths: list[str]):
    xs, ys, ps = [], [], []
    for p in paths:
        d = np.load(p)
        xs.append(tensors(game, d["states"], d["seats"]))
        ys.append(labels(d["states"], d["seats"], game.num_players, game.num_cards))
        ps.append(log_prior(d["states"], d["seats"], game))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(ps)


def count_prior_nll(y: np.ndarray, classes: int) -> float:
    """Mean NLL of the true location under the count prior (module docstring)."""
    counts = np.stack([(y == k).sum(1) for k in range(classes)], 1).astype(np.float64)
    p = counts / counts.sum(1, keepdims=True)
    rows, cols = np.nonzero(y >= 0)
    return float(-np.log(p[rows, y[rows, cols]]).mean())


def fit(x, y, prior, classes, width, epochs, seed, lr=1e-3, wd=1e-4, val=None):
    torch.manual_seed(seed)
    net = LocationNet(x.shape[1], y.shape[1], classes, width)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=wd)
    gen = torch.Generator().manual_seed(seed)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y.astype(np.int64))
    pt = torch.from_numpy(prior)
    for e in range(epochs):
        perm = torch.randperm(len(xt), generator=gen)
        tot = 0.0
        for i in range(0, len(xt), 512):
            idx = perm[i:i + 512]
            loss = masked_nll(net(xt[idx].float()) + pt[idx], yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        msg = f"epoch {e + 1}: train nll {tot / len(xt):.4f}"
        if val is not None:
            with torch.no_grad():
                vx, vy, vp = val
                vl = sum(float(masked_nll(net(torch.from_numpy(vx[i:i + 4096]).float())
                                          + torch.from_numpy(vp[i:i + 4096]),
                                          torch.from_numpy(vy[i:i + 4096].astype(np.int64))))
                         * len(vx[i:i + 4096]) for i in range(0, len(vx), 4096)) / len(vx)
            msg += f", held-out {vl:.4f}"
        print(msg, flush=True)
    return net


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="oh_hell")
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--test", nargs="+", required=True)
    ap.add_argument("--width", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--wd", type=float, default=1e-4)
    ap.add_argument("--output", default=None, help="the exported weights (.npz)")
    ap.add_argument("--json", default=None, help="the held-out figures as JSON")
    a = ap.parse_args(argv)
    torch.set_num_threads(2)
    game = make_game(a.game)
    t0 = time.perf_counter()
    x, y, pr = load(game, a.train)
    xv, yv, pv = load(game, a.test)
    classes = game.num_players
    net = fit(x, y, pr, classes, a.width, a.epochs, a.seed, lr=a.lr, wd=a.wd,
              val=(xv, yv, pv))
    w = net.export()
    lp = np.concatenate([log_probs_np(w, xv[i:i + 4096].astype(np.float32), game.num_cards,
                                      pv[i:i + 4096]) for i in range(0, len(xv), 4096)])
    rows, cols = np.nonzero(yv >= 0)
    true_lp = lp[rows, cols, yv[rows, cols]]
    acc = (lp[rows, cols].argmax(1) == yv[rows, cols]).mean()
    pr_lp = pv[rows, cols, yv[rows, cols]]
    row = {"game": a.game, "nll_public_prior": float(-pr_lp.mean()),
           "train_positions": len(x), "test_positions": len(xv),
           "nll_net": float(-true_lp.mean()), "nll_count_prior": count_prior_nll(yv, classes),
           "accuracy_net": float(acc), "width": a.width, "epochs": a.epochs,
           "seconds": round(time.perf_counter() - t0, 1)}
    if a.output:
        np.savez(a.output, *w)
    if a.json:
        write_json_atomic(Path(a.json), {"config": vars(a), "result": row})
    print(json.dumps(row))


if __name__ == "__main__":
    main()
