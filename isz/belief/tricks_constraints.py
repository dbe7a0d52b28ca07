"""Public constraints of a trick-taking view, max-flow construction, world writing.

For the observer of a `tricks` (or ``oh_hell``) view the cards split into
known (own initial hand, every played card, the turned-up trump card) and
unknown. Chance deals uniformly, so a world is a partition of the unknown
cards into **rows**: the other seats (their remaining hands, seat order) and
last the *stock* (undealt cards and the stock: nobody's hand, no constraint).
Row sizes are public (cards received minus cards played).

The only other public constraint is a **void**: a seat that did not follow
the led suit held none of it then, so it holds none now and never will. Voids
bind the cards a seat holds *now*; what it already played is known and stays
in its initial hand. A partition respecting the row sizes and the voids gives a
legal history (every follow-suit play was forced or free), and conversely.

A *suit-length assignment* (table) is ``int[R, S]``: how many unknown cards of
each suit a row holds; void cells are fixed to zero, row sums are the row
sizes, column sums the unknown cards per suit. Seed 003 builds one by integer
max-flow (source -> suit -> row -> sink), `construct_table`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numba as nb
import numpy as np

from isz.games import tricks_kernel as K
from isz.games.base import Game, State, View
from isz.types import IszError

SUPPORTED = ("oh_hell", "tricks")


def check_tricks(who: str, game: Game) -> None:
    """`IszError` naming ``who``, the game and the supported ones unless it is a tricks
    game (``who``: e.g. "belief 'voids'")."""
    if game.name != "tricks":
        raise IszError(f"{who} does not support game {game.label!r}; "
                       f"supported: {', '.join(SUPPORTED)}")


@dataclass(frozen=True, eq=False)
class Constraints:
    """What a view says about the unknown cards (R = rows: other seats + stock).

    Attributes:
        player: the observer.
        seats: int64[R-1], the seat of each hand row (seat order, observer excluded).
        sizes: int64[R], unknown cards in each row (remaining hand sizes; stock last).
        unknown: int64[m], the unseen cards, ascending (suit-major: grouped by suit).
        suit_start: int64[S+1], suit ``s`` occupies ``unknown[suit_start[s]:suit_start[s+1]]``.
        counts: int64[S], unknown cards per suit.
        void: bool[R, S], row ``r`` holds no card of suit ``s`` (stock row all False).
        played: int64[P], mask of the cards each seat has played.
        plays: int64[k, 3], the card plays so far: (seat, card, led suit or -1 when leading).
        bids: tuple of the bids made, in bidding order.
        key: hashable identity of everything sampling depends on.
    """

    player: int
    seats: np.ndarray
    sizes: np.ndarray
    unknown: np.ndarray
    suit_start: np.ndarray
    counts: np.ndarray
    void: np.ndarray
    played: np.ndarray
    plays: np.ndarray
    bids: tuple
    key: tuple

    @property
    def rows(self) -> int:
        return len(self.sizes)

    def num_voids(self) -> int:
        """Revealed (seat, suit) voids that still bind: the seat has cards left and some
        card of the suit is unseen."""
        return int((self.void & (self.sizes[:, None] > 0) & (self.counts[None] > 0)).sum())


def parse_view(view: View) -> tuple:
    """(own mask, dealt, dealer, trump card, bids, plays [(seat, card)]) of a tricks view."""
    own, dealt, dealer, tcard, nbids, *rest = view.data
    pairs = rest[nbids + 1:]
    return own, dealt, dealer, tcard, tuple(rest[:nbids]), list(zip(pairs[0::2], pairs[1::2],
                                                                     strict=True))


def received(game: Game, dealer: int, dealt: int, seat: int) -> int:
    """Cards dealt to ``seat`` so far (round robin from the seat left of the dealer)."""
    if dealer < 0:
        return 0
    n = game.num_players
    return dealt // n + ((seat - dealer - 1) % n < dealt % n)


def constraints(view: View) -> Constraints:
    """The public constraints of a tricks view (see `Constraints`)."""
    g = view.game
    check_tricks("trick-taking constraints", g)
    n, su, r, me = g.num_players, g.suits, g.ranks, view.player
    own, dealt, dealer, tcard, bids, plays = parse_view(view)
    played = np.zeros(n, dtype=np.int64)
    seen = own | (1 << tcard if tcard >= 0 else 0)
    seats = np.array([p for p in range(n) if p != me], dtype=np.int64)
    void = np.zeros((n, su), dtype=bool)
    rows = []
    for i, (seat, card) in enumerate(plays):
        played[seat] |= 1 << card
        seen |= 1 << card
        led = plays[i - i % n][1] // r
        rows.append((seat, card, -1 if i % n == 0 else led))
        if i % n and card // r != led:
            void[seat, led] = True  # did not follow: none of the led suit from now on
    unknown = np.array([c for c in range(su * r) if not (seen >> c) & 1], dtype=np.int64)
    sizes = [received(g, dealer, dealt, p) - bin(int(played[p])).count("1") for p in seats]
    sizes.append(len(unknown) - sum(sizes))
    counts = np.bincount(unknown // r, minlength=su).astype(np.int64)
    vrows = np.vstack([void[seats], np.zeros((1, su), dtype=bool)])
    sizes = np.array(sizes, dtype=np.int64)
    key = (me, int(seen), tuple(sizes.tolist()), vrows.tobytes())
    return Constraints(me, seats, sizes, unknown, np.concatenate([[0], np.cumsum(counts)]),
                       counts, vrows, played, np.array(rows, dtype=np.int64).reshape(-1, 3),
                       bids, key)


# -- construction (seed 003: integer max-flow) ---------------------------------
def _augment(cap: np.ndarray, s: int, t: int) -> int:
    """One Edmonds-Karp step: push flow along a shortest residual path; 0 if none."""
    prev = np.full(len(cap), -1)
    prev[s] = s
    queue = deque([s])
    while queue and prev[t] < 0:
        u = queue.popleft()
        for v in np.flatnonzero((cap[u] > 0) & (prev < 0)):
            prev[v] = u
            queue.append(v)
    if prev[t] < 0:
        return 0
    path, v = [], t
    while v != s:
        path.append((prev[v], v))
        v = prev[v]
    push = min(cap[u, v] for u, v in path)
    for u, v in path:
        cap[u, v] -= push
        cap[v, u] += push
    return int(push)


def construct_table(c: Constraints) -> np.ndarray:
    """One feasible suit-length assignment int64[R, S] by max-flow; `IszError` if none.

    Network: source -> suit s (capacity: unknown cards of s) -> row r unless r is
    void in s (capacity: unlimited) -> sink (capacity: row size).
    """
    su, rows = len(c.counts), c.rows
    src, sink = 0, 1 + su + rows
    cap = np.zeros((sink + 1, sink + 1), dtype=np.int64)
    cap[src, 1:1 + su] = c.counts
    for s in range(su):
        cap[1 + s, 1 + su:1 + su + rows] = np.where(c.void[:, s], 0, c.counts[s])
    cap[1 + su:1 + su + rows, sink] = c.sizes
    orig = cap.copy()
    flow = 0
    while (push := _augment(cap, src, sink)) > 0:
        flow += push
    if flow != len(c.unknown):
        raise IszError(f"view has no consistent deal (max-flow {flow} < {len(c.unknown)} "
                       "unknown cards): it was not produced by the game")
    return (orig - cap)[1:1 + su, 1 + su:1 + su + rows].T.copy()


def deal_table(c: Constraints, table: np.ndarray) -> np.ndarray:
    """The deal int64[R] (a card mask per row) giving each row its table counts of
    every suit, lowest cards first (deterministic)."""
    masks = np.zeros(c.rows, dtype=np.int64)
    for s in range(len(c.counts)):
        cards = iter(c.unknown[c.suit_start[s]:c.suit_start[s + 1]].tolist())
        for r in range(c.rows):
            for _ in range(int(table[r, s])):
                masks[r] |= 1 << next(cards)
    return masks


# -- worlds ------------------------------------------------------------------
@nb.njit(cache=True)
def _write(template, seats, played, masks, out):
    """out[k] <- template with hand row r of masks[k] as seat seats[r]'s hand (its initial
    hand adds the cards it played); the stock row stays implicit."""
    tbit = np.int64(1) << template[K.TCARD] if template[K.TCARD] >= 0 else np.int64(0)
    for k in range(out.shape[0]):
        out[k, :] = template
        for r in range(seats.shape[0]):
            p = seats[r]
            out[k, K.HAND + p] = masks[k, r]
            out[k, K.INIT + p] = masks[k, r] | played[p]
        used = tbit
        for p in range(played.shape[0]):
            used |= out[k, K.INIT + p]
        out[k, K.USED] = used


def write_worlds(template: np.ndarray, c: Constraints, masks: np.ndarray) -> np.ndarray:
    """Kernel states int64[n, state_size] from deals ``masks`` int64[n, R] and the
    view's template (`Game.state_from_view`)."""
    out = np.empty((masks.shape[0], template.shape[0]), dtype=np.int64)
    _write(template, c.seats, c.played, np.ascontiguousarray(masks), out)
    return out


