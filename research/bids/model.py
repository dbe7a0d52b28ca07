"""A bid model: from a seat's view at its bid and a bid b, the law of the tricks it
will take and its expected return, learned from self-play outcomes
(`research.bids.data`).

``BidNet(x, b)``: x float32[N, F] (`features`), b float32[N, H + 2]
(`bid_features`) -> (trick logits float32[N, H + 1] over 0..H tricks taken, return
float32[N] in [-1, 1], the seat's own, + good). Trained by cross-entropy on the
tricks and squared error on the return; games are split, not rows, so a held-out
game's three bids are all held out.

    python -m research.bids.model runs/bids/p0_s*.npz --output runs/bids/net.pt
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import torch
from torch import nn

from isz import make_game
from isz.fs import write_atomic, write_json_atomic
from isz.games.base import State
from research.bids.features import bid_features, bid_size, features, neighbour_bids, size


class BidNet(nn.Module):
    """MLP over the features and the bid; two heads (module docstring)."""

    def __init__(self, f: int, fb: int, tricks: int, width: int = 128):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(f + fb, width), nn.ReLU(),
                                  nn.Linear(width, width), nn.ReLU())
        self.tricks = nn.Linear(width, tricks)
        self.ret = nn.Linear(width, 1)

    def forward(self, x: torch.Tensor, b: torch.Tensor):
        h = self.body(torch.cat([x, b], 1))
        return self.tricks(h), torch.tanh(self.ret(h)).squeeze(1)


def dataset(paths: list[str], game) -> dict[str, np.ndarray]:
    """The rows of ``paths`` with their features: x [N, F], b [N, H + 2], bid, won,
    ret, explored, own, game index (three rows a game, consecutive), states."""
    cols: dict[str, list] = {}
    for k, path in enumerate(paths):
        d = np.load(path)
        cols.setdefault("x", []).append(np.stack(
            [features(State(game, s.copy()).view(int(p)))
             for s, p in zip(d["states"], d["seats"], strict=True)]))
        cols.setdefault("b", []).append(np.stack([bid_features(int(b), game)
                                                  for b in d["bid"]]))
        for f in ("bid", "won", "ret", "explored", "own"):
            cols.setdefault(f, []).append(d[f])
        n = game.num_players
        cols.setdefault("game", []).append(k * 10**7 + np.arange(len(d["bid"])) // n)
        cols.setdefault("states", []).append(d["states"])
    return {f: np.concatenate(v) for f, v in cols.items()}


def losses(net: BidNet, d: dict, idx: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    """(trick cross-entropy, return squared error), means over rows ``idx``."""
    logits, v = net(torch.from_numpy(d["x"][idx]), torch.from_numpy(d["b"][idx]))
    ce = nn.functional.cross_entropy(logits, torch.from_numpy(d["won"][idx]).long())
    se = ((v - torch.from_numpy(d["ret"][idx]).float()) ** 2).mean()
    return ce, se


def fit(d: dict, game, tr: np.ndarray, te: np.ndarray | None, epochs: int = 8,
        width: int = 128, seed: int = 0, wd: float = 1e-4) -> tuple[BidNet, list]:
    """A net fitted on rows ``tr``; with rows ``te``, the epoch of least loss on them is
    kept (else the last) and the log has their losses by epoch."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = BidNet(size(game), bid_size(game), game.params["hand_size"] + 1, width)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=wd)
    best, best_state, log = np.inf, None, []
    for ep in range(epochs):
        net.train()
        for chunk in np.array_split(rng.permutation(tr), max(1, len(tr) // 256)):
            ce, se = losses(net, d, chunk)
            opt.zero_grad()
            (ce + se).backward()
            opt.step()
        net.eval()
        if te is None:
            continue
        with torch.no_grad():
            ce, se = (float(t) for t in losses(net, d, te))
        log.append({"epoch": ep + 1, "test_ce": ce, "test_ret_mse": se})
        if ce + se < best:
            best, best_state = ce + se, {k: v.clone() for k, v in net.state_dict().items()}
    if best_state is not None:
        net.load_state_dict(best_state)
    return net, log


def split(d: dict, folds: int, seed: int) -> np.ndarray:
    """int[N]: each row's fold, by game (a game's rows share a fold)."""
    games, inv = np.unique(d["game"], return_inverse=True)
    fold_of_game = np.random.default_rng(seed).permutation(len(games)) % folds
    return fold_of_game[inv]


def train(d: dict, game, epochs: int = 30, width: int = 128, seed: int = 0,
          held: float = 0.15, wd: float = 1e-4) -> tuple[BidNet, dict]:
    """Fit on the games not held out (a share ``held`` of them); keep the epoch of least
    held-out loss; the held-out losses, the bid-only baselines' and `offline_value`."""
    fold = split(d, max(2, round(1 / held)), seed)
    tr, te = np.where(fold != 0)[0], np.where(fold == 0)[0]
    net, log = fit(d, game, tr, te, epochs, width, seed, wd)
    return net, {"log": log, "train_rows": len(tr), "test_rows": len(te),
                 "baselines": baselines(d, tr, te, game),
                 "offline": {r: offline_value([(net, te)], d, game, r) for r in ("ret", "exact")}}


def crossfit(d: dict, game, folds: int = 5, epochs: int = 8, width: int = 128,
             seed: int = 0, wd: float = 1e-4) -> list[tuple[BidNet, np.ndarray]]:
    """``folds`` nets, each fitted for ``epochs`` on the other folds' games, with the rows
    of the fold it never saw: `offline_value` then judges every explorer row out of fold."""
    fold = split(d, folds, seed)
    return [(fit(d, game, np.where(fold != k)[0], None, epochs, width, seed + k, wd)[0],
             np.where(fold == k)[0]) for k in range(folds)]


def baselines(d: dict, tr: np.ndarray, te: np.ndarray, game) -> dict:
    """Held-out losses of predictors that know only the bid: the training rows'
    trick law and mean return of each bid."""
    h = game.params["hand_size"]
    ce, se = [], []
    for i in te:
        same = tr[d["bid"][tr] == d["bid"][i]]
        law = (np.bincount(d["won"][same], minlength=h + 1) + 0.5) / (len(same) + 0.5 * (h + 1))
        ce.append(-np.log(law[d["won"][i]]))
        se.append((d["ret"][same].mean() - d["ret"][i]) ** 2 if len(same) else d["ret"][i] ** 2)
    return {"bid_only_ce": float(np.mean(ce)), "bid_only_ret_mse": float(np.mean(se)),
            "zero_ret_mse": float(np.mean(d["ret"][te] ** 2))}


def pick(net: BidNet, x: np.ndarray, bids: list[int], game, rule: str = "ret",
         margin: float = 0.0) -> int:
    """The bid of ``bids`` (the planner's first, then its neighbours: `neighbour_bids`)
    of highest ``rule`` score under the net for features ``x`` (float32[F]): ``"ret"``
    the expected return, ``"exact"`` the chance of taking exactly the bid; the planner's
    unless another beats it by more than ``margin``."""
    xs = torch.from_numpy(np.repeat(x[None], len(bids), 0))
    b = torch.from_numpy(np.stack([bid_features(k, game) for k in bids]))
    with torch.no_grad():
        logits, ret = net(xs, b)
    if rule == "ret":
        score = ret.double().numpy()
    else:
        score = torch.softmax(logits.double(), 1).numpy()[np.arange(len(bids)), bids]
    best = int(np.argmax(score))
    return bids[best] if score[best] > score[0] + margin else bids[0]


def row_bids(d: dict, i: int, game) -> list[int]:
    """`neighbour_bids` of row ``i``'s planner bid in its state."""
    legal = State(game, d["states"][i].copy()).legal_actions()
    return neighbour_bids(int(d["own"][i]), legal, game.num_cards)


def offline_value(nets: list[tuple[BidNet, np.ndarray]], d: dict, game, rule: str = "ret",
                  margin: float = 0.0) -> dict:
    """The mean return of the nets' bids against the planner's, from the explorer's
    rows (its move δ drawn uniformly from {-1, 0, +1}, an illegal move falling back to
    δ = 0) among each net's rows: each arm weighs a row whose bid is the arm's choice
    by 1 / the chance it was made (self-normalised inverse propensity); their
    difference ± SE unnormalised (unbiased); the share of rows the nets move."""
    ex, picked, prop = [], [], []
    for net, idx in nets:
        for i in idx[d["explored"][idx] == 1]:
            bids = row_bids(d, i, game)
            ex.append(i)
            picked.append(pick(net, d["x"][i], bids, game, rule, margin))
            # the move was uniform over {-1, 0, +1}; an illegal one fell back to 0
            prop.append(1 / 3 if d["bid"][i] != bids[0] else 1 - (len(bids) - 1) / 3)
    ex, chosen, prop = np.asarray(ex, dtype=np.int64), np.asarray(picked), np.asarray(prop)
    made, ret, own = d["bid"][ex], d["ret"][ex], d["own"][ex]
    out = {"rule": rule, "margin": margin, "explorer_rows": len(ex)}
    for arm, choice in (("planner", own), ("net", chosen)):
        w = (made == choice) / prop
        mean = float((w * ret).sum() / w.sum())
        se = float(np.sqrt(((w * (ret - mean)) ** 2).sum()) / w.sum())
        out[arm] = {"ret": mean, "se": se, "rows": int((made == choice).sum())}
    diff = ((made == chosen).astype(float) - (made == own)) / prop * ret
    out["net_minus_planner"] = {"mean": float(diff.mean()),
                                "se": float(diff.std(ddof=1) / np.sqrt(len(diff)))}
    out["moved"] = float((chosen != own).mean())
    return out


def save(net: BidNet, game, path: str, info: dict) -> None:
    """The net's weights and what it needs to be rebuilt, written atomically."""
    width = net.body[0].out_features
    payload = {"state": net.state_dict(), "width": width, "game": json.dumps(game.spec),
               "info": json.dumps(info)}
    write_atomic(path, lambda f: torch.save(payload, f), binary=True)


def load(path: str, game) -> BidNet:
    """A `BidNet` saved by `save` for ``game`` (weights only)."""
    ck = torch.load(path, weights_only=True)
    if json.loads(ck["game"]) != json.loads(json.dumps(game.spec)):
        raise ValueError(f"bid model {path} was trained for {ck['game']}, not {game.spec}")
    net = BidNet(size(game), bid_size(game), game.params["hand_size"] + 1, ck["width"])
    net.load_state_dict(ck["state"])
    return net.eval()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--game", default="oh_hell")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--folds", type=int, default=5,
                    help="cross-fitted nets for the offline estimate (0: none)")
    ap.add_argument("--margins", type=float, nargs="*", default=[0.0, 0.05, 0.1])
    ap.add_argument("--json", help="write the fit and the offline estimates here")
    ap.add_argument("--output", required=True)
    a = ap.parse_args(argv)
    game = make_game(a.game)
    d = dataset(a.data, game)
    net, info = train(d, game, a.epochs, a.width, a.seed)
    best = min(info["log"], key=lambda r: r["test_ce"] + r["test_ret_mse"])
    info["best"] = best
    if a.folds:
        nets = crossfit(d, game, a.folds, best["epoch"], a.width, a.seed)
        info["crossfit"] = [offline_value(nets, d, game, rule, m)
                            for rule in ("ret", "exact") for m in a.margins]
    print(json.dumps({k: v for k, v in info.items() if k != "log"}, indent=1))
    save(net, game, a.output, info)
    if a.json:
        write_json_atomic(a.json, {"data": a.data, **info})


if __name__ == "__main__":
    main()
