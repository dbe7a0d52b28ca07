"""Self-play positions with the truth of where every unseen card lies.

A trick game's decision is recorded as the true state (int64[state_size]) and the
seat to move; `labels` turns the states into, per card, where it lies as that
seat sees it: -1 when the seat sees it (its hand, a played card, the turned-up
trump), else 0 for the stock (undealt) and r = 1..P-1 for the seat r places after
it. The players are a checkpoint's planner at a fixed number of iterations a move
in every seat (the network models its own play, as `sir` does), or rollout
so_ismcts.

    python -m research.location.data runs/oh_hell_p0_s2/checkpoints/last.pt \\
        --games 1500 --iterations 500 --seed 0 --output runs/location/p0_s0.npz
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from isz import load_planner, make_agent, make_game
from isz.belief.tricks_constraints import Constraints, constraints
from isz.games import tricks_kernel as K
from isz.games.base import State
from isz.training.playout_fit import decisions


def labels(states: np.ndarray, seats: np.ndarray, num_players: int,
           num_cards: int) -> np.ndarray:
    """int8[N, num_cards]: each card's location relative to ``seats[i]`` in
    ``states[i]`` (module docstring); -1 for the cards the seat sees."""
    n = len(states)
    cards = np.arange(num_cards, dtype=np.int64)
    out = np.zeros((n, num_cards), dtype=np.int8)  # 0: stock unless found below
    tc = states[:, K.TCARD]
    seen = ((states[np.arange(n), K.INIT + seats, None] >> cards) & 1).astype(bool)
    seen |= ((states[:, K.PLAYED, None] >> cards) & 1).astype(bool)
    seen |= (tc[:, None] == cards) & (tc[:, None] >= 0)
    for q in range(num_players):
        held = ((states[:, K.HAND + q, None] >> cards) & 1).astype(bool)
        rel = (q - seats) % num_players
        out[held] = np.broadcast_to(rel[:, None], held.shape)[held]
    out[seen] = -1
    return out


def play(agent, game, games: int, seed: int, progress: bool = True):
    """(states int64[N, S], seats int64[N]) over every decision of ``games`` games."""
    t0, n = time.perf_counter(), [0]
    states, seats = [], []

    def done(k: int) -> None:
        n[0] += k
        if progress and n[0] % 50 == 0:
            print(f"{n[0]}/{games} games, {len(states)} positions, "
                  f"{time.perf_counter() - t0:.0f} s", flush=True)

    for st, p, _ in decisions(agent, game, games, np.random.default_rng(seed), done):
        states.append(np.array(st.data, dtype=np.int64))
        seats.append(p)
    return np.stack(states), np.asarray(seats, dtype=np.int64)


def log_prior(states: np.ndarray, seats: np.ndarray, game) -> np.ndarray:
    """float32[N, C, L]: `prior_of` each position's seat's view of its state."""
    return np.stack([prior_of(constraints(State(game, s.copy()).view(int(p))), game)
                     for s, p in zip(states, seats, strict=True)])


def prior_of(c: Constraints, game) -> np.ndarray:
    """float32[C, L]: log of a public prior of each card's location (L as in `labels`)
    for the view ``c`` describes: in proportion to the unseen cards each location holds
    (hand sizes and the stock, `Constraints.sizes`), zero for a seat shown void in the
    card's suit. What a uniform deal gives, up to the voids' effect on the other cards;
    the net learns the rest on top of it. -30 where the prior is zero (rows of the cards
    the seat sees are not used)."""
    n, cards = game.num_players, np.arange(game.num_cards)
    rel = np.append((c.seats - c.player) % n, 0)  # each row's location; the stock last
    w = np.zeros((game.num_cards, n))
    w[:, rel] = np.where(c.void[:, cards // game.ranks].T, 0.0, c.sizes)
    tot = w.sum(1, keepdims=True)
    p = np.divide(w, tot, out=np.zeros_like(w), where=tot > 0)
    with np.errstate(divide="ignore"):
        return np.where(p > 0, np.log(p), -30.0).astype(np.float32)


def self_play_args(doc: str) -> argparse.ArgumentParser:
    """The command line of a self-play data tool: the players (a planner checkpoint or
    ``so_ismcts``), the game, how many games, iterations a move, seed, output file."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("checkpoint", help="a planner checkpoint, or 'so_ismcts'")
    ap.add_argument("--game", default="oh_hell")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--iterations", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--output", required=True)
    return ap


def player(checkpoint: str, game, iterations: int):
    """The agent in every seat: rollout so_ismcts with ``voids`` (``checkpoint`` is
    ``"so_ismcts"``), else the checkpoint's planner on CPU, ``iterations`` a move."""
    if checkpoint == "so_ismcts":
        return make_agent("so_ismcts", game, iterations=iterations, belief="voids")
    return load_planner(checkpoint, game, device="cpu", iterations=iterations,
                        time_budget=None)


def main(argv=None) -> None:
    a = self_play_args(__doc__).parse_args(argv)
    game = make_game(a.game)
    states, seats = play(player(a.checkpoint, game, a.iterations), game, a.games, a.seed)
    np.savez_compressed(a.output, states=states, seats=seats)
    print(f"wrote {a.output}: {len(states)} positions")


if __name__ == "__main__":
    main()
