"""`play_deals` over forked workers: a worker's error reaches the caller, a worker
that dies is an error rather than a hang, and a match stopped part-way leaves no
worker behind."""

from __future__ import annotations

import multiprocessing as mp
import os

import numpy as np
import pytest

import isz
from isz.agents.base import RandomAgent
from isz.evaluation.pool import play_deals

# a hang here is the bug these tests guard against: fail fast instead
pytestmark = pytest.mark.timeout(60, method="thread")


class Fails(RandomAgent):
    """Random, except that in a worker process its third move of a game raises
    (``how="raise"``) or kills the worker (``how="exit"``)."""

    def __init__(self, game, how: str):
        super().__init__(game)
        self.how, self.moves = how, 0

    def reset(self) -> None:
        self.moves = 0

    def act(self, view, rng: np.random.Generator) -> int:
        self.moves += 1
        if self.moves == 3 and os.getpid() != PARENT:
            if self.how == "raise":
                raise ValueError("bad move 7")
            os._exit(3)  # as a segfault or the OOM killer would
        return super().act(view, rng)


PARENT = os.getpid()


def _agents(how: str):
    game = isz.make_game("tricks")
    return game, [Fails(game, how), RandomAgent(game)]


def _children() -> set[int]:
    return {p.pid for p in mp.active_children()}


def test_a_workers_error_reaches_the_caller_with_its_type_and_text():
    game, agents = _agents("raise")
    before = _children()
    with pytest.raises(ValueError, match="bad move 7"):
        play_deals(game, agents, 0, range(4), 2, lambda deal, out: None)
    assert _children() == before  # the workers were stopped


def test_a_worker_that_dies_is_an_error_not_a_hang():
    game, agents = _agents("exit")
    with pytest.raises(RuntimeError, match=r"died with exit code 3 while playing deal \d"):
        play_deals(game, agents, 0, range(4), 2, lambda deal, out: None)


def test_stopping_part_way_kills_the_workers_and_returns_at_once():
    game = isz.make_game("tricks")
    agents = [isz.make_agent("so_ismcts", game, iterations=200), RandomAgent(game)]
    seen = []

    def stop(deal, outcome):
        seen.append(deal)
        raise KeyboardInterrupt  # Ctrl-C while the other worker is mid-deal

    before = _children()
    with pytest.raises(KeyboardInterrupt):
        play_deals(game, agents, 0, range(20), 2, stop)
    assert len(seen) == 1 and _children() == before


def test_every_deal_comes_back_once_in_some_order():
    game = isz.make_game("tricks")
    agents = [RandomAgent(game), RandomAgent(game)]
    got = {}
    play_deals(game, agents, 3, range(7), 3, lambda deal, out: got.setdefault(deal, out))
    assert sorted(got) == list(range(7))
    one = {}
    play_deals(game, agents, 3, range(7), 1, lambda deal, out: one.setdefault(deal, out))
    for deal in range(7):  # the same deal is the same game on any worker
        np.testing.assert_array_equal(got[deal].scores, one[deal].scores)
