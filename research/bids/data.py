"""Self-play bids with their outcomes, one seat's bid moved at random in every game.

Every seat is a checkpoint's planner at a fixed number of iterations a move. In each
game one seat, drawn uniformly, is the explorer: its bid is the planner's bid plus
δ ∈ {-1, 0, +1} drawn uniformly (the planner's own bid where the moved one is
illegal); its card play then aims at the bid it made. The other seats bid as the
planner does. That gives what a bid model needs beyond the planner's habits: the
outcome of the bids next to the one it would make. A row per seat per game:

- ``states`` int64[N, S]: the true state when the seat bid (its features are read
  from its view only: `research.bids.features`);
- ``seats``, ``own`` (the planner's bid), ``bid`` (the bid made), ``explored`` (1 for
  the explorer's row), ``won`` (tricks it took), ``points``, ``ret`` (its return).

    python -m research.bids.data runs/oh_hell_p0_s2/checkpoints/last.pt \\
        --games 3000 --iterations 500 --seed 0 --output runs/bids/p0_s0.npz
"""

from __future__ import annotations

import time

import numpy as np

from isz import make_game
from isz.games import tricks_kernel as K
from isz.games.tricks import points
from research.location.data import player, self_play_args

FIELDS = ("states", "seats", "own", "bid", "explored", "won", "points", "ret")


def explore_bid(view, own: int, rng: np.random.Generator, num_cards: int) -> int:
    """The action of bid ``own`` moved by a uniform δ in {-1, 0, +1}; ``own``'s action
    where the moved bid is not legal in ``view``."""
    moved = num_cards + own + int(rng.integers(-1, 2))
    return moved if moved in view.legal_actions else num_cards + own


def play_game(agent, game, rng: np.random.Generator) -> dict[str, list]:
    """One self-play game; the rows of its bids (module docstring)."""
    st, c = game.new_initial_state(), game.num_cards
    agent.reset()
    explorer = int(rng.integers(game.num_players))
    rows: dict[int, dict] = {}
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(st.sample_chance(rng))
            continue
        p, view = st.current_player(), st.view(st.current_player())
        action = int(agent.act(view, rng))
        if st.data[K.PHASE] == K.PH_BID:
            made = explore_bid(view, action - c, rng, c) if p == explorer else action
            rows[p] = {"states": np.array(st.data), "seats": p, "own": action - c,
                       "bid": made - c, "explored": int(p == explorer)}
            action = made
        st.apply_action(action)
    pts, ret = points(st), st.returns()
    for p, r in rows.items():
        r.update(won=int(st.data[K.WON + p]), points=pts[p], ret=ret[p])
    return {f: [rows[p][f] for p in sorted(rows)] for f in FIELDS}


def play(agent, game, games: int, seed: int, progress: bool = True) -> dict[str, np.ndarray]:
    """The rows of ``games`` games (module docstring), concatenated."""
    rng = np.random.default_rng(seed)
    out: dict[str, list] = {f: [] for f in FIELDS}
    t0 = time.perf_counter()
    for g in range(games):
        for f, v in play_game(agent, game, rng).items():
            out[f] += v
        if progress and (g + 1) % 100 == 0:
            print(f"{g + 1}/{games} games, {time.perf_counter() - t0:.0f} s", flush=True)
    return {f: np.asarray(v) for f, v in out.items()}


def main(argv=None) -> None:
    a = self_play_args(__doc__).parse_args(argv)
    game = make_game(a.game)
    rows = play(player(a.checkpoint, game, a.iterations), game, a.games, a.seed)
    np.savez_compressed(a.output, **rows)
    print(f"wrote {a.output}: {len(rows['bid'])} bids")


if __name__ == "__main__":
    main()
