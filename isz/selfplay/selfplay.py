"""Batched self-play: many games at once, their searches in lockstep.

Every round, each of the B game slots that sits at a decision node searches
from the acting seat's own view, with worlds from that seat's own belief; the
B searches advance one simulation at a time so that every step evaluates all
pending leaves in one evaluator call (`isz.search.puct_driver.PUCTBatch`).
Each position records its policy target (root visits, or the mirror-descent
improved policy, see `PUCTBatch.mirror_policy`, whose magnet is uniform or the
policy of a ``magnet`` evaluator: a snapshot of the network); moves are drawn
from it for the first ``temperature_moves`` moves of a game, then its argmax
is played. With ``value_target_q > 0`` the actor's value target mixes the
final return with its search's root value (`isz.selfplay.records`); with
``puct.rollouts`` the leaves are random playouts (uniform priors, no network);
with ``teacher = "so_ismcts"`` every move is searched by rollout SO-ISMCTS
instead and the network distils it, with ``teacher = "planner"`` by that search
led at its root by the network's priors (`isz.selfplay.teacher`). With ``all_hands``
every other hand the acting seat could hold at the same public state is searched
in the same batch and recorded too (`isz.selfplay.hands`), with its search's
value as its value target; the game goes on from the hand held only. With ``league``
a share of the games seat a rollout member, played, not learned from (`isz.selfplay.league`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

import numpy as np

from isz.belief import Belief
from isz.belief.diagnostics import sampled_diagnostics
from isz.belief.sir_batch import weigh_pools
from isz.games.base import Game, State
from isz.search.evaluator import Evaluator, make_search_belief
from isz.search.puct_driver import PUCTBatch, PUCTConfig
from isz.selfplay.filter_stats import is_filter
from isz.selfplay.hands import hand_value, public_states
from isz.selfplay.league import NO_SEAT, league_seat, member_search
from isz.selfplay.records import GameRecord, Positions
from isz.selfplay.stats import SelfPlayStats
from isz.selfplay.teacher import TEACHERS, noisy_priors, root_values, teacher_search
from isz.settings import Group, Setting
from isz.settings.agents import BELIEF, BELIEF_POLICY, PLAYOUT_WEIGHTS
from isz.settings.search import (
    COMMON_WORLDS,
    MIRROR_ALPHA,
    MIRROR_ETA,
    SIMULATIONS,
    TARGET,
    TEMPERATURE_MOVES,
)
from isz.settings.training import (
    ALL_HANDS,
    LEAGUE,
    PARALLEL_GAMES,
    TEACHER,
    TEACHER_ITERATIONS,
    VALUE_TARGET_Q,
    VALUE_TARGET_Q_ROWS,
)
from isz.types import IszError, seed_from

SELFPLAY_RUN = Group(
    "SelfPlayConfig", "Self-play settings of one iteration (isz.training.loop builds them "
    "from the training config, matching names)",
    [PARALLEL_GAMES, SIMULATIONS, TEMPERATURE_MOVES, BELIEF, BELIEF_POLICY, TARGET, MIRROR_ETA,
     # the classic recipe's defaults here (a run passes every value; tests build it bare)
     MIRROR_ALPHA, VALUE_TARGET_Q.but(default=0.0),
     VALUE_TARGET_Q_ROWS.but(default="decisions"), TEACHER.but(default="none"),
     TEACHER_ITERATIONS, LEAGUE, COMMON_WORLDS, ALL_HANDS,
     PLAYOUT_WEIGHTS.but(doc="the teacher's playout: the policy leaf's weights of the "
                         "run's latest fit (isz.training.playout_fit), else random "
                         "playouts", null="random playouts"),
     Setting("teacher_value_mix", float, 0.0, "the planner teacher's root mixes this "
             "much of the network's values of its moves (isz.selfplay.teacher.root_values): "
             "the value mix the run's last generation check recorded "
             "(trainer.generation_checks)", lo=0, hi=1),
     Setting("puct", object, PUCTConfig(dirichlet_eps=0.25), "the search's settings "
             "(isz.settings.search.PUCT_KERNEL), root noise on")])
SelfPlayConfig = SELFPLAY_RUN.dataclass("SelfPlayConfig", __name__, frozen=True)


class _Slot:
    """One game in progress, with a belief per seat; with a league member (`isz.selfplay.
    league`) at seat ``member``, that seat's belief is ``plain`` (no policy) instead."""

    def __init__(self, game: Game, own: list[Belief], plain: Belief | None = None,
                 member: int = NO_SEAT):
        self.state = game.new_initial_state()
        self.record = GameRecord()
        self.moves = 0
        self.own, self.plain, self.member = own, plain, member
        self.beliefs = list(own)
        if member != NO_SEAT:
            self.beliefs[member] = plain
        for b in self.beliefs:
            b.reset()

    def next_game(self, game: Game, member: int) -> _Slot:
        """A new game in this slot, its beliefs reused."""
        return _Slot(game, self.own, self.plain, member)


