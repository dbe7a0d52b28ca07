"""``tricks_learned``: a playout whose card play is a softmax over a few trick features,
its weights fitted to a planner's moves in self-play (AlphaGo's fast rollout policy,
for trick games).

For a legal card c of seat p, `card_features` is float64[F] (F = 2 × 10), the card
features of `isz.games.tricks_features` (the trick games' `Kernel.action_score`; the
core's ``policy`` leaf learns the bids too, this one bids by the greedy rule).

Below the tree every seat bids as `research.playouts.greedy` does (uniform with chance
``EPS``) and plays card c with probability ∝ exp(w · features(c)). Only the world the
search is in is read. The weights are fitted by maximum likelihood on the moves of
`research.location.data` rows (each row's next row is the same game's next decision,
so its card is the move made):

    python -m research.playouts.learned fit runs/location/p0_s{0,2,3,4}.npz \\
        --test runs/location/p0_s1.npz --output runs/playouts/weights.json
"""

from __future__ import annotations

import argparse
import functools
import json

import numba as nb
import numpy as np

from isz.fs import write_json_atomic
from isz.games import tricks_kernel as K
from isz.games.kernel import Kernel
from isz.games.tricks_features import F_CARD as F
from isz.games.tricks_features import card_score
from isz.rng import rand_below, rand_float
from isz.search.jit import helper
from isz.search.playout import LEAVES, policy_leaf
from isz.training import playout_fit
from isz.types import IszError
from research.playouts.greedy import EPS, make_greedy_policy

NAME = "tricks_learned"


@nb.njit(cache=True)
def card_features(states, seats, cards, kp):
    """float64[N, F]: the features of row i's seat playing ``cards[i]`` in ``states[i]``
    (the fit's design matrix; the leaf computes w · features by `card_score`)."""
    out = np.zeros((states.shape[0], F))
    e = np.zeros(F)
    for i in range(states.shape[0]):
        for j in range(F):
            e[j] = 1.0
            out[i, j] = card_score(states[i], kp, seats[i], cards[i], e)
            e[j] = 0.0
    return out


@functools.cache
def make_learned_leaf(kernel: Kernel, weights: tuple[float, ...]):
    """The compiled leaf ``(s, params, me, rng, b, k)`` playing by ``weights`` (F)."""
    if kernel.legal_actions is not K._legal_actions:
        raise IszError(f"leaf {NAME!r} plays trick games (isz.games.tricks) only")
    if len(weights) != F:
        raise IszError(f"leaf {NAME!r} takes {F} weights, got {len(weights)}")
    w = np.asarray(weights, dtype=np.float64)
    greedy_bid, _ = make_greedy_policy(kernel)

    @helper
    def choose(s, params, p, rng, la, n, k):
        if s[K.PHASE] == K.PH_BID:
            return (la[rand_below(rng, n)] if rand_float(rng) < EPS
                    else greedy_bid(s, params, p, la, n))
        best, total = la[0], 0.0
        for i in range(n):  # one pass: reservoir sampling on exp(w . features)
            e = np.exp(card_score(s, params, p, la[i], w))
            total += e
            if rand_float(rng) * total < e:
                best = la[i]
        return best

    return policy_leaf(kernel, choose)


def moves(paths: list[str], game) -> dict[str, np.ndarray]:
    """The card plays of `research.location.data` rows whose next row is the same
    game's next decision: ``states`` int64[N, S], ``seats``, ``played`` (the card),
    ``legal`` int64[N, H] (the legal cards, -1 padded)."""
    from isz.games.base import State

    h = game.params["hand_size"]
    out: dict[str, list] = {"states": [], "seats": [], "played": [], "legal": []}
    for path in paths:
        d = np.load(path)
        st, seats = d["states"], d["seats"]
        for i in range(len(st) - 1):
            s, nxt = st[i], st[i + 1]
            if s[K.PHASE] != K.PH_PLAY or nxt[K.NPLAYED] != s[K.NPLAYED] + 1 or \
                    nxt[K.INIT] != s[K.INIT] or nxt[K.TCARD] != s[K.TCARD]:
                continue
            legal = State(game, s.copy()).legal_actions()
            out["states"].append(s)
            out["seats"].append(seats[i])
            out["played"].append(nxt[K.PLAYS + s[K.NPLAYED]])
            out["legal"].append(legal + [-1] * (h - len(legal)))
    return {k: np.asarray(v, dtype=np.int64) for k, v in out.items()}


def design(m: dict[str, np.ndarray], game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(features float64[N, H, F] (0 where no card), mask bool[N, H], the index of the
    card played in each row's legal list)."""
    n, h = m["legal"].shape
    mask = m["legal"] >= 0
    rows = np.repeat(np.arange(n), h)[mask.ravel()]
    feats = np.zeros((n, h, F))
    feats[mask] = card_features(m["states"][rows], m["seats"][rows], m["legal"][mask],
                                game.kparams)
    target = np.argmax(m["legal"] == m["played"][:, None], axis=1)
    return feats, mask, target


def fit(feats, mask, target, steps: int = 300) -> np.ndarray:
    """float64[F]: the maximum-likelihood weights of the softmax over each row's cards
    (`isz.training.playout_fit.fit` without its L2)."""
    return playout_fit.fit(playout_fit.MoveRows(feats, mask, target), l2=0.0, steps=steps)


def judge(feats, mask, target, w: np.ndarray, game, m) -> dict:
    """Held-out negative log-likelihood and top-1 agreement with the moves made: the
    weights, uniform (`isz.training.playout_fit.judge`), and the greedy rule
    (`research.playouts.greedy`)."""
    _, card = make_greedy_policy(game.kernel)
    greedy = np.array([card(s, game.kparams, p, leg, int((leg >= 0).sum()))
                       for s, p, leg in zip(m["states"], m["seats"], m["legal"], strict=True)])
    return {**playout_fit.judge(playout_fit.MoveRows(feats, mask, target), w),
            "greedy_top1": float((greedy == m["played"]).mean())}


def register(weights: str, name: str = NAME) -> None:
    """Add leaf ``name`` playing by the weights of file ``weights`` (JSON of `main` or
    `research.playouts.iterate`) to the search's leaves (matches' workers fork after
    it)."""
    w = tuple(float(v) for v in json.load(open(weights))["weights"])
    LEAVES[name] = functools.partial(make_learned_leaf, weights=w)


def main(argv=None) -> None:
    from isz import make_game

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["fit"])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--test", required=True)
    ap.add_argument("--game", default="oh_hell")
    ap.add_argument("--output", required=True)
    a = ap.parse_args(argv)
    game = make_game(a.game)
    train = moves(a.data, game)
    w = fit(*design(train, game))
    test = moves([a.test], game)
    out = {"data": a.data, "test": a.test, "train_rows": len(train["played"]),
           "weights": w.tolist(), "held_out": judge(*design(test, game), w, game, test)}
    print(json.dumps(out, indent=1))
    write_json_atomic(a.output, out)


if __name__ == "__main__":
    main()
