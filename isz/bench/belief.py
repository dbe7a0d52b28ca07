"""Belief rows for ``isz-bench``: sampling speed, rejection rates, Gibbs mixing.

Positions are found deterministically: seeded uniformly random games, the
first decision in the play phase (``min_plays <= cards played <= max_plays``)
whose view shows exactly ``voids`` binding voids (`Constraints.num_voids`).
Every function returns one JSON-able dict (or a list of them) with keys
``bench``, ``game``, ``belief``, ``voids``, ``metric``, ``value``;
`belief_rows` runs them all (about 10 s on one core). ``voids = -1``: a row
over every decision of whole games.
"""

from __future__ import annotations

import itertools
import time

import numpy as np

import isz
from isz.belief import GibbsBelief, VoidsBelief, make_belief
from isz.belief.tricks_constraints import Constraints, constraints
from isz.games.base import View
from isz.games.tricks_kernel import INIT, NPLAYED

SMALL_OH_HELL = {"suits": 4, "ranks": 3, "hand_size": 3}  # 12 cards: posteriors enumerable


def high_card_policy(view: View, strength: float = 3.0) -> np.ndarray:
    """A fixed full-support policy: float64[num_actions]. Plays a card of rank ``k``
    with weight ``strength ** k``; bids ``b`` with weight ``strength ** -|b - h|``,
    ``h`` the cards of the top two ranks in the initial hand."""
    g = view.game
    p = np.zeros(g.num_actions)
    high = sum(1 for c in range(g.num_cards) if (view.data[0] >> c) & 1 and c % g.ranks
               >= g.ranks - 2)
    for a in view.legal_actions:
        p[a] = strength ** (a % g.ranks) if a < g.num_cards else \
            strength ** -abs(a - g.num_cards - high)
    return p / p.sum()


def find_view(game, voids: int, min_plays: int = 9, max_plays: int = 21,
              seeds=range(2000)) -> View:
    """The first view (see module docstring) with ``voids`` binding voids."""
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            p = state.current_player()
            if p >= 0:
                view = state.view(p)
                plays = int(state.data[NPLAYED])
                if min_plays <= plays <= max_plays and constraints(view).num_voids() == voids:
                    return view
                acts = state.legal_actions()
            else:
                acts = [a for a, _ in state.chance_outcomes()]
            state.apply_action(acts[rng.integers(len(acts))])
    raise ValueError(f"no {game!r} view with {voids} voids in {min_plays}..{max_plays} plays")


def _row(game_name, belief, voids, metric, value, **extra) -> dict:
    return {"bench": "belief", "game": game_name, "belief": belief, "voids": voids,
            "metric": metric, "value": value, **extra}


def sampling_speed(belief: str, voids: int, game_name: str = "oh_hell", n: int = 20000,
                   seed: int = 0, **knobs) -> dict:
    """Samples per second of ``belief`` on the view with ``voids`` voids."""
    game = isz.make_game(game_name)
    view = find_view(game, voids)
    b = make_belief(belief, game, **knobs)
    rng = np.random.default_rng(seed)
    b.sample_many(view, 16, rng)  # compile, build caches
    t = time.perf_counter()
    b.sample_many(view, n, rng)
    rate = n / (time.perf_counter() - t)
    return _row(game_name, belief, voids, "samples_per_s", round(rate), n=n, **knobs)


def _void_ok(c: Constraints, seats_hands: np.ndarray) -> np.ndarray:
    """bool[n]: which deals (other seats' hands, int64[n, R-1]) respect the voids."""
    ok = np.ones(len(seats_hands), dtype=bool)
    for r, s in zip(*np.nonzero(c.void[:-1]), strict=True):
        lo, hi = c.suit_start[s], c.suit_start[s + 1]
        mask = 0
        for card in c.unknown[lo:hi].tolist():
            mask |= 1 << card
        ok &= (seats_hands[:, r] & np.int64(mask)) == 0
    return ok


