"""The average policy's own games: the network against uniformly random opponents.

NFSP's reservoir samples each information set I as often as self-play reaches it, so
iteration t's policy at I is weighted by the reach of I under *both* seats' policies
of iteration t (and chance). The average that fictitious play and CFR converge with
weights it by the acting seat's *own* reach only: the sequence-form mean of the
iterates. When the other seats play a fixed policy the same at every iteration,
their share of the reach of I is the same for every t, so the rows at I come in
proportion to own reach (Heinrich, Lanctot and Silver, 2015: fictitious self-play).
`solo_positions` plays such games: in game g seat ``g % players`` samples its moves
from the network's policy and every other seat moves uniformly at random; only the
network seat's decisions become rows, each carrying the network's policy and value
there (what ``trainer.average_policy_target=network`` stores). The network never sees
a view other than its own seat's, and the rows only feed the average network.

The games advance in lockstep, so the network sees one batch per round of moves.
"""

from __future__ import annotations

import numpy as np
import torch

from isz.games.base import State
from isz.selfplay.records import Positions
from isz.types import CHANCE, TERMINAL


@torch.no_grad()
def solo_positions(game, net, games: int, rng: np.random.Generator, device) -> Positions:
    """The network seat's rows of ``games`` games (seat ``g % num_players`` in game g)
    against uniform opponents. Rows: tensors float32[N, tensor_size], masks bool[N, A],
    policies float32[N, A] (the network's masked softmax), players int64[N] (the
    network seat), returns float32[N, P] (the network's value there, each seat's
    return in [-1, 1])."""
    k, p = game.kernel, game.kparams
    states = [game.initial_data().copy() for _ in range(games)]
    seat = np.arange(games) % game.num_players
    rows: list[tuple] = []
    buf = np.empty(game.num_actions, dtype=np.int64)
    live = list(range(games))
    while live:
        mine, masks = [], []
        still = []
        for g in live:
            d = states[g]
            cur = int(k.current_player(d, p))
            while cur == CHANCE:
                k.apply_action(d, p, State(game, d).sample_chance(rng))
                cur = int(k.current_player(d, p))
            if cur == TERMINAL:
                continue
            still.append(g)
            n = k.legal_actions(d, p, buf)
            if cur == seat[g]:
                mask = np.zeros(game.num_actions, dtype=bool)
                mask[buf[:n]] = True
                mine.append(g)
                masks.append(mask)
            else:
                k.apply_action(d, p, int(buf[int(rng.integers(n))]))
        if mine:
            rows.append(_network_moves(game, net, states, mine, seat, np.stack(masks),
                                       rng, device))
        live = still
    return Positions(*(np.concatenate(f) for f in zip(*rows, strict=True))) if rows \
        else _empty(game)


def _network_moves(game, net, states, mine, seat, masks, rng, device) -> tuple:
    """Each game in ``mine`` takes one move drawn from the network's policy; its row."""
    k, p = game.kernel, game.kparams
    x = np.zeros((len(mine), game.tensor_size), dtype=np.float32)
    for i, g in enumerate(mine):
        k.info_tensor(states[g], p, int(seat[g]), x[i])
    probs, value = net.predict(torch.from_numpy(x).to(device),
                               torch.from_numpy(masks).to(device))
    probs = probs.double().cpu().numpy() * masks  # exact zeros off the legal moves
    probs /= probs.sum(axis=1, keepdims=True)
    cum = np.cumsum(probs, axis=1)
    u = rng.random(len(mine))[:, None] * cum[:, -1:]
    acts = np.minimum((cum <= u).sum(axis=1), game.num_actions - 1)
    for i, g in enumerate(mine):
        a = int(acts[i])
        while not masks[i, a]:  # rounding at the top of the sum: the last legal move
            a -= 1
        k.apply_action(states[g], p, a)
    return (x, masks, probs.astype(np.float32), seat[mine].astype(np.int64),
            value.float().cpu().numpy())


def _empty(game) -> Positions:
    a, n = game.num_actions, game.num_players
    return Positions(np.zeros((0, game.tensor_size), np.float32), np.zeros((0, a), bool),
                     np.zeros((0, a), np.float32), np.zeros(0, np.int64),
                     np.zeros((0, n), np.float32))
