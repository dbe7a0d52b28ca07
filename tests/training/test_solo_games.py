"""`solo_positions`: the average policy's own games (``trainer.average_policy_games``).
One seat in turn plays the network, the others uniformly at random; its rows carry the
network's policy and value at its own view, and come at each information set in
proportion to the probability of reaching it under that policy against uniform play:
own reach times a factor that does not depend on the network (fictitious self-play's
average)."""

from __future__ import annotations

import numpy as np
import torch

from isz import make_game
from isz.evaluation.exploitability import game_tree
from isz.nn import ModelConfig, build_model
from isz.training.solo_games import solo_positions

CPU = torch.device("cpu")


def _net(game, seed: int):
    torch.manual_seed(seed)
    return build_model(game, ModelConfig(width=16, depth=1))


def _reach_against_uniform(tree, probs: np.ndarray) -> np.ndarray:
    """Expected rows per game at each information set: 1/2 of the probability that a
    game whose set owner plays ``probs`` and whose other seat plays uniformly reaches it."""
    n, out = len(tree.player), np.zeros(len(tree.views))
    for seat in (0, 1):
        r = np.zeros(n)
        r[0] = 1.0
        for node in range(n):
            p, kids = tree.player[node], tree.children[node]
            if p == seat:
                out[tree.infoset[node]] += r[node]
            for a, child, cp in kids:
                w = cp if p < 0 else probs[tree.infoset[node]][a] if p == seat else 1 / len(kids)
                r[child] = r[node] * w
    return out / 2


def test_rows_are_the_network_seats_own_views_with_its_policy_and_value():
    game = make_game("leduc_poker")
    net = _net(game, 0)
    pos = solo_positions(game, net, 200, np.random.default_rng(3), CPU)
    again = solo_positions(game, net, 200, np.random.default_rng(3), CPU)
    assert all(np.array_equal(getattr(pos, f), getattr(again, f))
               for f in ("tensors", "masks", "policies", "players", "returns"))
    assert set(np.unique(pos.players)) == {0, 1}
    probs, value = net.predict(torch.from_numpy(pos.tensors), torch.from_numpy(pos.masks))
    assert np.allclose(pos.policies, probs.numpy(), atol=1e-6)
    assert np.allclose(pos.returns, value.numpy(), atol=1e-6)
    assert np.all(pos.policies[~pos.masks] == 0)
    assert np.allclose(pos.policies.sum(axis=1), 1.0, atol=1e-6)
    # every row is a view of its own seat that the game can produce: each is one of
    # the information sets of that seat in the game's tree
    tree = game_tree(game)
    views = {(v.player, v.tensor().tobytes()) for v in tree.views}
    assert all((int(p), x.tobytes()) in views for p, x in zip(pos.players, pos.tensors,
                                                               strict=True))


def test_rows_come_in_proportion_to_reach_against_uniform_play():
    """Kuhn, 20,000 games: the rows at each information set are the expected count
    (own reach under the network times the uniform seat's and chance's reach) within
    4 standard errors, for two different networks."""
    game = make_game("kuhn_poker")
    tree = game_tree(game)
    index = {(v.player, v.tensor().tobytes()): i for i, v in enumerate(tree.views)}
    games = 20_000
    for seed in (0, 1):
        net = _net(game, seed)
        pos = solo_positions(game, net, games, np.random.default_rng(seed), CPU)
        x = np.stack([v.tensor().reshape(-1) for v in tree.views]).astype(np.float32)
        m = np.zeros((len(tree.views), game.num_actions), bool)
        for i, v in enumerate(tree.views):
            m[i, list(v.legal_actions)] = True
        probs = net.predict(torch.from_numpy(x), torch.from_numpy(m))[0].double().numpy()
        want = games * _reach_against_uniform(tree, probs)
        got = np.bincount([index[(int(p), t.tobytes())] for p, t in
                           zip(pos.players, pos.tensors, strict=True)],
                          minlength=len(tree.views))
        assert got.sum() == len(pos) and want.min() > 100
        assert np.all(np.abs(got - want) < 4 * np.sqrt(want)), (got, want.round())
