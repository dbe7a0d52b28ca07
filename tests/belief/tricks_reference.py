"""Brute-force references for the tricks beliefs, independent of `isz.belief`.

Everything here re-derives the posterior from the rules alone: enumerate every
split of the unseen cards into the other seats' hands, replay the view's
public actions through the checked `State` API (an illegal follow-suit play
raises), keep the worlds whose view key matches, and weight each by the
policy's reach of the other seats' decisions (uniform: weight 1).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from isz.belief import VoidsBelief
from isz.games import tricks_kernel as K
from isz.types import IllegalActionError

INIT = K.INIT  # initial hands in the state array: one mask per seat


def after_decisions(game, steps: int, rng: np.random.Generator):
    """A fresh state after ``steps`` random player decisions (chance drawn uniformly
    from the legal outcomes), moved with ``rng``."""
    state = game.new_initial_state()
    while state.current_player() < 0 or steps:
        if state.current_player() >= 0:
            steps -= 1
        acts = state.legal_actions() or [a for a, _ in state.chance_outcomes()]
        state.apply_action(acts[rng.integers(len(acts))])
    return state


def random_game_views(game, rng: np.random.Generator):
    """The view of the seat to move at each decision of one game whose moves and chance
    outcomes are drawn uniformly from ``rng``, the next draw made after the caller has
    used the view (the caller may draw from ``rng`` too: the draws interleave in play
    order)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        p = state.current_player()
        if p >= 0:
            yield state.view(p)
            acts = state.legal_actions()
        else:
            acts = [a for a, _ in state.chance_outcomes()]
        state.apply_action(acts[rng.integers(len(acts))])


def twin_states(game, steps: int, seed: int):
    """``(state, twin, p)``: a state after ``steps`` decisions (seeded) and another deal
    with the same view for ``p``, the seat to move (drawn from ``voids``): the pair a
    no-leak test feeds to a belief or an agent."""
    rng = np.random.default_rng(seed)
    state = after_decisions(game, steps, rng)
    p = state.current_player()
    twin = VoidsBelief(game).sample(state.view(p), rng)
    assert twin.view(p).key == state.view(p).key
    assert not np.array_equal(twin.data, state.data)
    return state, twin, p


def split_view(view):
    own, dealt, dealer, tcard, nb, *rest = view.data
    pairs = rest[nb + 1:]
    return own, dealt, dealer, tcard, rest[:nb], list(zip(pairs[0::2], pairs[1::2],
                                                          strict=True))


