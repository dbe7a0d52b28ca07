"""`isz.games.cards`: a mask's cards; what a seat saw of its own cards, and nothing else."""

from __future__ import annotations

import numpy as np

from isz.games import deal_from, popcount, seat_draws_key

DEAL, DRAW, PLAY = 0, 1, 2


def _key(steps, player=0):
    """steps: (card, kind, owner) a step."""
    tokens, kind, owner = (np.array(col, dtype=np.int64) for col in zip(*steps, strict=True))
    return int(seat_draws_key(tokens, len(steps), kind, owner, player, DEAL, DRAW))


def test_the_deal_is_a_set_and_the_draws_a_sequence():
    base = [(3, DEAL, 0), (7, DEAL, 1), (5, DEAL, 0), (9, PLAY, 1), (11, DRAW, 0), (2, DRAW, 0)]
    key = _key(base)
    assert key >= 0
    swapped_deal = [base[2], base[1], base[0], *base[3:]]
    assert _key(swapped_deal) == key  # the order of a deal is not seen
    swapped_draws = [*base[:4], base[5], base[4]]
    assert _key(swapped_draws) != key  # which card came first is
    later = [*base[:4], (9, PLAY, 1), *base[4:]]
    assert _key(later) != key  # and at which step


def test_other_seats_cards_do_not_count():
    mine = [(3, DEAL, 0), (5, DEAL, 0), (11, DRAW, 0)]
    theirs = [(4, DEAL, 1), (6, DRAW, 1), (8, PLAY, 1)]
    other = [(7, DEAL, 1), (1, DRAW, 1), (8, PLAY, 1)]
    assert _key(mine + theirs) == _key(mine + other)
    assert _key(mine + theirs, player=1) != _key(mine + other, player=1)


def test_a_dealt_card_and_a_drawn_card_differ():
    assert _key([(3, DEAL, 0), (5, DEAL, 0)]) != _key([(3, DEAL, 0), (5, DRAW, 0)])
    assert _key([(3, DEAL, 0)]) != _key([(5, DEAL, 0)])


def test_popcount():
    assert [popcount(m) for m in (0, 1, 0b1011, (1 << 51) | 1, (1 << 63) - 1)] == [0, 1, 3, 2, 63]


def test_deal_from_the_cards_left():
    out_a, out_p = np.full(8, -1, dtype=np.int64), np.zeros(8)
    k = deal_from(0b0010_1101, 8, out_a, out_p)
    assert k == 4 and out_a[:k].tolist() == [1, 4, 6, 7]
    assert out_p[:k].tolist() == [0.25] * 4 and out_p[k:].tolist() == [0.0] * 4
