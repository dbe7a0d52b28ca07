"""Exact on-policy quantities of Leduc poker under a network's policy (both seats).

Per decision information set: the exact action values, the exact mirror step,
how often a game reaches the set, and the exact value of every view seen at a
decision, by one walk over the enumerated game tree (`isz.games.histories`).
`research.leduc_target_error` compares the search's targets with them.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from isz.agents.network import NetworkEvaluator
from isz.games.base import State
from isz.games.histories import enumerate_histories
from isz.nn import ModelConfig, build_model
from isz.nn.checkpoint import checkpoint_game, load_checkpoint, load_model
from isz.types import CHANCE, TERMINAL, IszError


@dataclasses.dataclass
class Exact:
    """Exact on-policy quantities, one row per decision information set (K of them).

    views: the K views; probs, q, step: float64[K, A] (P, q*, the exact mirror
    step; 0 off the legal moves); legal: bool[K, A]; value: float64[K] (V* of
    the actor's view); reach, step_reach: float64[K] (probability a game
    reaches I when both seats play P / the step); public_reach: float64[K] (the
    step's probability of reaching I's public state, I's seat to act, whatever its
    card: how often I would be searched if every card of a visited public state
    were); street: int64[K] (1 or 2);
    view_value: tensor bytes -> (seat, V* of that seat's view) for every view
    seen at a decision (the actor's and the other seat's).
    """

    views: list
    probs: np.ndarray
    legal: np.ndarray
    q: np.ndarray
    step: np.ndarray
    value: np.ndarray
    reach: np.ndarray
    step_reach: np.ndarray
    public_reach: np.ndarray
    street: np.ndarray
    view_value: dict


def mirror_step(probs, q, legal, eta: float, alpha: float, rho) -> np.ndarray:
    """The mirror target of `isz.search.puct_driver.PUCTBatch.mirror_policy` from
    given q: float64[K, A], rows over ``legal``."""
    z = np.log(np.maximum(probs, 1e-12)) + eta * q + alpha * eta * np.log(np.maximum(rho, 1e-12))
    z = np.where(legal, z / (1 + alpha * eta), -np.inf)
    w = np.exp(z - z.max(axis=1, keepdims=True))
    return w / w.sum(axis=1, keepdims=True)


def _walk(game, table, info, probs):
    """(reach of every row for all seats, reach without seat p [n, P], value [n, P])."""
    n, players = len(table.player), game.num_players
    edge = np.ones((n, players))  # weight of the edge into row r for each seat's reach-without
    full = np.ones(n)
    for r in range(1, n):
        par = table.parent[r]
        actor = table.player[par]
        w = table.prob[r] if actor == CHANCE else probs[info[par], table.action[r]]
        full[r] = full[par] * w
        edge[r] = w
        if actor >= 0:
            edge[r, actor] = 1.0
    minus = np.ones((n, players))
    for r in range(1, n):
        minus[r] = minus[table.parent[r]] * edge[r]
    value = np.zeros((n, players))
    for r in range(n - 1, -1, -1):  # children after parents: a row is final when reached
        if table.player[r] == TERMINAL:
            value[r] = State(game, table.states[r].copy()).returns()
        if r > 0:
            par = table.parent[r]
            actor = table.player[par]
            w = table.prob[r] if actor == CHANCE else probs[info[par], table.action[r]]
            value[par] += w * value[r]
    return full, minus, value


def exact_tables(game, policy, eta: float, alpha: float, magnet=None) -> Exact:
    """`Exact` for ``policy(views) -> float64[K, A]`` (a batch; ``magnet`` likewise,
    None: the policy itself)."""
    table = enumerate_histories(game, 200_000)
    n = len(table.player)
    info = np.full(n, -1, np.int64)
    ids: dict[tuple, int] = {}
    views, other = [], {}
    for r in range(n):
        p = int(table.player[r])
        if p < 0:
            continue
        state = State(game, table.states[r].copy())
        for seat in range(game.num_players):
            v = state.view(seat)
            if seat == p:
                info[r] = ids.setdefault(v.key, len(ids))
                if info[r] == len(views):
                    views.append(v)
            other.setdefault(v.key, v)
    legal = np.zeros((len(views), game.num_actions), bool)
    for i, v in enumerate(views):
        legal[i, list(v.legal_actions)] = True
    probs = np.where(legal, policy(views), 0.0)
    full, minus, value = _walk(game, table, info, probs)
    num_q, den = np.zeros(legal.shape), np.zeros(len(views))
    reach = np.zeros(len(views))
    vnum: dict[tuple, float] = {}
    vden: dict[tuple, float] = {}
    for r in range(n):
        p = int(table.player[r])
        if p >= 0:
            state = State(game, table.states[r].copy())
            for seat in range(game.num_players):
                k = (seat, game.view_data(state, seat))
                vnum[k] = vnum.get(k, 0.0) + minus[r, seat] * value[r, seat]
                vden[k] = vden.get(k, 0.0) + minus[r, seat]
            den[info[r]] += minus[r, p]
            reach[info[r]] += full[r]
        par = table.parent[r]
        if r > 0 and table.player[par] >= 0:
            actor = table.player[par]
            num_q[info[par], table.action[r]] += minus[par, actor] * value[r, actor]
    q = np.where(legal, num_q / np.maximum(den, 1e-300)[:, None], 0.0)
    rho = probs if magnet is None else np.where(legal, magnet(views), 0.0)
    step = mirror_step(probs, q, legal, eta, alpha, rho)
    step_reach, _, _ = _walk(game, table, info, step)
    sreach = np.zeros(len(views))
    np.add.at(sreach, info[info >= 0], step_reach[info >= 0])
    vv = {k: vnum[k] / vden[k] for k in vnum if vden[k] > 0}
    view_value = {v.tensor().astype(np.float32).tobytes(): (v.player, vv[key])
                  for key, v in other.items() if key in vv}
    value_i = np.array([vv[v.key] for v in views])
    street = np.array([2 if v.data[2] >= 0 else 1 for v in views])  # Leduc: public card
    public: dict[tuple, list[int]] = {}  # Leduc: the view's data without the own card
    for i, v in enumerate(views):
        public.setdefault((v.player, v.data[1:]), []).append(i)
    preach = np.zeros(len(views))
    for members in public.values():
        preach[members] = sreach[members].sum()
    return Exact(views, probs, legal, q, step, value_i, reach, sreach, preach, street,
                 view_value)


class ExactValueEvaluator:
    """The network's priors with exact on-policy values (`Exact.view_value`), so that
    a search's remaining error is its own; 2-player zero sum."""

    def __init__(self, net: NetworkEvaluator, view_value: dict):
        self.net, self.view_value = net, view_value

    def evaluate(self, tensors: np.ndarray, masks: np.ndarray):
        priors, _ = self.net.evaluate(tensors, masks)
        values = np.zeros((len(tensors), 2), np.float32)
        for i, t in enumerate(np.asarray(tensors, np.float32)):
            seat, v = self.view_value[t.tobytes()]
            values[i, seat], values[i, 1 - seat] = v, -v
        return priors, values


def net_policy(net: NetworkEvaluator):
    """``policy(views) -> float64[K, A]``: the network's policy head on a batch of views."""
    def policy(views):
        x = np.stack([v.tensor().reshape(-1) for v in views]).astype(np.float32)
        m = np.zeros((len(views), views[0].game.num_actions), bool)
        for i, v in enumerate(views):
            m[i, list(v.legal_actions)] = True
        return net.evaluate(x, m)[0].astype(np.float64)
    return policy


def load_leduc(path):
    """``(game, network)`` of a Leduc training checkpoint, the network as a CPU
    `NetworkEvaluator`; IszError for a checkpoint of another game (the tools' streets
    are Leduc's)."""
    game = checkpoint_game(load_checkpoint(path))
    if game.name != "leduc_poker":
        raise IszError(f"{path}: a {game.name} checkpoint; this tool reads Leduc "
                       "(its streets are Leduc's)")
    return game, NetworkEvaluator(load_model(path, game)[0], "cpu")


def magnet_evaluator(path, game) -> NetworkEvaluator | None:
    """The magnet a training checkpoint recorded (the snapshot its next iteration's
    targets use, ``search.magnet=network``) as an evaluator, or None."""
    ckpt = load_checkpoint(path, game)
    rec = (ckpt.get("extra") or {}).get("magnet")
    if rec is None:
        return None
    model = build_model(game, ModelConfig.from_dict(ckpt["model_config"]))
    model.load_state_dict(rec["state"])
    return NetworkEvaluator(model.eval(), "cpu")


def recorded_magnet(path, game):
    """``policy(views)`` of `magnet_evaluator`'s network, or None."""
    ev = magnet_evaluator(path, game)
    return None if ev is None else net_policy(ev)