def replay_world(game, view, hands, policy=None):
    """(state, log reach of the other seats) of the view's history with initial
    hands ``hands`` (mask per seat); None if a deal or play is illegal."""
    own, dealt, dealer, tcard, bids, plays = split_view(view)
    n = game.num_players
    state = game.new_initial_state()
    logp = 0.0
    try:
        if game.params["dealer"] == "chance":
            state.apply_action(dealer)
        order = [sorted(c for c in range(game.num_cards) if (h >> c) & 1) for h in hands]
        for i in range(dealt):
            state.apply_action(order[(dealer + 1 + i) % n][i // n])
        if tcard >= 0:
            state.apply_action(tcard)
        for a in [game.num_cards + b for b in bids] + [c for _, c in plays]:
            p = state.current_player()
            if policy is not None and p != view.player:
                pr = policy(state.view(p))[a]
                logp += math.log(pr) if pr > 0 else -math.inf
            state.apply_action(a)
    except (IllegalActionError, IndexError):
        return None
    return state, logp


def posterior(game, view, policy=None) -> dict[tuple, float]:
    """{other seats' initial hands (tuple of masks, observer 0): probability}."""
    own, dealt, dealer, tcard, bids, plays = split_view(view)
    n, me = game.num_players, view.player
    played = [0] * n
    for seat, card in plays:
        played[seat] |= 1 << card
    seen = own | (1 << tcard if tcard >= 0 else 0) | sum(played)
    pool = [c for c in range(game.num_cards) if not (seen >> c) & 1]
    others = [p for p in range(n) if p != me]
    need = [dealt // n + ((p - dealer - 1) % n < dealt % n) - bin(played[p]).count("1")
            for p in others]
    out: dict[tuple, float] = {}

    def rec(i, left, hands):
        if i == len(others):
            res = replay_world(game, view, hands, policy)
            if res is not None and res[0].view(me).key == view.key:
                out[tuple(hands[p] if p != me else 0 for p in range(n))] = res[1]
            return
        for combo in itertools.combinations(left, need[i]):
            h = list(hands)
            h[others[i]] = sum(1 << c for c in combo) | played[others[i]]
            rec(i + 1, [c for c in left if c not in combo], h)

    rec(0, pool, [own if p == me else 0 for p in range(n)])
    top = max(out.values())
    w = {k: math.exp(v - top) for k, v in out.items()}
    tot = sum(w.values())
    return {k: v / tot for k, v in w.items()}


def world_key(game, view, world) -> tuple:
    return tuple(int(world[INIT + p]) if p != view.player else 0
                 for p in range(game.num_players))


def consistent(game, view, world) -> bool:
    """The checker: ``world``'s initial hands replay the view's public actions legally
    and reach this very state, whose view key is the view's."""
    hands = [int(h) for h in world[INIT:INIT + game.num_players]]
    res = replay_world(game, view, hands)
    return res is not None and res[0].view(view.player).key == view.key \
        and np.array_equal(res[0].data, world)


def _distinct(rows: np.ndarray):
    """(index of the first occurrence, count) of each distinct row (rows as bytes: fast)."""
    rows = np.ascontiguousarray(rows)
    flat = rows.view(np.dtype((np.void, rows.itemsize * rows.shape[1]))).ravel()
    _, first, counts = np.unique(flat, return_index=True, return_counts=True)
    return first, counts


def tv(worlds, game, view, ref: dict) -> float:
    """Total variation between the empirical law of ``worlds`` and ``ref``."""
    first, counts = _distinct(worlds[:, INIT:INIT + game.num_players])
    emp = {}
    for i, c in zip(first, counts, strict=True):
        k = world_key(game, view, worlds[i])
        emp[k] = emp.get(k, 0) + c / len(worlds)
    return 0.5 * sum(abs(emp.get(k, 0.0) - ref.get(k, 0.0)) for k in set(emp) | set(ref))


def all_consistent(game, view, worlds) -> bool:
    """`consistent` on every distinct sampled world."""
    return all(consistent(game, view, worlds[i]) for i in _distinct(worlds)[0])


def binding_voids(game, view) -> int:
    """(seat, suit) pairs shown void, where the seat still holds cards and some card
    of the suit is still unseen (the constraint bites)."""
    own, dealt, dealer, tcard, bids, plays = split_view(view)
    n, r = game.num_players, game.ranks
    voids, left = set(), {p: dealt // n + ((p - dealer - 1) % n < dealt % n) for p in range(n)}
    seen = own | (1 << tcard if tcard >= 0 else 0)
    for i, (seat, card) in enumerate(plays):
        led = plays[i - i % n][1] // r
        if i % n and card // r != led:
            voids.add((seat, led))
        left[seat] -= 1
        seen |= 1 << card
    unseen = {c // r for c in range(game.num_cards) if not (seen >> c) & 1}
    return sum(1 for p, s in voids if p != view.player and left[p] > 0 and s in unseen)


def find_views(game, want_voids, lo, hi, policy=None, seeds=range(400)):
    """Deterministic: the first decision view (random play from ``seeds``) with exactly
    ``want_voids`` binding voids and a posterior support size in [lo, hi]."""
    rng_games = [np.random.default_rng(s) for s in seeds]
    for rng in rng_games:
        state = game.new_initial_state()
        while not state.is_terminal():
            p = state.current_player()
            if p >= 0:
                view = state.view(p)
                if binding_voids(game, view) == want_voids:
                    ref = posterior(game, view, policy)
                    if lo <= len(ref) <= hi:
                        return state, view, ref
                acts = state.legal_actions()
            else:
                acts = [a for a, _ in state.chance_outcomes()]
            state.apply_action(acts[rng.integers(len(acts))])
    raise AssertionError(f"no view with {want_voids} voids and support in [{lo}, {hi}]")