def replay(game: Game, view: View, hands, visit=None) -> State:
    """The history of ``view`` with initial hands ``hands`` (a card mask per seat),
    through the checked `State` API (`IllegalActionError` if a play breaks the rules).

    ``visit(state, action)`` is called before each player decision (bids and plays).
    """
    own, dealt, dealer, tcard, bids, plays = parse_view(view)
    state = game.new_initial_state()
    if dealer < 0:
        return state
    n = game.num_players
    if game.params["dealer"] == "chance":
        state.apply_action(dealer)
    cards = [[c for c in range(game.num_cards) if (int(h) >> c) & 1] for h in hands]
    for i in range(dealt):
        state.apply_action(cards[(dealer + 1 + i) % n][i // n])
    if tcard >= 0:
        state.apply_action(tcard)
    for a in [game.num_cards + b for b in bids] + [card for _, card in plays]:
        if visit is not None:
            visit(state, a)
        state.apply_action(a)
    return state


def is_consistent(view: View, world: np.ndarray) -> bool:
    """True when ``world`` (a kernel state) is a legal history with ``view``'s key: its
    initial hands replay the view's public actions under the rules, to this very state."""
    g = view.game
    try:
        state = replay(g, view, world[K.INIT:K.INIT + g.num_players])
    except IszError:
        return False
    return state.view(view.player).key == view.key and np.array_equal(state.data, world)