def _to_decision(state: State, rng: np.random.Generator) -> None:
    """Resolve chance nodes with the true chance probabilities."""
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))


def play(game: Game, evaluator: Evaluator, cfg: SelfPlayConfig, games: int,
         rng: np.random.Generator, progress: Callable[[int], None] | None = None,
         magnet: Evaluator | None = None) -> tuple[Positions, SelfPlayStats]:
    """Play ``games`` complete games; returns their positions and throughput figures.

    ``magnet``: with the ``mirror`` target, the evaluator whose priors at each
    searched root are the mirror step's magnet (None: the uniform policy); it
    is asked once per move round for all roots, and never changes the search.
    """
    if magnet is not None and cfg.target != "mirror":
        raise ValueError(f"a magnet needs the mirror target, not {cfg.target!r}")
    if cfg.common_worlds and cfg.puct.root_selection != "uniform":
        raise ValueError("common_worlds needs root_selection 'uniform' (root moves in turn)")
    if cfg.teacher not in TEACHERS:
        raise ValueError(f"unknown teacher {cfg.teacher!r}; known: {', '.join(TEACHERS)}")
    if cfg.teacher != "none" and cfg.target != "visits":
        raise ValueError(f"a teacher's target is its visits, not {cfg.target!r}")
    if cfg.all_hands:
        _check_all_hands(game, cfg)
    if cfg.league and cfg.teacher == "none":
        raise IszError("a league member plays beside a teacher: league needs "
                       "selfplay.teacher so_ismcts or planner, not 'none'")
    t0 = time.perf_counter()
    stats = SelfPlayStats()
    started, records, fills, finals = 0, [], [], []
    slots: list[_Slot | None] = []
    while started < games and len(slots) < cfg.parallel_games:
        plain = make_search_belief(cfg.belief, game, None) if cfg.league else None
        slots.append(_Slot(game, [make_search_belief(cfg.belief, game, evaluator,
                                                     cfg.belief_policy)
                                  for _ in range(game.num_players)], plain,
                           league_seat(cfg.league, game.num_players, rng)))
        started += 1
    while any(s is not None for s in slots):
        for i, slot in enumerate(slots):
            if slot is None:
                continue
            _to_decision(slot.state, rng)
            if slot.state.is_terminal():
                _finish(cfg, slot, records, finals, stats)
                if progress:
                    progress(1)
                slots[i] = None
                if started < games:
                    slots[i] = slot.next_game(game, league_seat(cfg.league,
                                                                game.num_players, rng))
                    started += 1
                    _to_decision(slots[i].state, rng)
        live = [s for s in slots if s is not None]
        if live and cfg.teacher != "none":
            _teach_all(game, cfg, live, rng, evaluator, stats)
        elif live:
            fills.append(_move_all(game, evaluator, cfg, live, rng, stats, magnet))
    stats.seconds = time.perf_counter() - t0
    stats.batch_fill = float(np.mean(fills)) if fills else 0.0
    pos = Positions.concat(records) if records else Positions.empty(game)
    stats.final_returns = (np.concatenate(finals) if finals
                           else pos.returns).astype(np.float32)
    # decisions searched (value-only rows of the other seats are not counted)
    stats.positions = int(np.count_nonzero(pos.policies.sum(axis=1) > 0))
    return pos, stats


def _finish(cfg, slot: _Slot, records: list, finals: list, stats: SelfPlayStats) -> None:
    """A game over: its positions and their final returns (``finals``) joined, unless it
    has none (a league member's game can end before the learner's seat moves)."""
    slot.record.returns = np.asarray(slot.state.returns(), dtype=np.float32)
    stats.games += 1
    if not slot.record.players:
        return
    records.append(slot.record.positions(cfg.value_target_q, cfg.value_target_q_rows))
    finals.append(np.repeat(slot.record.returns[None], len(records[-1]), axis=0))
    fixed = slot.record.fixed_rows()  # other hands: no z, their target instead
    finals[-1][fixed] = records[-1].returns[fixed]
    stats.other_hands += int(fixed.sum())


