"""Offline probe: does a value head trained on these targets generalise to new games?

    python -m research.value_probe play --games 768 --seed 0 --out /tmp/oh_rollout.npz
    python -m research.value_probe fit /tmp/oh_rollout.npz --test-games 128

``play``: self-play Oh Hell (or ``--game``) with the search that training's
first ``selfplay.rollout_iterations`` use (PUCT, random-playout leaves,
uniform priors, no network; ``--checkpoint`` plays with a network instead)
and save every row with both value targets: the final return z and the root
value q (``value_target_q_rows=all``: a value-only row takes its seat's next
decision's q; rows after a seat's last decision keep z), plus its game index.

``fit``: for each variant (the value target's mix lam of q, the weight of the
other seats' value entries against the row's own, gradient steps) train a
fresh network on all but the last ``--test-games`` games and print, on the
held-out games, the mean squared
error of its own-entry value (row i, column players[i]) against z and against
q, beside the zero predictor's. One JSON line per variant. A value head that
memorises its games does worse than zero against z.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

import isz
from isz.nn import ModelConfig, build_model
from isz.search.evaluator import UniformEvaluator
from isz.search.puct_driver import PUCTConfig
from isz.selfplay import SelfPlayConfig, play


def _play(args) -> None:
    game = isz.make_game(args.game)
    if args.checkpoint:
        from isz.agents.network import NetworkEvaluator
        from isz.nn.checkpoint import load_model
        evaluator, rollouts = NetworkEvaluator(load_model(args.checkpoint, game), "cpu"), False
    else:
        evaluator, rollouts = UniformEvaluator(game.num_players), True
    cfg = SelfPlayConfig(parallel_games=64, simulations=args.simulations, temperature_moves=6,
                         belief="voids", value_target_q=1.0, value_target_q_rows="all",
                         puct=PUCTConfig(dirichlet_eps=0.25, rollouts=rollouts))
    t0 = time.perf_counter()
    pos, stats = play(game, evaluator, cfg, args.games, np.random.default_rng(args.seed))
    z = stats.final_returns
    # game index: rows of one game are contiguous and share z; a new game starts where
    # the z vector changes or a decision row follows the previous game's last row
    rows = np.arange(len(pos))
    q = pos.returns[rows, pos.players]
    np.savez_compressed(args.out, tensors=pos.tensors, masks=pos.masks, policies=pos.policies,
                        players=pos.players, z=z, q=q, games=args.games)
    print(json.dumps({"rows": len(pos), "games": stats.games,
                      "seconds": round(time.perf_counter() - t0, 1)}))


def _game_index(z: np.ndarray, players: np.ndarray, policies: np.ndarray) -> np.ndarray:
    """Approximate game id per row: a new game wherever z changes (ties between
    consecutive games with equal returns merge them, which only moves a split)."""
    change = np.any(z[1:] != z[:-1], axis=1)
    return np.concatenate([[0], np.cumsum(change)])


def _fit(args) -> None:
    d = np.load(args.data)
    game = isz.make_game(args.game)
    x, m, pl, z, q = d["tensors"], d["masks"], d["players"], d["z"], d["q"]
    gid = _game_index(z, pl, d["policies"])
    cut = np.searchsorted(gid, gid.max() + 1 - args.test_games)
    rows = np.arange(len(pl))
    z_own = z[rows, pl]
    test = slice(cut, None)
    out = {"train_rows": int(cut), "test_rows": int(len(pl) - cut),
           "zero_vs_z": float(np.mean(z_own[test] ** 2)),
           "zero_vs_q": float(np.mean(q[test] ** 2)),
           "corr_q_z": float(np.corrcoef(q[test], z_own[test])[0, 1])}
    print(json.dumps(out), flush=True)
    torch.set_num_threads(1)
    for lam in args.lam:
        for ow in args.other_weights:
            for steps in args.steps:
                torch.manual_seed(args.seed)
                net = build_model(game, ModelConfig(width=args.width, depth=2))
                opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
                target = z.astype(np.float32).copy()
                target[rows, pl] = (1 - lam) * z_own + lam * q
                rng = np.random.default_rng(args.seed)
                tx, tm, tt, tp = (torch.from_numpy(a[:cut]) for a in (x, m, target, pl))
                for _ in range(steps):
                    i = torch.from_numpy(rng.integers(0, cut, 256))
                    _, v = net(tx[i], tm[i])
                    err = (v - tt[i]) ** 2
                    own = torch.nn.functional.one_hot(tp[i], err.shape[1]).float()
                    w = own + ow * (1 - own)
                    loss = (w * err).sum() / w.sum()
                    opt.zero_grad()
                    loss.backward()
                    opt.step()
                with torch.no_grad():
                    v = net(torch.from_numpy(x[test]), torch.from_numpy(m[test]))[1].numpy()
                    vtr = net(tx[:20000], tm[:20000])[1].numpy()
                vo = v[np.arange(len(v)), pl[test]]
                vtr_o = vtr[np.arange(len(vtr)), pl[:20000]]
                mse_z = float(np.mean((vo - z_own[test]) ** 2))
                print(json.dumps({"lam": lam, "other_weight": ow, "steps": steps,
                                  "test_mse_vs_z": round(mse_z, 4),
                                  "test_mse_vs_q": round(float(np.mean((vo - q[test]) ** 2)), 4),
                                  "train_mse_vs_target": round(float(np.mean(
                                      (vtr_o - target[rows[:20000], pl[:20000]]) ** 2)), 4)}),
                      flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--game", default="oh_hell")
    p.add_argument("--games", type=int, default=768)
    p.add_argument("--simulations", type=int, default=32)
    p.add_argument("--checkpoint", default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("data")
    f.add_argument("--game", default="oh_hell")
    f.add_argument("--test-games", type=int, default=128)
    f.add_argument("--lam", type=float, nargs="+", default=[0.0, 1.0])
    f.add_argument("--other-weights", type=float, nargs="+", default=[1.0, 0.0])
    f.add_argument("--steps", type=int, nargs="+", default=[300, 1000])
    f.add_argument("--width", type=int, default=256)
    f.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    _play(args) if args.cmd == "play" else _fit(args)


if __name__ == "__main__":
    main()
