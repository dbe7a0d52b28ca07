"""``tricks_greedy``: a hand-written playout for trick games, as a search leaf.

A probe of how much the uniformly random playout limits rollout search in Oh Hell, not
a recipe (the issue asks for learned values; this one is found by hand). Below the
tree every seat plays by rule, a uniformly random legal move with chance ``EPS``:

- bid: its sure-ish tricks (trumps from the ten up, side aces and kings), the legal
  bid nearest to that;
- card, wanting tricks (fewer won than bid, or no bidding): lead its highest card;
  follow with its lowest card that takes the trick so far, else its lowest card;
- card, wanting none (its bid reached): lead its lowest card; follow with its
  highest card that does not take the trick so far, else its highest card.

Only the world the search is in is read (the leaf scores a determinized world: no
hidden card of the real game). ``register()`` adds it to `isz.search.playout.LEAVES`;
`research.playouts.agents` seats searches that use it.
"""

from __future__ import annotations

import functools

import numba as nb

from isz.games import tricks_kernel as K
from isz.games.kernel import Kernel
from isz.rng import rand_below, rand_float
from isz.search.jit import helper
from isz.search.playout import LEAVES, make_playout
from isz.types import CHANCE, TERMINAL, IszError

EPS = 0.1  # share of uniformly random moves: playouts still differ within one world
NAME = "tricks_greedy"


@nb.njit(cache=True, inline="always")
def wants_tricks(s, kp, p):
    """Seat ``p`` still wants tricks in world ``s``: fewer won than bid, or no bidding."""
    return kp[K.K_BIDDING] == 0 or s[K.WON + p] < s[K.BID + p]


@functools.cache
def make_greedy_policy(kernel: Kernel):
    """Compiled ``(greedy_bid, greedy_card)``, each ``(s, kp, p, la, n) -> action`` for
    seat ``p`` to move in world ``s`` with legal actions ``la[:n]`` (module docstring)."""
    if kernel.legal_actions is not K._legal_actions:
        raise IszError(f"leaf {NAME!r} plays trick games (isz.games.tricks) only")

    @helper
    def greedy_bid(s, kp, p, la, n):
        r, tsuit, hand, want = kp[K.K_R], s[K.TSUIT], s[K.HAND + p], 0
        for c in range(kp[K.K_C]):
            if (hand >> c) & 1:
                rank = c % r
                if (c // r == tsuit and rank >= r - 5) or (c // r != tsuit and rank >= r - 2):
                    want += 1
        best, gap = la[0], 1 << 30
        for i in range(n):
            g = abs(la[i] - kp[K.K_C] - want)
            if g < gap:
                best, gap = la[i], g
        return best

    @helper
    def greedy_card(s, kp, p, la, n):
        r = kp[K.K_R]
        want = wants_tricks(s, kp, p)
        lead = s[K.POS] == 0
        pick, key = la[0], -1
        for i in range(n):
            c = la[i]
            takes = (not lead) and K.takes_trick(s, kp, c)
            rank = c % r
            if lead:
                score = rank if want else r - rank
            elif want:
                score = 2 * r - rank if takes else r - rank
            else:
                score = r + rank if not takes else rank
            if score > key:
                pick, key = c, score
        return pick

    return greedy_bid, greedy_card


def policy_leaf(kernel: Kernel, choose):
    """The compiled leaf ``(s, params, me, rng, b, k)`` that plays world ``s`` to its end
    by ``choose(s, params, p, rng, la, n) -> action`` (a `helper`: seat ``p`` to move,
    legal actions ``la[:n]``), chance by its law, and scores it."""
    current_player, legal_actions, apply_action = (
        kernel.current_player, kernel.legal_actions, kernel.apply_action)
    sample_chance, _, terminal_scores = make_playout(kernel)

    @helper
    def leaf(s, params, me, rng, b, k):
        while True:
            p = current_player(s, params)
            if p == TERMINAL:
                break
            if p == CHANCE:
                a = sample_chance(s, params, rng, b.ca, b.cp)
            else:
                a = choose(s, params, p, rng, b.la, legal_actions(s, params, b.la))
            apply_action(s, params, a)
        terminal_scores(s, params, b.ret, b.scores)

    return leaf


@functools.cache
def make_greedy_leaf(kernel: Kernel):
    """The compiled ``tricks_greedy`` leaf for the tricks kernel."""
    greedy_bid, greedy_card = make_greedy_policy(kernel)

    @helper
    def choose(s, params, p, rng, la, n):
        if rand_float(rng) < EPS:
            return la[rand_below(rng, n)]
        if s[K.PHASE] == K.PH_BID:
            return greedy_bid(s, params, p, la, n)
        return greedy_card(s, params, p, la, n)

    return policy_leaf(kernel, choose)


def register() -> None:
    """Add ``tricks_greedy`` to the search's leaves (matches' workers fork after it)."""
    LEAVES[NAME] = make_greedy_leaf


