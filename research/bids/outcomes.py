"""How bids end in self-play rows (`research.bids.data`): per bid made, the share of
exact bids, of more tricks than bid and of fewer; and, over the explorer's rows, the
mean return of each move δ of its bid (a randomised trial: δ is drawn uniformly, so
the difference of two arms is what moving the bid by that much is worth in these
games, ± its SE).

    python -m research.bids.outcomes runs/bids/p0_s*.npz --output F.json
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from isz.fs import write_json_atomic


def _share(x: np.ndarray) -> dict:
    return {"mean": float(x.mean()), "se": float(x.std(ddof=1) / np.sqrt(len(x)))
            if len(x) > 1 else 0.0}


def summary(d: dict[str, np.ndarray], min_rows: int = 30) -> dict:
    """``by_bid``: rows, exact / over / under shares, mean return per bid made;
    ``by_move``: over the explorer's rows whose move was legal, per δ: rows, mean
    return, exact share; ``totals``: the same shares over all rows."""
    bid, won, ret = d["bid"], d["won"], d["ret"]
    by_bid = {}
    for b in np.unique(bid):
        m = bid == b
        if m.sum() >= min_rows:
            by_bid[int(b)] = {"rows": int(m.sum()), "exact": float((won[m] == b).mean()),
                              "over": float((won[m] > b).mean()),
                              "under": float((won[m] < b).mean()),
                              "ret": float(ret[m].mean())}
    ex = d["explored"] == 1
    move = bid - d["own"]
    by_move = {}
    for dm in (-1, 0, 1):
        m = ex & (move == dm)
        if m.sum() > 1:
            by_move[dm] = {"rows": int(m.sum()), "ret": _share(ret[m]),
                           "exact": _share((won[m] == bid[m]).astype(float))}
    return {"rows": len(bid), "totals": {"exact": float((won == bid).mean()),
                                         "over": float((won > bid).mean()),
                                         "under": float((won < bid).mean())},
            "by_bid": by_bid, "by_move": by_move}


def load(paths: list[str]) -> dict[str, np.ndarray]:
    """The rows of ``paths`` concatenated (the states left out)."""
    parts = [np.load(p) for p in paths]
    return {f: np.concatenate([p[f] for p in parts])
            for f in ("own", "bid", "explored", "won", "points", "ret")}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+")
    ap.add_argument("--output")
    a = ap.parse_args(argv)
    s = summary(load(a.data))
    print(json.dumps(s, indent=1))
    if a.output:
        write_json_atomic(a.output, {"data": a.data, **s})


if __name__ == "__main__":
    main()
