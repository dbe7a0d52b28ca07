"""Trick-taking card games (the seed's 12-card game grown up), and Oh Hell.

Rules of ``tricks`` (all parameters keyword):

- ``players`` 2..4 (2), ``suits`` 1..4 (3), ``ranks`` 2..13 (4), ``hand_size``
  (4): a deck of ``C = suits * ranks`` cards, ``hand_size`` cards to each seat;
  the undealt cards are a stock nobody ever sees.
- ``trump``: ``"none"`` (highest card of the led suit wins), ``"fixed"`` (suit 0
  is trump), ``"card"`` (after the deal one card is turned up from the stock;
  its suit is trump; it is public and out of play).
- ``bidding``: each seat bids 0..hand_size once, starting left of the dealer;
  ``hook``: the last bidder may not make the bids sum to ``hand_size``.
- ``dealer``: ``"fixed"`` (the last seat deals, so seat 0 receives first and
  leads, as in the seed) or ``"chance"`` (a chance node picks it uniformly).
- Deal: one chance node per card, round robin from the seat left of the
  dealer, each uniform over the undealt cards. Play: left of the dealer leads;
  follow the led suit if able; the highest trump wins if any was played, else
  the highest card of the led suit; the winner leads next; ``hand_size`` tricks.
- Score (`points`): tricks won, plus 10 for exactly the bid when bidding.
  `returns()` rank the scores: ``2x - 1`` with ``x = (#others below + 0.5 *
  #others equal) / (players - 1)`` (two players: +1 win, 0 tie, -1 loss).

Cards are ``suit * ranks + rank`` (suit-major: a suit is a contiguous bit
range of an ``int64`` mask). Actions: ``0..C-1`` play that card, ``C + b`` bid
``b``; ``num_actions = C + hand_size + 1`` with bidding, else ``C``. Chance
outcomes: the dealer seat, a dealt card, the trump card.

Preset ``oh_hell`` matches OpenSpiel's ``oh_hell(num_tricks_fixed=10)`` (3
players, 52 cards, 10 tricks, trump card, bidding, random dealer): the same
leader and bidding order (left of the dealer), the same hook rule, the same
trick and scoring rules (1 per trick, +10 for an exact bid, no off-bid
penalty). Differences, none of which changes the game: OpenSpiel always deals
the first card to seat 0 (isz: left of the dealer; hands are uniform sets
either way), has a one-outcome "number of tricks" chance node first, numbers
cards rank-major with suits CDSH (isz: suit-major, SHDC), and returns the raw
points where isz returns ranks (raw points: `points`).

The stock is implicit: the cards in no initial hand that are not the trump
card. State array (int64, ``31 + P*H + H``): ``[0] phase`` (0 dealer, 1 deal,
2 trump, 3 bid, 4 play, 5 over), ``[1]`` seat to move (the receiver while
dealing), ``[2]`` dealer, ``[3]`` cards dealt, ``[4]`` trump card, ``[5]`` trump
suit (-1 none), ``[6]`` bids made, ``[7]`` cards played, ``[8]`` leader of the
current trick, ``[9:11]`` winning card and seat of the current trick, ``[11]``
position in the trick, ``[12]`` tricks done, ``[13]`` mask of dealt cards and
trump, ``[14]`` mask of played cards, ``[15:19]`` current hands, ``[19:23]``
initial hands, ``[23:27]`` bids (-1 none), ``[27:31]`` tricks won (4 seats
each, unused past P), ``[31:31+P*H]`` played cards in order, then ``[H]`` the
leader of each trick.

View data: ``(initial hand mask, cards dealt, dealer, trump card, n_bids,
*bids in bidding order, n_plays, *(seat, card) per play)``. Players pick up
their hand as a set: the order in which a player received its cards is not
part of its information state.

Tensor (float32, flat; seats relative to the observer, ``(seat - player) % P``):
own hand C | own initial hand C | trump card one-hot C | trump suit one-hot S |
dealer P | bids P x (H + 2) one-hot over {none, 0..H} | tricks won P x H
(thermometer: ``i < won``) | seat to move P | the observer's own absolute seat
P (one-hot: the value head is per absolute seat, and with a dealer drawn by
chance nothing relative says which seat is the observer's) | plays H x P x
(C + P): for trick ``t`` and position ``k`` the card one-hot and the player's
seat one-hot.

The uniform sampler (`Kernel.redeterminize`) is the seed's reshuffle: it
ignores voids, dealing the unseen cards uniformly to the other seats' hand
slots and the stock.
"""

