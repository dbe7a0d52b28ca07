"""The mirror target's dynamics without a network or a search: exact q, tabular policy.

    python -m research.mirror_dynamics kuhn_poker alpha=0.1 \\
        alpha=0.1,magnet=network,every=20,lag=0.35

Each spec (comma-separated ``key=value``) runs one trajectory: every
iteration, at every information set I of the game, the policy steps to
``softmax((log pi + eta q + alpha eta log rho) / (1 + alpha eta))`` (the
``mirror`` target of `isz.search.puct_driver.PUCTBatch.mirror_policy`) where
``q(I, a)`` is the exact on-policy action value (returns units, chips /
``utility_scale``: what the search estimates under ``opponents=evaluate`` and
the exact posterior), ``rho`` the magnet: uniform, or with ``magnet=network``
the policy itself, snapshotted every ``every`` iterations. ``lag`` < 1 moves
only that fraction of the way to the target (a network fitting a replay buffer
of several iterations lags its targets); ``noise`` adds Gaussian noise to q
(seeded). Printed: the exact exploitability (NashConv / 2, chips) every 10
iterations, and with ``avg_from`` >= 1 that of the average policy of the iterates
from that iteration on (``avg_weight``: uniform or linear in t, each iterate
weighted by its own reach, or logit: the geometric mean). Keys: iters (100),
eta (2), alpha (0.1), magnet (uniform), every (10), lag (1), noise (0), seed (0),
avg_from (0: none), avg_weight (uniform). ``--output FILE`` (last argument pair)
also writes every trajectory as JSON.

It is how the moving magnet's settings were chosen: on Kuhn, magnet=network
with alpha 0.1 goes to 0 where the uniform magnet stops at 0.044 (its
regularised equilibrium), and needs every >= 20 once lag is 0.35.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from isz.evaluation.exploitability import exploitability, game_tree
from isz.games.registry import make_game
from isz.types import CHANCE, TERMINAL, IszError

DEFAULTS = {"iters": 100, "eta": 2.0, "alpha": 0.1, "magnet": "uniform", "every": 10,
            "lag": 1.0, "noise": 0.0, "seed": 0, "avg_from": 0, "avg_weight": "uniform"}
AVG_WEIGHTS = ("uniform", "linear", "logit")


def action_values(game, tree, probs: np.ndarray) -> np.ndarray:
    """q[I, a]: the acting player's expected return (returns units) after a at I, the
    histories of I weighted by chance and the other players' reach (the posterior)."""
    n, players = len(tree.player), game.num_players
    reach = np.zeros((n, players))
    reach[0] = 1.0
    for node in range(n):
        p = tree.player[node]
        for a, child, prob in tree.children[node]:
            w = np.full(players, prob if p == CHANCE else 1.0)
            if p >= 0:
                w[:] = probs[tree.infoset[node]][a]
                w[p] = 1.0
            reach[child] = reach[node] * w
    value = np.zeros((n, players))
    for node in range(n - 1, -1, -1):
        p = tree.player[node]
        if p == TERMINAL:
            value[node] = tree.utility[node] / game.utility_scale
            continue
        for a, child, prob in tree.children[node]:
            value[node] += (prob if p == CHANCE else probs[tree.infoset[node]][a]) * \
                value[child]
    num = np.zeros((len(tree.views), game.num_actions))
    den = np.zeros(len(tree.views))
    for node in range(n):
        p = tree.player[node]
        if p >= 0:
            i = tree.infoset[node]
            den[i] += reach[node, p]
            for a, child, _ in tree.children[node]:
                num[i, a] += reach[node, p] * value[child, p]
    return num / np.maximum(den, 1e-300)[:, None]


def own_reach(tree, probs: np.ndarray) -> np.ndarray:
    """own[I]: the product of the acting player's own action probabilities on the way
    to I (the same for every history of I under perfect recall); shape (infosets,)."""
    n = len(tree.player)
    mine = np.ones((n, max(2, int(max(tree.player)) + 1)))  # one column per player
    out = np.zeros(len(tree.views))
    for node in range(n):
        p = tree.player[node]
        if p >= 0:
            out[tree.infoset[node]] = mine[node, p]
        for a, child, _ in tree.children[node]:
            mine[child] = mine[node]
            if p >= 0:
                mine[child, p] *= probs[tree.infoset[node]][a]
    return out