def _check_all_hands(game: Game, cfg: SelfPlayConfig) -> None:
    """`IszError` unless ``all_hands`` can run: the posterior belief (any view's worlds)
    and a game small enough to find its public states."""
    name = cfg.belief if isinstance(cfg.belief, str) else cfg.belief.get("name")
    if name != "posterior":
        raise IszError(f"all_hands needs the posterior belief (the other hands' worlds), "
                       f"not {name!r}")
    if cfg.teacher != "none":
        raise IszError(f"all_hands searches with PUCT, not teacher {cfg.teacher!r}")
    public_states(game)


def _add_value_views(game: Game, slot: _Slot, actor: int) -> None:
    """Value-only positions (policy target all zero) of the seats not to move.

    With ``value_view = "searcher"`` the search values an opponent's leaf from
    the searcher's view while the opponent is to move: such views must be in
    the value head's training data, not only the actor's.
    """
    everything = np.ones(game.num_actions, dtype=np.bool_)
    nothing = np.zeros(game.num_actions, dtype=np.float32)
    for q in range(game.num_players):
        if q != actor:
            slot.record.add(slot.state.view(q).tensor(), everything, nothing, q)


def _worlds(slot: _Slot, view, n: int, rng, stats: SelfPlayStats) -> np.ndarray:
    """``n`` worlds from the actor's belief; a particle filter's diagnostics recorded."""
    t0 = time.perf_counter()
    belief = slot.beliefs[view.player]
    before = belief.stats.copy() if is_filter(belief) else None
    worlds = belief.sample_many(view, n, rng)
    stats.belief_seconds += time.perf_counter() - t0
    if before is not None:
        stats.filters.record(belief, view, slot.state, before)
    return worlds


def _diagnose(slot: _Slot, view, stats: SelfPlayStats) -> None:
    """The trainer knows the truth: check the slot's belief against it (logging only; a
    separate generator so the diagnostic never changes the games)."""
    diag_rng = np.random.default_rng(len(stats.belief_true_prob))
    p, h = sampled_diagnostics(slot.beliefs[view.player], view, slot.state, 64, diag_rng)
    stats.belief_true_prob.append(p)
    stats.belief_entropy.append(h)


def _root_masks(game: Game, views) -> np.ndarray:
    """Legal-action masks bool[len(views), num_actions] of the searched roots."""
    masks = np.zeros((len(views), game.num_actions), dtype=np.bool_)
    for i, view in enumerate(views):
        masks[i, list(view.legal_actions)] = True
    return masks


def _move_all(game, evaluator, cfg, live: list[_Slot], rng, stats,
              magnet: Evaluator | None = None) -> float:
    """One searched move in every live slot; returns the mean batch fill.

    With ``cfg.all_hands`` the slots' other hands (views ``n..``, ``owner`` their
    slot) are searched in the same batch, after the views held."""
    views = [s.state.view(s.state.current_player()) for s in live]
    n = len(live)
    owner = list(range(n))
    if cfg.all_hands:
        hands = public_states(game)
        for b in range(n):
            others = hands.other_hands(views[b])
            views += others
            owner += [b] * len(others)
    masks = _root_masks(game, views)
    rho = None
    if magnet is not None:  # the magnet's policy at every root, in one call
        tensors = np.stack([v.tensor().reshape(-1) for v in views]).astype(np.float32)
        rho, _ = magnet.evaluate(tensors, masks)
    worlds = np.stack([root_worlds(cfg, v, lambda k, s=live[o], v=v: _worlds(s, v, k, rng,
                                                                               stats))
                       for o, v in zip(owner, views, strict=True)])
    _diagnose(live[0], views[0], stats)
    batch = search_roots(game, evaluator, cfg, views, worlds, rng)
    stats.evaluations += batch.evaluations
    pis = [batch.target_policy(b, cfg.target, cfg.mirror_eta, cfg.mirror_alpha,
                               None if rho is None else rho[b]).astype(np.float32)
           for b in range(len(views))]
    for b in range(n, len(views)):  # other hands first: the slot moves on below
        live[owner[b]].record.add(views[b].tensor(), masks[b], pis[b], views[b].player,
                                  value=hand_value(batch.root_stats(b), pis[b]))
    for b, (slot, view) in enumerate(zip(live, views[:n], strict=True)):
        _record_and_move(game, cfg, slot, view, masks[b], pis[b], batch.root_value(b), rng)
    return float(np.mean(batch.leaf_batches)) / len(views) if batch.leaf_batches else 0.0