from __future__ import annotations

import numpy as np

from isz.games import tricks_features as TF
from isz.games import tricks_kernel as K
from isz.games.base import Game, State, View
from isz.games.kernel import Kernel
from isz.games.registry import register, register_preset
from isz.types import CHANCE, IszError, check_choice, check_int

SUIT_CHARS = "SHDC"
RANK_CHARS_13 = "23456789TJQKA"

KERNEL = Kernel(K._current_player, K._legal_actions, K._chance_outcomes, K._apply_action,
                K._returns, K._observe, K._info_tensor, K._redeterminize, K._info_key,
                TF.action_score, TF.F, (TF.F_OLD,))


def _check_bool(what: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise IszError(f"{what} must be True or False, got {value!r}")
    return bool(value)


def _bits(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if (mask >> c) & 1]


def points(state: State) -> list[int]:
    """Raw scores per seat: tricks won (+10 for an exact bid); the score so far
    before the end."""
    g = state.game
    return [int(K._points(state.data, g.kparams, p)) for p in range(g.num_players)]


@register
class Tricks(Game):
    """Trick-taking with optional trump and bidding (rules in the module docstring)."""

    name = "tricks"
    PARAMS = {"players": 2, "suits": 3, "ranks": 4, "hand_size": 4, "trump": "none",
              "bidding": False, "dealer": "fixed", "hook": False}

    def __init__(self, **params):
        super().__init__(**params)
        p = self.params
        n = check_int("players", p["players"], 2, 4)
        su = check_int("suits", p["suits"], 1, 4)
        r = check_int("ranks", p["ranks"], 2, 13)
        h = check_int("hand_size", p["hand_size"], 1, None)
        check_choice("trump", p["trump"], ("none", "fixed", "card"))
        bidding = _check_bool("bidding", p["bidding"])
        check_choice("dealer", p["dealer"], ("fixed", "chance"))
        hook = _check_bool("hook", p["hook"])
        if hook and not bidding:
            raise IszError("hook=True needs bidding=True")
        c = su * r
        need = n * h + (p["trump"] == "card")
        if need > c:
            raise IszError(
                f"hands do not fit the deck: players*hand_size{' + 1 trump card' * (need > n * h)}"
                f" = {need} > suits*ranks = {c}")
        self.num_players, self.suits, self.ranks, self.hand_size, self.num_cards = n, su, r, h, c
        self.num_actions = c + h + 1 if bidding else c
        self.max_chance_outcomes = max(c, n)
        self.state_size = K.PLAYS + n * h + h
        self.max_game_length = ((p["dealer"] == "chance") + n * h + (p["trump"] == "card")
                                + n * bidding + n * h)
        self.kernel = KERNEL
        self.kparams = self._kparams(n, su, r, h, bidding, hook)
        self.tensor_shape = (int(self.kparams[K.K_T_PLAYS]) + h * n * (c + n),)

    def _kparams(self, n, su, r, h, bidding, hook) -> np.ndarray:
        c = su * r
        kp = np.zeros(K.K_SUITOF + c, dtype=np.int64)
        tmode = {"none": K.TRUMP_NONE, "fixed": K.TRUMP_FIXED, "card": K.TRUMP_CARD}
        kp[:K.K_TLEAD + 1] = [n, su, r, h, c, tmode[self.params["trump"]], bidding, hook,
                              K.PLAYS + n * h]
        sizes = [c, c, c, su, n, n * (h + 2), n * h, n, n]  # hand .. turn, seat; plays last
        kp[K.K_T_INIT:K.K_T_PLAYS + 1] = np.cumsum(sizes)
        for s in range(su):
            kp[K.K_SUITMASK + s] = ((1 << r) - 1) << (s * r)
        kp[K.K_SUITOF:] = np.arange(c) // r
        return kp

    def initial_data(self) -> np.ndarray:
        s = np.full(self.state_size, -1, dtype=np.int64)
        s[[K.PHASE, K.NDEALT, K.NBIDS, K.NPLAYED, K.POS, K.TRICK, K.USED, K.PLAYED]] = 0
        s[K.HAND:K.BID] = 0
        s[K.WON:K.WON + 4] = 0
        if self.params["trump"] == "fixed":
            s[K.TSUIT] = 0
        if self.params["dealer"] == "fixed":
            K._apply_action(s, self.kparams, self.num_players - 1)
        return s

    # -- views -------------------------------------------------------------
    def _play_seat(self, s: np.ndarray, i: int) -> int:
        n = self.num_players
        return int(s[self.kparams[K.K_TLEAD] + i // n] + i % n) % n

    def view_data(self, state: State, player: int) -> tuple:
        s, n = state.data, self.num_players
        first = int(s[self.kparams[K.K_TLEAD]])
        bids = [int(s[K.BID + (first + i) % n]) for i in range(s[K.NBIDS])]
        plays = []
        for i in range(s[K.NPLAYED]):
            plays += [self._play_seat(s, i), int(s[K.PLAYS + i])]
        return (int(s[K.INIT + player]), int(s[K.NDEALT]), int(s[K.DEALER]), int(s[K.TCARD]),
                len(bids), *bids, len(plays) // 2, *plays)

    def state_from_view(self, view: View) -> State:
        """Replays the view with canonical hidden cards: the other seats get the
        cards they played plus the lowest unseen card ids (seat order); voids
        are ignored."""
        own, dealt, dealer, tcard, nbids, *rest = view.data
        bids, plays = rest[:nbids], rest[nbids + 1:]
        n, me = self.num_players, view.player
        state = self.new_initial_state()
        if dealer < 0:
            return state
        apply = self.kernel.apply_action
        if self.params["dealer"] == "chance":
            apply(state.data, self.kparams, dealer)
        first = (dealer + 1) % n
        hands = {p: [] for p in range(n)}
        for seat, card in zip(plays[0::2], plays[1::2], strict=True):
            if seat != me:
                hands[seat].append(card)
        seen = own | (1 << tcard if tcard >= 0 else 0)
        free = [c for c in range(self.num_cards)
                if not (seen >> c) & 1 and c not in plays[1::2]]
        for p in range(n):
            if p == me:
                hands[p] = _bits(own)
                continue
            k = dealt // n + ((p - first) % n < dealt % n) - len(hands[p])
            hands[p] = sorted(hands[p] + free[:k])
            free = free[k:]
        for i in range(dealt):
            p = (first + i) % n
            apply(state.data, self.kparams, hands[p][i // n])
        for a in ([tcard] if tcard >= 0 else []) + [self.num_cards + b for b in bids]:
            apply(state.data, self.kparams, a)
        for card in plays[1::2]:
            apply(state.data, self.kparams, card)
        return state

    # -- text --------------------------------------------------------------
    def card_name(self, card: int) -> str:
        suit, rank = divmod(card, self.ranks)
        return SUIT_CHARS[suit] + (RANK_CHARS_13[rank] if self.ranks == 13 else str(rank))

    def action_to_string(self, action: int, player: int) -> str:
        if action >= self.num_cards:
            return f"bid {action - self.num_cards}"
        if player == CHANCE and self.params["dealer"] == "chance" and action < self.num_players:
            return f"{self.card_name(action)} (or dealer {action})"
        return self.card_name(action)

    def _hand_str(self, mask: int) -> str:
        return " ".join(self.card_name(c) for c in _bits(mask)) or "-"

    def outcome_stats(self, state: State) -> dict[str, list[float]]:
        """Raw ``points`` per seat, and with bidding ``exact_bid`` (1 if the seat
        took exactly the tricks it bid)."""
        out = {"points": [float(x) for x in points(state)]}
        if self.params["bidding"]:
            d = state.data
            out["exact_bid"] = [float(d[K.BID + p] == d[K.WON + p])
                                for p in range(self.num_players)]
        return out

    def _trick_winner(self, s: np.ndarray, first: int) -> int:
        """Seat that won the complete trick of plays ``first .. first + P - 1``."""
        cards = [int(c) for c in s[K.PLAYS + first:K.PLAYS + first + self.num_players]]
        trump = int(s[K.TSUIT])
        suits = [c // self.ranks for c in cards]
        best = max(range(len(cards)), key=lambda j: (  # trump first, then the led suit
            suits[j] == trump and trump >= 0, suits[j] == suits[0], cards[j] % self.ranks))
        return self._play_seat(s, first + best)

    def describe_view(self, view: View) -> str:
        """Own hand, trump, bids, finished tricks and the trick on the table."""
        s, n, me = self.state_from_view(view).data, self.num_players, view.player
        if s[K.DEALER] < 0:
            return "the dealer is not chosen yet"
        lines = [f"dealer P{s[K.DEALER]}" + (f", trump card {self.card_name(int(s[K.TCARD]))}"
                                             if s[K.TCARD] >= 0 else "")]
        if self.params["bidding"]:  # public: bids, tricks won (the rest is own or hidden)
            lines.append("bids: " + ", ".join(
                f"P{p} {s[K.BID + p] if s[K.BID + p] >= 0 else '-'}" for p in range(n)))
        lines.append("tricks won: " + ", ".join(f"P{p} {s[K.WON + p]}" for p in range(n)))
        played = int(s[K.NPLAYED])
        for i in range(0, played - played % n, n):
            cards = ", ".join(f"P{self._play_seat(s, j)} {self.card_name(int(s[K.PLAYS + j]))}"
                              for j in range(i, i + n))
            lines.append(f"trick {i // n + 1}: {cards} -> P{self._trick_winner(s, i)}")
        if played % n:
            lines.append("on the table: " + ", ".join(
                f"P{self._play_seat(s, j)} {self.card_name(int(s[K.PLAYS + j]))}"
                for j in range(played - played % n, played)))
        lines.append(f"your hand (P{me}): {self._hand_str(int(s[K.HAND + me]))}")
        return "\n".join(lines)

    def describe(self, state: State) -> str:
        s, n = state.data, self.num_players
        if s[K.DEALER] < 0:
            return "choosing dealer"
        lines = [f"dealer {s[K.DEALER]}, dealt {s[K.NDEALT]}"
                 + (f", trump {self.card_name(int(s[K.TCARD]))}" if s[K.TCARD] >= 0 else "")]
        for p in range(n):
            bid = f", bid {s[K.BID + p]}" if s[K.BID + p] >= 0 else ""
            lines.append(f"P{p}: {self._hand_str(int(s[K.HAND + p]))} "
                         f"(won {s[K.WON + p]}{bid})")
        start = int(s[K.NPLAYED] - s[K.POS])
        if s[K.POS] > 0:
            trick = ", ".join(f"P{self._play_seat(s, i)} {self.card_name(int(s[K.PLAYS + i]))}"
                              for i in range(start, int(s[K.NPLAYED])))
            lines.append(f"trick: {trick}")
        if state.is_terminal():
            lines.append(f"points {points(state)}, returns {state.returns()}")
        return "\n".join(lines)


register_preset("oh_hell", "tricks", players=3, suits=4, ranks=13, hand_size=10,
                trump="card", bidding=True, dealer="chance", hook=True)