def rejection_rate(voids: int, game_name: str = "oh_hell", n: int = 20000,
                   seed: int = 0) -> dict:
    """Acceptance rate of rejection sampling (a uniform reshuffle kept only if it
    respects the voids): exact, from the counts of deals, and measured on ``n``
    draws of the game's uniform sampler."""
    game = isz.make_game(game_name)
    view = find_view(game, voids)
    vb = VoidsBelief(game)
    c, _ = vb.prepare(view)
    worlds = make_belief("uniform", game).sample_many(view, n, np.random.default_rng(seed))
    hands = worlds[:, INIT + c.seats] & ~c.played[c.seats]  # the unseen part of each hand
    return _row(game_name, "uniform", voids, "rejection_acceptance",
                float(vb.rejection_acceptance(view)), measured=float(_void_ok(c, hands).mean()),
                n=n)


def _exact(belief: GibbsBelief, view: View) -> dict[tuple, float]:
    """Exact reach-weighted posterior {deal (masks per hand row): probability}, by
    enumerating every consistent deal (small games only)."""
    c, _ = belief.voids.prepare(view)
    rows = c.rows
    allowed = [[card for card in c.unknown.tolist()
                if not c.void[r, card // view.game.ranks]] for r in range(c.rows - 1)]
    logw: dict[tuple, float] = {}

    def rec(r: int, used: int, deal: list[int]) -> None:
        if r == rows - 1:
            logw[tuple(deal)] = belief.log_reach(view, np.array([*deal, 0], dtype=np.int64))
            return
        free = [x for x in allowed[r] if not (used >> x) & 1]
        for combo in itertools.combinations(free, int(c.sizes[r])):
            m = sum(1 << x for x in combo)
            rec(r + 1, used | m, [*deal, m])

    rec(0, 0, [])
    top = max(logw.values())
    w = {k: np.exp(v - top) for k, v in logw.items()}
    tot = sum(w.values())
    return {k: v / tot for k, v in w.items()}


def _tv(deals: np.ndarray, exact: dict[tuple, float]) -> float:
    keys, counts = np.unique(deals, axis=0, return_counts=True)
    emp = {tuple(int(x) for x in k): n / len(deals) for k, n in zip(keys, counts, strict=True)}
    return 0.5 * sum(abs(emp.get(k, 0.0) - exact.get(k, 0.0)) for k in set(emp) | set(exact))


def gibbs_burn_in_tv(burn_ins=(0, 1, 2, 5, 10, 20, 50), chains: int = 20000, voids: int = 1,
                     starts=("voids", "construct"), seed: int = 0) -> list[dict]:
    """Seed 003's figure 5 as a table: TV between the law of a chain after ``b``
    transitions (``chains`` independent chains, one sample each) and the exact
    posterior under `high_card_policy`, on a small oh_hell view. ``tv_floor``: the
    TV of as many exact draws (the sampling noise of the estimate)."""
    game = isz.make_game("oh_hell", **SMALL_OH_HELL)
    view = find_view(game, voids, min_plays=3, max_plays=5)
    rows = []
    rng = np.random.default_rng(seed)
    for start in starts:
        b = GibbsBelief(game, policy=high_card_policy, chains=chains, start=start)
        exact = _exact(b, view)
        keys = list(exact)
        draw = rng.choice(len(keys), size=chains, p=np.array([exact[k] for k in keys]))
        floor = _tv(np.array([keys[i] for i in draw], dtype=np.int64), exact)
        for burn in burn_ins:
            deals = b.deals(view, chains, rng, burn)[:, :-1]
            rows.append(_row("oh_hell_small", "gibbs", voids, "tv_to_exact",
                             round(_tv(deals, exact), 4), burn_in=burn, start=start,
                             chains=chains, support=len(exact), tv_floor=round(floor, 4)))
    return rows


def decision_cost(belief: str = "voids", shuffle: bool = True, games: int = 4,
                  seed: int = 0) -> list[dict]:
    """ms for the first world of each decision of ``games`` seeded random Oh Hell
    games (a new view: constraints, and tables unless the shuffle path is taken; for
    ``sir`` also its policy call), as a search pays it once a decision; rows
    ``first_world_ms_mean`` and ``_max``."""
    game = isz.make_game("oh_hell")
    VoidsBelief(game).sample_many(find_view(game, 0), 1, np.random.default_rng(0))  # compile
    costs = []
    for g in range(games):
        rng = np.random.default_rng(seed + g)
        costs += _first_world_ms(game, _cost_belief(game, belief, shuffle), rng, rng)
    return [_row("oh_hell", belief, -1, f"first_world_ms_{k}", round(float(f(costs)), 3),
                 shuffle=shuffle, decisions=len(costs))
            for k, f in (("mean", np.mean), ("max", np.max))]


def _first_world_ms(game, belief, rng: np.random.Generator,
                    worlds_rng: np.random.Generator) -> list[float]:
    """ms of ``belief``'s first world at each decision of one uniformly random game
    (its chance and moves drawn by ``rng``, the worlds by ``worlds_rng``)."""
    costs, state = [], game.new_initial_state()
    while not state.is_terminal():
        if state.current_player() < 0:
            state.apply_action(state.sample_chance(rng))
            continue
        view = state.view(state.current_player())
        t = time.perf_counter()
        belief.sample_many(view, 1, worlds_rng)
        costs.append(1e3 * (time.perf_counter() - t))
        state.apply_action(int(rng.choice(view.legal_actions)))
    return costs


def _cost_belief(game, belief: str, shuffle: bool):
    """``voids``, or ``sir`` (128 candidates, ``plays=0``) weighing the bids by a network of the
    trained Oh Hell planner's shape (width 256, depth 2; random weights cost the
    same), one torch thread, CPU; ``sir_dense``: the same with every decision row
    written out for the network (no ``many_parts``: the path before the stem was
    factored, measured beside it)."""
    if belief == "voids":
        return VoidsBelief(game, shuffle=shuffle)
    import torch

    from isz.agents.network import NetworkEvaluator
    from isz.nn import ModelConfig, build_model
    from isz.search.evaluator import make_search_belief

    torch.manual_seed(0)
    torch.set_num_threads(1)
    net = NetworkEvaluator(build_model(game, ModelConfig(width=256, depth=2)), "cpu")
    # the bids alone (plays=0), as the Oh Hell results measure sir
    b = make_search_belief({"name": "sir", "plays": 0, "shuffle": shuffle}, game, net)
    if belief == "sir_dense":
        b.policy = _DenseRows(b.policy)
    return b


def weighed_decision_cost(belief: str, games: int = 50, seed: int = 0) -> list[dict]:
    """ms for the first world of each decision of ``games`` seeded random Leduc games
    when ``belief`` (``posterior`` or ``replay``, the two that weigh any game's
    histories) takes a network of the default recipe's shape as its policy, reset
    each game as self-play does: the posterior's policy calls along the history and
    the replay's 128 candidates replayed and weighed. Its table is built before the
    clock starts (once a process)."""
    import torch

    from isz.agents.network import NetworkEvaluator
    from isz.nn import ModelConfig, build_model
    from isz.search.evaluator import make_search_belief

    torch.manual_seed(0)
    torch.set_num_threads(1)
    game = isz.make_game("leduc_poker")
    net = NetworkEvaluator(build_model(game, ModelConfig()), "cpu")
    b = make_search_belief(belief, game, net)
    costs = []
    for g in range(games):  # the games' own generator: the same games for each belief
        b.reset()
        costs += _first_world_ms(game, b, np.random.default_rng(seed + g),
                                 np.random.default_rng([seed, g]))
    costs = costs[1:]  # the first call compiles
    return [_row("leduc_poker", belief, -1, f"first_world_ms_{k}", round(float(f(costs)), 3),
                 decisions=len(costs)) for k, f in (("mean", np.mean), ("max", np.max))]


class _DenseRows:
    """A policy with ``many`` only, so `SIRBelief` writes every row out."""

    def __init__(self, policy):
        self.many = policy.many


def belief_rows(voids=(0, 2, 4), n: int = 20000, chains: int = 20000) -> list[dict]:
    """Every belief row: speeds and rejection rates per void count, the first world's
    cost a decision (voids with and without the shuffle path, sir with a network's
    policy, factored and written out; posterior and replay on Leduc with a network's),
    then the Gibbs burn-in table."""
    rows = decision_cost("voids", True) + decision_cost("voids", False) + decision_cost("sir")
    rows += decision_cost("sir_dense")
    rows += weighed_decision_cost("posterior") + weighed_decision_cost("replay")
    for k in voids:
        rows += [sampling_speed(b, k, n=n) for b in ("uniform", "voids", "gibbs")]
        rows.append(rejection_rate(k, n=n))
    return rows + gibbs_burn_in_tv(chains=chains)