def root_worlds(cfg: SelfPlayConfig, view, sample: Callable[[int], np.ndarray]) -> np.ndarray:
    """The worlds of one search from ``view``: int64[cfg.simulations, state_size];
    ``sample(n)`` draws ``n`` from the searcher's belief.

    With ``cfg.common_worlds`` (and ``root_selection = "uniform"``, which visits
    the m root moves in turn after simulation 0 expands the root) simulation
    ``k >= 1`` gets world ``1 + (k - 1) // m``: every root move is searched in
    the same worlds (common random numbers). Each world is then a paired
    comparison of the moves: the world-to-world spread of the hidden cards drops
    out of the gaps between the root q's, which is all the mirror step reads,
    and a stratified belief gives each move the whole stratified sample instead
    of a random share of it. Each move's q stays an unbiased estimate.
    """
    n = cfg.simulations
    if not cfg.common_worlds or n <= 1:
        return sample(n)
    m = len(view.legal_actions)
    per_move = -(-(n - 1) // m)  # worlds each root move is searched in
    drawn = sample(1 + per_move)
    return drawn[np.concatenate([[0], 1 + np.arange(n - 1) // m])]


def search_roots(game: Game, evaluator: Evaluator, cfg: SelfPlayConfig, views: list,
                 worlds: np.ndarray, rng: np.random.Generator) -> PUCTBatch:
    """The searches of one move round, as self-play runs them: one per view (its
    seat searching), ``cfg.simulations`` each over ``worlds`` (int64[B, W,
    state_size], `root_worlds`); read their targets with ``target_policy``."""
    batch = PUCTBatch(game, cfg.puct, worlds, [v.player for v in views], seed_from(rng))
    batch.run(evaluator, cfg.simulations)
    return batch


def _record_and_move(game, cfg, slot: _Slot, view, mask, pi, q: float, rng) -> None:
    """Record the decision (and the other seats' value rows), then play from ``pi``:
    drawn from it for the first ``temperature_moves`` moves, its argmax after."""
    slot.record.add(view.tensor(), mask, pi, view.player, q)
    if cfg.puct.value_view in ("searcher", "own"):
        _add_value_views(game, slot, view.player)
    _play(cfg, slot, pi, rng)


def _play(cfg, slot: _Slot, pi: np.ndarray, rng) -> None:
    """Play from ``pi``: drawn from it for the first ``temperature_moves`` moves of the
    game, its argmax after."""
    if slot.moves < cfg.temperature_moves:
        action = int(rng.choice(len(pi), p=pi / pi.sum()))
    else:
        action = int(np.argmax(pi))
    slot.state.apply_action(action)
    slot.moves += 1


def _teach_all(game, cfg, live: list[_Slot], rng, evaluator: Evaluator,
               stats: SelfPlayStats) -> None:
    """One teacher-searched move in every live slot; the planner teacher's root
    priors for every slot come from one evaluator call, and so do the slots' ``sir``
    pools (`isz.belief.sir_batch`) and, with ``teacher_value_mix``, the values of the
    roots' moves (`isz.selfplay.teacher.root_values`)."""
    views = [s.state.view(s.state.current_player()) for s in live]
    masks = _root_masks(game, views)
    _diagnose(live[0], views[0], stats)
    priors = None
    if cfg.teacher == "planner":
        tensors = np.stack([v.tensor().reshape(-1) for v in views]).astype(np.float32)
        priors = noisy_priors(evaluator, tensors, masks, cfg.puct.dirichlet_alpha,
                              cfg.puct.dirichlet_eps, rng)
    # every slot's sir pool in one network call (a call per slot costs more than its rows)
    t0 = time.perf_counter()
    weigh_pools([(s.beliefs[v.player], v) for s, v in zip(live, views, strict=True)], rng)
    stats.belief_seconds += time.perf_counter() - t0
    values = [None] * len(live)
    if cfg.teacher == "planner" and cfg.teacher_value_mix:  # after the pools are weighed
        values = root_values(game, evaluator, views,
                             lambda b: _worlds(live[b], views[b], 1, rng, stats)[0])
    for b, (slot, view) in enumerate(zip(live, views, strict=True)):
        sample = functools.partial(_worlds, slot, view, rng=rng, stats=stats)  # sample(n)
        if view.player == slot.member:  # the league's rollout member: played, not learned
            _play(cfg, slot, member_search(game, sample, view, cfg.teacher_iterations, rng),
                  rng)
            continue
        pi, q = teacher_search(game, sample, view, cfg.teacher_iterations, rng,
                               None if priors is None else priors[b], cfg.puct.c_puct,
                               cfg.playout_weights, values[b], cfg.teacher_value_mix)
        _record_and_move(game, cfg, slot, view, masks[b], pi, q, rng)