def trajectory(game_name: str, iters: int, eta: float, alpha: float, magnet: str,
               every: int, lag: float, noise: float, seed: int, avg_from: int = 0,
               avg_weight: str = "uniform") -> tuple[list[float], list[float]]:
    """Exploitability every 10 iterations of one run of the tabular dynamics: the last
    iterate's, and (``avg_from`` >= 1) that of the average policy of the iterates from
    iteration ``avg_from`` on, each weighted by its own reach of the information set
    (times t with ``avg_weight=linear``): the sequence-form average that fictitious play
    and CFR report; ``avg_weight=logit``: the plain mean of the iterates' log-policies
    at each information set, renormalised (what averaging a network's weights
    approximates). Without an average the second list is empty."""
    if magnet not in ("uniform", "network"):
        raise IszError(f"magnet must be uniform or network, got {magnet!r}")
    if avg_weight not in AVG_WEIGHTS:
        raise IszError(f"avg_weight must be one of {AVG_WEIGHTS}, got {avg_weight!r}")
    if avg_from < 0:
        raise IszError(f"avg_from must be >= 0 (0: no average), got {avg_from}")
    game = make_game(game_name)
    tree = game_tree(game)
    index = {v.key: i for i, v in enumerate(tree.views)}
    legal = np.zeros((len(tree.views), game.num_actions), dtype=bool)
    for i, v in enumerate(tree.views):
        legal[i, list(v.legal_actions)] = True
    pi = legal / legal.sum(axis=1, keepdims=True)
    rho = pi.copy()
    rng = np.random.default_rng(seed)
    out, avg_out = [], []
    avg_num, avg_den = np.zeros(pi.shape), np.zeros(len(pi))
    for it in range(1, iters + 1):
        q = action_values(game, tree, pi) + noise * rng.standard_normal(pi.shape)
        z = np.log(np.maximum(pi, 1e-12)) + eta * q + alpha * eta * np.log(
            np.maximum(rho, 1e-12))
        z = np.where(legal, z / (1 + alpha * eta), -np.inf)
        w = np.exp(z - z.max(axis=1, keepdims=True))
        pi = (1 - lag) * pi + lag * w / w.sum(axis=1, keepdims=True)
        if magnet == "network" and it % every == 0:
            rho = pi.copy()
        if avg_from and it >= avg_from:
            if avg_weight == "logit":
                avg_num += np.where(legal, np.log(np.maximum(pi, 1e-300)), 0.0)
                avg_den += 1.0
            else:
                w = own_reach(tree, pi) * (it if avg_weight == "linear" else 1.0)
                avg_num += w[:, None] * pi
                avg_den += w
        if it % 10 == 0:
            out.append(_exploit(game, index, pi))
            if avg_from and it >= avg_from:
                avg_out.append(_exploit(game, index, _average(avg_num, avg_den, legal,
                                                              avg_weight)))
    return out, avg_out


def _average(num: np.ndarray, den: np.ndarray, legal: np.ndarray, kind: str) -> np.ndarray:
    """The average policy from its running sums (uniform where nothing was added)."""
    if kind == "logit":
        z = np.where(legal, num / np.maximum(den, 1.0)[:, None], -np.inf)
        w = np.exp(z - z.max(axis=1, keepdims=True))
        return w / w.sum(axis=1, keepdims=True)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    return np.where(den[:, None] > 0, num / np.maximum(den, 1e-300)[:, None], uniform)


def _exploit(game, index: dict, probs: np.ndarray) -> float:
    frozen = probs.copy()
    return exploitability(game, lambda v: frozen[index[v.key]]).exploitability


def parse(spec: str) -> dict:
    kw = dict(DEFAULTS)
    for item in filter(None, spec.split(",")):
        if "=" not in item or item.split("=")[0] not in DEFAULTS:
            raise IszError(f"bad spec item {item!r}; keys: {', '.join(DEFAULTS)}")
        k, v = item.split("=", 1)
        try:
            kw[k] = type(DEFAULTS[k])(v)
        except ValueError:
            raise IszError(f"bad spec item {item!r}: {k} must be "
                           f"{type(DEFAULTS[k]).__name__}") from None
    return kw


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    output = None
    if len(argv) >= 2 and argv[-2] == "--output":
        output, argv = argv[-1], argv[:-2]
    if len(argv) < 2:
        print(__doc__)
        return 2
    runs = []
    try:
        for spec in argv[1:]:
            kw = parse(spec)
            e, avg = trajectory(argv[0], **kw)
            print(spec, " ".join(f"{x:.4f}" for x in e), flush=True)
            if avg:
                print(" " * len(spec), "avg", " ".join(f"{x:.4f}" for x in avg), flush=True)
            its = list(range(10, kw["iters"] + 1, 10))
            runs.append({"spec": spec, **kw, "iteration": its, "last": e,
                         "avg_iteration": [i for i in its if i >= kw["avg_from"]] if avg
                         else [], "avg": avg})
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if output:
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        Path(output).write_text(json.dumps({"game": argv[0], "runs": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
