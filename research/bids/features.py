"""Features of a seat's view when it bids in Oh Hell, with the suits put in a
canonical order (the bid's outcome does not change when two plain suits swap).

Suits: the trump suit first, then the other suits by (cards held, their ranks as a
binary number), most first. ``features(view)`` is float32[F] with F = `size(game)`:

    held ranks of each canonical suit S x R | trump card's rank R |
    cards held per canonical suit S (/ hand size) | bidding position P (one-hot) |
    each earlier bid (P - 1) x (H + 2), one-hot over {none, 0..H} |
    sum of the earlier bids (/ hand size)

Only the view is read (the seat's hand, the trump card, the bids made): no hidden
card. ``bid_features(b, game)`` is float32[H + 2]: bid b one-hot over 0..H, and b / H.
"""

from __future__ import annotations

import numpy as np

from isz.games.base import Game, View


def size(game: Game) -> int:
    """F: the length of `features`."""
    s, r, p, h = game.params["suits"], game.params["ranks"], game.num_players, \
        game.params["hand_size"]
    return s * r + r + s + p + (p - 1) * (h + 2) + 1


def bid_size(game: Game) -> int:
    """The length of `bid_features`."""
    return game.params["hand_size"] + 2


def _suit_order(hand: int, trump_suit: int, suits: int, ranks: int) -> list[int]:
    """Suits in canonical order: trump first, then (count, rank bits) descending."""
    bits = [(hand >> (s * ranks)) & ((1 << ranks) - 1) for s in range(suits)]
    plain = sorted((s for s in range(suits) if s != trump_suit),
                   key=lambda s: (bin(bits[s]).count("1"), bits[s]), reverse=True)
    return ([trump_suit] if trump_suit >= 0 else []) + plain


def features(view: View) -> np.ndarray:
    """float32[`size`] of a seat's view at its bid (module docstring)."""
    g = view.game
    s, r, p, h = g.params["suits"], g.params["ranks"], g.num_players, g.params["hand_size"]
    hand, _, _, tcard, nbids, *rest = view.data
    bids = rest[:nbids]
    tsuit = tcard // r if tcard >= 0 else -1
    out = np.zeros(size(g), dtype=np.float32)
    order = _suit_order(int(hand), tsuit, s, r)
    for i, su in enumerate(order):
        for k in range(r):
            out[i * r + k] = (int(hand) >> (su * r + k)) & 1
    o = s * r
    if tcard >= 0:
        out[o + tcard % r] = 1.0
    o += r
    out[o:o + s] = out[:s * r].reshape(s, r).sum(1) / h
    o += s
    out[o + min(nbids, p - 1)] = 1.0
    o += p
    for i in range(p - 1):
        out[o + i * (h + 2) + (bids[i] + 1 if i < nbids else 0)] = 1.0
    out[-1] = sum(bids) / h
    return out


def bid_features(b: int, game: Game) -> np.ndarray:
    """float32[`bid_size`]: bid ``b`` one-hot over 0..H, then b / H."""
    h = game.params["hand_size"]
    out = np.zeros(h + 2, dtype=np.float32)
    out[b] = 1.0
    out[-1] = b / h
    return out


def neighbour_bids(own: int, legal, num_cards: int) -> list[int]:
    """``[own, *its legal neighbours]``: the bids a bid model picks among (``legal``:
    the legal actions; bid b is action ``num_cards + b``)."""
    return [own] + [k for k in (own - 1, own + 1) if num_cards + k in legal]
