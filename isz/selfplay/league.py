"""A fixed member in the self-play league: rollout search at some seats.

Pure self-play trains the network against itself: the planner teacher's targets are
searched in positions its own play reaches, and what it learns there is what pays
against itself. With ``league = s > 0`` a share ``s`` of the games (drawn per game from
the chunk's generator) seats one rollout searcher, at a seat drawn at random: the
teacher's own search with nothing of the network in it (no priors at its root, random
playouts, worlds from the game's best belief that takes no policy: so_ismcts as the
arena plays it, at ``teacher_iterations`` a move). Its moves are played, not learned
from: the game's positions of the other seats are recorded as usual (their targets the
planner teacher's), so the network learns to play in the positions a rollout searcher
leads to, beside those its own play leads to. A league member is an opponent, never a
teacher: nothing of the network's targets comes from its search.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from isz.selfplay.teacher import teacher_search

NO_SEAT = -1


def league_seat(share: float, num_players: int, rng: np.random.Generator) -> int:
    """The seat of a new game's rollout member (`NO_SEAT` for a game of self-play alone):
    with probability ``share`` a seat drawn uniformly. Draws nothing at ``share = 0``, so
    a run without a league is the same run as before the league existed."""
    if share <= 0 or rng.random() >= share:
        return NO_SEAT
    return int(rng.integers(num_players))


def member_search(game, sample: Callable[[int], np.ndarray], view, iterations: int,
                  rng: np.random.Generator) -> np.ndarray:
    """The rollout member's policy at ``view``: float32[num_actions], the visits of the
    teacher's search without the network (``sample(n)``: worlds from the member's own
    belief)."""
    pi, _ = teacher_search(game, sample, view, iterations, rng)
    return pi
