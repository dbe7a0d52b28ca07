"""Oh Hell: isz ``tricks`` with OpenSpiel's rules ~ OpenSpiel ``oh_hell``.

An isz tricks game with ``trump="card"``, ``bidding``, ``hook``,
``dealer="chance"`` and 3+ players is OpenSpiel's
``oh_hell(players=P, num_suits=S, num_cards_per_suit=R, num_tricks_fixed=H)``
(the ``oh_hell`` preset: ``oh_hell(num_tricks_fixed=10)``). The histories
differ in three ways, none of which changes the game:

- OpenSpiel starts with a one-outcome "number of tricks" chance node (``H``);
- OpenSpiel deals card ``i`` to seat ``i % P``, isz to the seat ``i`` places
  left of the dealer; hands are sets in both views, so a history is rebuilt
  by dealing each seat the same cards (ascending). A history stopped in the
  middle of a round of the deal has no twin unless seat 0 is left of the dealer;
- cards: isz ``suit * R + rank`` with suits SHDC, OpenSpiel ``rank * S + suit``
  with suits CDSH (suits are matched by name; bids are ``C + bid`` in both).

OpenSpiel returns raw points (tricks + 10 for an exact bid); isz returns their
ranks (`isz.games.tricks`), which `returns` computes from the points.
"""

from __future__ import annotations

import numpy as np

from isz.games import tricks_kernel as K
from isz.games.base import Game, State
from isz.games.tricks import SUIT_CHARS
from isz.openspiel.twin import Twin, pyspiel, register_twin
from isz.types import IszError

OPENSPIEL_SUITS = "CDSH"


def _suit_map(suits: int) -> list[int]:
    """isz suit -> OpenSpiel suit: same letter where both have it, else in order."""
    ours, theirs = SUIT_CHARS[:suits], OPENSPIEL_SUITS[:suits]
    left = [j for j, ch in enumerate(theirs) if ch not in ours]
    return [theirs.index(ch) if ch in theirs else left.pop(0) for ch in ours]


class OhHellTwin(Twin):
    """A tricks game with Oh Hell rules ~ OpenSpiel ``oh_hell``."""

    def __init__(self, game: Game, openspiel_game):
        super().__init__(game, openspiel_game)
        self.players, self.hand = game.num_players, game.hand_size
        self.cards, s, r = game.num_cards, game.suits, game.ranks
        suit = _suit_map(s)
        self._to_os = np.array([(c % r) * s + suit[c // r] for c in range(self.cards)])
        self._from_os = np.argsort(self._to_os)

    def card_to_openspiel(self, card: int) -> int:
        return int(self._to_os[card])

    def card_from_openspiel(self, card: int) -> int:
        return int(self._from_os[card])

    def action_to_openspiel(self, action: int) -> int:
        return self.card_to_openspiel(action) if action < self.cards else int(action)

    def action_from_openspiel(self, action: int) -> int:
        return self.card_from_openspiel(action) if action < self.cards else int(action)

    def chance_from_openspiel(self, os_state, outcome: int) -> int:
        """OpenSpiel's chance outcome at ``os_state`` as isz's (dealer seats stay)."""
        return int(outcome) if len(os_state.history()) < 2 else self.card_from_openspiel(outcome)

    def _check_deal(self, dealt: int, dealer: int) -> None:
        if dealt % self.players and (dealer + 1) % self.players != 0:
            raise IszError(f"{self.game.name}: {dealt} cards dealt from the seat left of "
                           f"dealer {dealer}: a deal stopped mid-round has no OpenSpiel twin")

    def history(self, state: State) -> list[int]:
        s, n = state.data, self.players
        out = [self.hand]
        dealer = int(s[K.DEALER])
        if dealer < 0:
            return out
        dealt = int(s[K.NDEALT])
        self._check_deal(dealt, dealer)
        hands = [[c for c in range(self.cards) if (int(s[K.INIT + p]) >> c) & 1]
                 for p in range(n)]
        out += [dealer] + [self.card_to_openspiel(hands[i % n][i // n]) for i in range(dealt)]
        if s[K.TCARD] >= 0:
            out.append(self.card_to_openspiel(int(s[K.TCARD])))
        first = (dealer + 1) % n
        out += [self.cards + int(s[K.BID + (first + i) % n]) for i in range(s[K.NBIDS])]
        out += [self.card_to_openspiel(int(c)) for c in s[K.PLAYS:K.PLAYS + s[K.NPLAYED]]]
        return out

    def isz_history(self, os_state) -> list[int]:
        h, n = [int(a) for a in os_state.history()], self.players
        if len(h) < 2:
            return []  # OpenSpiel's trick-count node: isz starts at the dealer's
        dealer, rest = h[1], h[2:]
        deals = [self.card_from_openspiel(c) for c in rest[:n * self.hand]]
        self._check_deal(len(deals), dealer)
        hands = [sorted(deals[p::n]) for p in range(n)]
        first = (dealer + 1) % n
        out = [dealer] + [hands[(first + i) % n][i // n] for i in range(len(deals))]
        return out + [self.action_from_openspiel(a) for a in rest[n * self.hand:]]

    def returns(self, os_state) -> list[float]:
        """Rank returns ``2x - 1``, ``x = (#below + 0.5 #equal) / (P - 1)``, of the points."""
        pts = np.asarray(os_state.returns())
        below = (pts[:, None] > pts[None, :]).sum(1)
        equal = (pts[:, None] == pts[None, :]).sum(1) - 1
        return (2 * (below + 0.5 * equal) / (self.players - 1) - 1).tolist()


def _is_oh_hell(game: Game) -> bool:
    p = game.params
    return (game.name == "tricks" and p["trump"] == "card" and p["bidding"] and p["hook"]
            and p["dealer"] == "chance" and p["players"] >= 3)


def _make(game: Game) -> Twin:
    p = game.params
    os_game = pyspiel().load_game("oh_hell", {
        "players": p["players"], "num_suits": p["suits"], "num_cards_per_suit": p["ranks"],
        "num_tricks_fixed": p["hand_size"]})
    return OhHellTwin(game, os_game)


register_twin(_is_oh_hell, _make)
