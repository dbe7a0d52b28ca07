"""Does a playout learned from the search keep paying off? Playout policy iteration.

Generation 0 is rollout so_ismcts (``voids``) with uniformly random playouts.
Generation g plays itself (every seat, a fixed number of iterations a move), and the
``tricks_learned`` softmax (`research.playouts.learned`) is fitted by maximum likelihood
to its card plays: those weights are the playout of generation g + 1 (leaf
``tricks_learned_g{g+1}``; bids below the tree stay the greedy rule's). Expert
iteration with a fast policy: the search is the expert, the playout the apprentice
that makes the next expert. Each generation's weights, the held-out fit (games of
another seed) and timings go to ``DIR/weights_g{g}.json``; a finished generation is
not redone.

    python -m research.playouts.iterate --game oh_hell --generations 3 --games 1200 \\
        --iterations 2000 --seed 0 --dir runs/playouts/iter

The ladder is then a match of the generations at equal time per move
(``research.playouts.match --learned DIR``, seats ``leaf=tricks_learned_g{g}``).
"""

from __future__ import annotations

import argparse
import glob
import re
import time
from pathlib import Path

import numpy as np

from isz import make_agent, make_game
from isz.fs import write_json_atomic
from research.location.data import play
from research.playouts.learned import design, fit, judge, moves, register

PREFIX = "tricks_learned_g"


def leaf_of(generation: int) -> str:
    """The leaf generation ``generation`` searches with (0: uniformly random)."""
    return "playout" if generation == 0 else f"{PREFIX}{generation}"


def register_dir(directory: str) -> list[str]:
    """Register every ``DIR/weights_g{g}.json`` as leaf ``tricks_learned_g{g}``; the
    names, in generation order."""
    names = []
    for path in sorted(glob.glob(f"{directory}/weights_g*.json"),
                       key=lambda p: int(re.findall(r"\d+", Path(p).stem)[-1])):
        g = int(re.findall(r"\d+", Path(path).stem)[-1])
        register(path, leaf_of(g))
        names.append(leaf_of(g))
    return names


def positions(game, generation: int, games: int, iterations: int, seed: int, path: Path):
    """Self-play positions of generation ``generation`` (cached in ``path``)."""
    if not path.exists():
        agent = make_agent("so_ismcts", game, iterations=iterations, belief="voids",
                           leaf=leaf_of(generation))
        states, seats = play(agent, game, games, seed, progress=False)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, states=states, seats=seats)
        tmp.rename(path)
    return str(path)


def generation(game, g: int, a: argparse.Namespace, out: Path) -> dict:
    """Play generation ``g``, fit generation ``g + 1``'s playout to its moves."""
    t0 = time.perf_counter()
    train = positions(game, g, a.games, a.iterations, a.seed + g, out / f"g{g}.npz")
    test = positions(game, g, a.test_games, a.iterations, a.seed + 1000 + g,
                     out / f"g{g}_test.npz")
    t1 = time.perf_counter()
    m, mt = moves([train], game), moves([test], game)
    w = fit(*design(m, game))
    rec = {"generation": g + 1, "fitted_on": leaf_of(g), "data": train, "test": test,
           "iterations": a.iterations, "train_rows": len(m["played"]),
           "weights": w.tolist(), "held_out": judge(*design(mt, game), w, game, mt),
           "self_play_s": round(t1 - t0, 1), "fit_s": round(time.perf_counter() - t1, 1)}
    write_json_atomic(out / f"weights_g{g + 1}.json", rec)
    return rec


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="oh_hell")
    ap.add_argument("--generations", type=int, default=3)
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--test-games", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dir", required=True)
    a = ap.parse_args(argv)
    game, out = make_game(a.game), Path(a.dir)
    out.mkdir(parents=True, exist_ok=True)
    for g in range(a.generations):
        register_dir(a.dir)
        if (out / f"weights_g{g + 1}.json").exists():
            continue
        rec = generation(game, g, a, out)
        h = rec["held_out"]
        print(f"generation {g + 1}: fitted on {rec['fitted_on']} "
              f"({rec['train_rows']} plays, {rec['self_play_s']} s self-play): held-out "
              f"NLL {h['nll']:.3f} (uniform {h['uniform_nll']:.3f}), top-1 "
              f"{h['top1']:.3f} (greedy {h['greedy_top1']:.3f})", flush=True)


if __name__ == "__main__":
    main()
