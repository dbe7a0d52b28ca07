"""How well do a trick-taking game's beliefs place the opponents' unseen cards?

    python -m research.belief_accuracy CHECKPOINT --games 40 --worlds 64 \\
        --after-tricks 3 --beliefs voids gibbs gibbs:network --seed 0

Positions come from rollout self-play (`so_ismcts` with the ``voids`` belief,
``--iterations`` a move, every seat), so bids and plays say something about the
hands. In each game, at the first decision after ``--after-tricks`` tricks, the
seat to move draws ``--worlds`` worlds from each belief on its own view, and the
score of a belief is the share of the opponents' unplayed cards that a world puts
in the right opponent's hand (mean over worlds, opponents and games; a guess
that knows nothing puts a card in the right hand with probability hand / unseen
cards, the stock counted: 7 / 35 = 0.2 in Oh Hell after 3 tricks).
``gibbs:network`` is the history-filtering Gibbs sampler weighted by the
checkpoint's policy (the evaluator's priors, on each opponent's view in the
candidate world); ``gibbs`` the same chain under a uniform policy; ``voids`` the
exact uniform over deals consistent with the voids shown. Also the seconds per
world of each belief. Writes ``--output`` JSON (atomically) when given.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from isz import IszError, load_planner, make_agent
from isz.fs import write_json_atomic
from isz.search.evaluator import make_search_belief
from isz.types import check_int

HANDS = 15  # state[15:15+P]: the current hands (card masks), isz/games/tricks.py
TRICKS_DONE = 12


def _spec(name: str) -> tuple[str, str]:
    """``"gibbs:network"`` -> ("gibbs", "network"); ``"voids"`` -> ("voids", "uniform")."""
    belief, _, policy = name.partition(":")
    return belief, policy or "uniform"


def placed_right(worlds: np.ndarray, truth: np.ndarray, me: int, players: int) -> float:
    """Share of the opponents' current cards that ``worlds`` (int64[n, state]) put in the
    right hand, against the true state ``truth``: mean over worlds of
    sum_q |w_q & t_q| / sum_q |t_q| over opponents q."""
    others = [q for q in range(players) if q != me]
    total = sum(bin(int(truth[HANDS + q])).count("1") for q in others)
    if total == 0:
        return float("nan")
    hits = [sum(bin(int(w[HANDS + q]) & int(truth[HANDS + q])).count("1") for q in others)
            for w in worlds]
    return float(np.mean(hits)) / total


def positions(game, games: int, after: int, iterations: int, seed: int):
    """One (state, view) a game: the first decision once ``after`` tricks are done."""
    rng = np.random.default_rng(seed)
    player = make_agent("so_ismcts", game, iterations=iterations, belief="voids")
    out = []
    for _ in range(games):
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(st.sample_chance(rng))
                continue
            view = st.view(st.current_player())
            if st.data[TRICKS_DONE] >= after:
                out.append((st.data.copy(), view))
                break
            st.apply_action(player.act(view, rng))
    return out


def measure(game, evaluator, names, spots, worlds: int, seed: int) -> dict:
    """Per belief: mean and SE (over positions) of the placed-right share, seconds a world."""
    res = {}
    for name in names:
        belief, policy = _spec(name)
        b = make_search_belief(belief, game, evaluator, policy)
        rng, scores, t0 = np.random.default_rng(seed), [], time.perf_counter()
        for truth, view in spots:
            b.reset()
            scores.append(placed_right(b.sample_many(view, worlds, rng), truth, view.player,
                                       game.num_players))
        sec = (time.perf_counter() - t0) / (worlds * len(spots))
        s = np.asarray(scores)
        res[name] = {"placed_right": float(s.mean()),
                     "se": float(s.std(ddof=1) / np.sqrt(len(s))) if len(s) > 1 else 0.0,
                     "seconds_per_world": sec, "positions": len(s)}
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--worlds", type=int, default=64)
    ap.add_argument("--after-tricks", type=int, default=3)
    ap.add_argument("--iterations", type=int, default=300, help="so_ismcts's, for positions")
    ap.add_argument("--beliefs", nargs="+", default=["voids", "gibbs", "gibbs:network"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--output", default=None)
    args = ap.parse_args(argv)
    try:
        planner = load_planner(args.checkpoint, device="cpu")
        game = planner.game
        if game.name != "tricks":
            raise IszError(f"belief_accuracy needs a tricks-family checkpoint, got game "
                           f"{game.name!r}")
        hand = int(game.params["hand_size"])
        after = check_int("--after-tricks", args.after_tricks, lo=0, hi=hand - 1)
        for name in args.beliefs:
            if _spec(name)[0] not in ("voids", "gibbs", "uniform") or \
                    _spec(name)[1] not in ("network", "uniform"):
                raise IszError(f"--beliefs entry {name!r}: use voids, uniform, gibbs or "
                               f"gibbs:network")
        spots = positions(game, check_int("--games", args.games, lo=2), after,
                          check_int("--iterations", args.iterations, lo=1), args.seed)
        res = measure(game, planner.evaluator, args.beliefs, spots,
                      check_int("--worlds", args.worlds, lo=1), args.seed + 1)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for name, r in res.items():
        print(f"{name:15s} placed right {r['placed_right']:.4f} ± {r['se']:.4f}  "
              f"({r['seconds_per_world'] * 1e3:.2f} ms a world, {r['positions']} positions)")
    if args.output:
        write_json_atomic(Path(args.output), {"config": vars(args), "beliefs": res})
    return 0


if __name__ == "__main__":
    sys.exit(main())
