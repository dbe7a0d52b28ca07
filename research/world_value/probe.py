"""How accurate is a value of the sampled world, against random playouts?

Plays self-play games of rollout so_ismcts (every seat, its own belief), keeps
the true state at every decision and the final returns z, trains a
`WorldValueNet` on the first games and reports held-out mean squared error
against z for: zero, the world-value net, and the mean of k random playouts
from the same true state (what so_ismcts's leaf would back up). One JSON line.

    python -m research.world_value.probe --game oh_hell --belief voids --games 2000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

import isz
from isz.rng import new_rng
from isz.search.playout import make_playout
from research.world_value.compiled import make_world_value


def play_games(game, n: int, iterations: int, belief: str, seed: int):
    """``n`` self-play games; returns (states int64[N, state_size], z float32[N, P],
    game index int64[N]) over every decision of every game."""
    agent = isz.make_agent("so_ismcts", game, iterations=iterations, belief=belief)
    rng = np.random.default_rng(seed)
    states, zs, gid = [], [], []
    for g in range(n):
        st = game.new_initial_state()
        agent.reset()
        first = len(states)
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(st.sample_chance(rng))
                continue
            states.append(np.array(st.data, dtype=np.int64))
            st.apply_action(agent.act(st.view(st.current_player()), rng))
        z = np.asarray(st.returns(), dtype=np.float32)
        zs.extend([z] * (len(states) - first))
        gid.extend([g] * (len(states) - first))
    return np.stack(states), np.stack(zs), np.asarray(gid)


def playout_means(game, states, k: int, seed: int) -> np.ndarray:
    """float32[N, P]: the mean return of ``k`` random playouts from each state."""
    _, playout, _ = make_playout(game.kernel)
    rng = new_rng(seed)
    la = np.zeros(game.num_actions, np.int64)
    ca = np.zeros(max(game.max_chance_outcomes, 1), np.int64)
    cp = np.zeros(len(ca))
    ret = np.zeros(game.num_players)
    out = np.zeros((len(states), game.num_players), np.float32)
    for i, s0 in enumerate(states):
        for _ in range(k):
            s = s0.copy()
            playout(s, game.kparams, rng, la, ca, cp)
            game.kernel.returns(s, game.kparams, ret)
            out[i] += ret
    return out / k


def train_net(game, x, z, width: int, epochs: int, seed: int, wd: float = 1e-4):
    from research.world_value.net import WorldValueNet
    torch.manual_seed(seed)
    net = WorldValueNet(x.shape[1], game.num_players, width)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=wd)
    xt, zt = torch.from_numpy(x), torch.from_numpy(z)
    gen = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        perm = torch.randperm(len(xt), generator=gen)
        for i in range(0, len(xt), 256):
            idx = perm[i:i + 256]
            loss = ((net(xt[idx]) - zt[idx]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return net


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="oh_hell")
    ap.add_argument("--belief", default="voids")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--held_out", type=float, default=0.15)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", default=None, help="write the net's exported weights (.npz)")
    ap.add_argument("--data", default=None, help="games cache (.npz): read if it exists")
    ap.add_argument("--target", default="z", help="z, playout, or a weight lam of z in "
                    "lam * z + (1 - lam) * playout mean")
    ap.add_argument("--target_playouts", type=int, default=16)
    ap.add_argument("--compact", action="store_true", help="compact tricks world tensor")
    ap.add_argument("--wd", type=float, default=1e-4)
    a = ap.parse_args()
    torch.set_num_threads(1)
    game = isz.make_game(a.game)
    t0 = time.perf_counter()
    if a.data and Path(a.data).exists():
        d = np.load(a.data)
        states, z, gid = d["states"], d["z"], d["gid"]
    else:
        states, z, gid = play_games(game, a.games, a.iterations, a.belief, a.seed)
        if a.data:
            np.savez(a.data, states=states, z=z, gid=gid)
    t_play = time.perf_counter() - t0
    lam = {"z": 1.0, "playout": 0.0}.get(a.target)
    lam = float(a.target) if lam is None else lam
    y = z if lam == 1.0 else lam * z + (1 - lam) * playout_means(
        game, states, a.target_playouts, a.seed + 1)
    if a.compact:
        from research.world_value import compact_world as cw
        x = np.zeros((len(states), cw.size(game)), np.float32)
        cw.features(states, game.kparams, x)
    else:
        feats, _ = make_world_value(game.kernel)
        x = np.zeros((len(states), game.num_players * game.tensor_size), np.float32)
        feats(states, game.kparams, game.num_players, x)
    test = gid >= int((gid.max() + 1) * (1 - a.held_out))
    net = train_net(game, x[~test], y[~test], a.width, a.epochs, a.seed, a.wd)
    with torch.no_grad():
        pred = net(torch.from_numpy(x[test])).numpy()
    row = {"game": a.game, "games": a.games, "positions": len(states),
           "held_out_positions": int(test.sum()), "teacher_iterations": a.iterations,
           "mse_zero": float(np.mean(z[test] ** 2)),
           "mse_world_value": float(np.mean((pred - z[test]) ** 2)),
           "mse_world_value_train": float(np.mean(
               (net(torch.from_numpy(x[~test][:5000])).detach().numpy() - z[~test][:5000]) ** 2)),
           "play_s": round(t_play, 1)}
    row["target_lam"] = lam
    row["compact"] = a.compact
    row["width"] = a.width
    row["epochs"] = a.epochs
    row["mse_world_value_vs_target"] = float(np.mean((pred - y[test]) ** 2))
    for k in (1, 8, 32):
        m = playout_means(game, states[test][:2000], k, a.seed)
        row[f"mse_playout_{k}"] = float(np.mean((m - z[test][:2000]) ** 2))
    if a.save:
        np.savez(a.save, *net.export())
    print(json.dumps(row))


if __name__ == "__main__":
    main()
