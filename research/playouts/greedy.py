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

from isz.games import tricks_kernel as K
from isz.games.kernel import Kernel
from isz.games.tricks_features import sure_tricks, wants_tricks
from isz.rng import rand_below, rand_float
from isz.search.jit import helper
from isz.search.playout import LEAVES, policy_leaf
from isz.types import IszError

EPS = 0.1  # share of uniformly random moves: playouts still differ within one world
NAME = "tricks_greedy"


@functools.cache
def make_greedy_policy(kernel: Kernel):
    """Compiled ``(greedy_bid, greedy_card)``, each ``(s, kp, p, la, n) -> action`` for
    seat ``p`` to move in world ``s`` with legal actions ``la[:n]`` (module docstring)."""
    if kernel.legal_actions is not K._legal_actions:
        raise IszError(f"leaf {NAME!r} plays trick games (isz.games.tricks) only")

    @helper
    def greedy_bid(s, kp, p, la, n):
        want = sure_tricks(s, kp, p)
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


@functools.cache
def make_greedy_leaf(kernel: Kernel):
    """The compiled ``tricks_greedy`` leaf for the tricks kernel."""
    greedy_bid, greedy_card = make_greedy_policy(kernel)

    @helper
    def choose(s, params, p, rng, la, n, k):
        if rand_float(rng) < EPS:
            return la[rand_below(rng, n)]
        if s[K.PHASE] == K.PH_BID:
            return greedy_bid(s, params, p, la, n)
        return greedy_card(s, params, p, la, n)

    return policy_leaf(kernel, choose)


def register() -> None:
    """Add ``tricks_greedy`` to the search's leaves (matches' workers fork after it)."""
    LEAVES[NAME] = make_greedy_leaf


