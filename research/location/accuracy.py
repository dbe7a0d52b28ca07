"""How well do beliefs place the opponents' unseen cards, on held-out self-play positions?

    python -m research.location.accuracy runs/oh_hell_p0_s2/checkpoints/last.pt \\
        --data runs/location/p0_s1.npz --positions 400 --worlds 64 \\
        --belief voids --belief '{"name":"sir","plays":0}' \\
        --belief '{"name":"located","weights":"runs/location/net.npz"}'

Score: the share of the opponents' current cards that a world puts in the right
hand (mean over worlds; `research.belief_accuracy`'s measure), per belief, with its
SE over positions, overall and by phase (the bids, tricks 0-2, 3-5, 6-9); and the
mean negative log-likelihood of each unseen card's true location under the worlds'
marginals (add-0.5 smoothed counts over the locations, so that the same number of
worlds gives every belief the same smoothing). The
positions are a seeded random subset of the data file's decisions (other games than the net
was trained on), the seat to move drawing worlds on its own view.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from isz import load_planner
from isz.fs import write_json_atomic
from isz.games import tricks_kernel as K
from isz.games.base import State
from isz.search.evaluator import make_search_belief
from research.belief_accuracy import placed_right
from research.location.belief import register
from research.location.data import labels


def phase(state: np.ndarray) -> str:
    if state[K.PHASE] == K.PH_BID:
        return "bids"
    t = int(state[K.TRICK])
    return "tricks 0-2" if t < 3 else "tricks 3-5" if t < 6 else "tricks 6-9"


def location_nll(worlds: np.ndarray, truth: np.ndarray, seat: int, game) -> float:
    """Mean over the seat's unseen cards of -log of the worlds' smoothed frequency of
    the card's true location (``worlds`` int64[n, S], ``truth`` int64[S])."""
    n, c = game.num_players, game.num_cards
    true = labels(truth[None], np.array([seat]), n, c)[0]
    loc = labels(worlds, np.full(len(worlds), seat), n, c)
    keep = true >= 0
    hits = (loc[:, keep] == true[keep]).sum(axis=0)
    return float(-np.log((hits + 0.5) / (len(worlds) + 0.5 * n)).mean())


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--data", required=True)
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--belief", action="append", required=True)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--output", default=None, help="write the rows as JSON (atomically)")
    a = ap.parse_args(argv)
    register()
    planner = load_planner(a.checkpoint, device="cpu")
    game = planner.game
    d = np.load(a.data)
    # a seeded random subset: a fixed stride would alias with the game length
    idx = np.sort(np.random.default_rng(a.seed).choice(
        len(d["states"]), size=min(a.positions, len(d["states"])), replace=False))
    out = {}
    for text in a.belief:
        spec = json.loads(text) if text.startswith("{") else text
        b = make_search_belief(spec, game, planner.evaluator, "network")
        rng = np.random.default_rng(a.seed)
        scores, nlls, phases, t0 = [], [], [], time.perf_counter()
        for i in idx:
            s = d["states"][i]
            view = State(game, s.copy()).view(int(d["seats"][i]))
            b.reset()
            worlds = b.sample_many(view, a.worlds, rng)
            scores.append(placed_right(worlds, s, view.player, game.num_players))
            nlls.append(location_nll(worlds, s, view.player, game))
            phases.append(phase(s))
        sec = (time.perf_counter() - t0) / len(idx)
        sc, ph = np.asarray(scores), np.asarray(phases)
        row = {"all": [float(np.nanmean(sc)), float(np.nanstd(sc) / np.sqrt(len(sc)))]}
        for p in ("bids", "tricks 0-2", "tricks 3-5", "tricks 6-9"):
            v = sc[ph == p]
            if len(v) > 1:
                row[p] = [float(np.nanmean(v)), float(np.nanstd(v) / np.sqrt(len(v)))]
        nl = np.asarray(nlls)
        row["nll"] = [float(nl.mean()), float(nl.std() / np.sqrt(len(nl)))]
        row["ms_a_decision"] = round(sec * 1e3, 2)
        out[text] = row
        print(text, json.dumps(row), flush=True)
    if a.output:
        write_json_atomic(Path(a.output), {"config": vars(a), "beliefs": out})


if __name__ == "__main__":
    main()
