"""`puct_ismcts`: PUCT-ISMCTS guided by an evaluator (a trained network), as an agent.

Knobs: ``iterations`` (simulations per move, default 200), ``time_budget``
(seconds per move: simulations until it is spent; with ``iterations`` too,
whichever ends first; ``iterations=None`` for time alone), ``lanes``
(simulations in flight per wave, their leaves evaluated in one network batch;
``auto``: 1 for up to 8 simulations, else ``min(16, iterations // 8)``, and 16 under
a time budget alone), ``c_puct`` (1.5),
``fpu`` (score of an unvisited move, 0.5), ``tree`` (``mo`` one tree per
player, default, or ``so``), ``opponents`` (``puct``, or ``prior``: opponents
play the network's policy, see `isz.search.puct`), ``value_view`` (``searcher``: the
searcher's leaf values from its own view, default; ``actor``; or ``own``: as
searcher, the other seats share a zero sum, for own-entry value heads), ``root_selection``
(``puct``, default, or ``uniform``: root moves visited in turn, for unbiased root
values; needs ``final=mirror``), ``belief`` (name
or `Belief`, default uniform), ``belief_policy`` (``network``: a belief that takes
a policy — posterior, gibbs, sir — weighs histories by the evaluator's priors; or
``uniform``),
``final`` (``most_visits``, ``visit_distribution``, or ``mirror``: the improved
policy ``softmax(log P + mirror_eta * q)`` of `PUCTBatch.mirror_policy`, played
mixed), ``mirror_eta`` (2.0), ``leaf_mix`` (0.0: a leaf's value is ``(1 - m)``
network + ``m`` one random playout), ``expand_after`` (1: every leaf is
evaluated; ``n``: a leaf's first ``n - 1`` visits are random playouts, no network
call, and its ``n``-th expands it: AlphaGo's expansion threshold),
``below_threshold`` (``playout``: a simulation stops at a node below the
threshold and plays out; in ``mo`` trees nearly every opponent node is below it, so
the search is one level deep; ``search``: it goes on, as the knowledge-free PUCT
with uniform priors until a node's n-th visit brings the network's, and a fresh
opponent node's move picked in the searcher's tree, so_ismcts's opponent model; see
`isz.search.puct`), ``worlds`` (None:
a world drawn per simulation; ``K``: at most K worlds a decision, the simulations
cycling through them, for a belief whose worlds are dear, e.g. policy-weighted
``gibbs`` at milliseconds a world), ``engine`` (``puct``, default; or
``so_ismcts``: the rollout so_ismcts's compiled loop, deep tree, UCB with ``c``
(0.7) and random playouts, its root moves selected by PUCT on the network's
priors for the view, one evaluator call a decision; of the other knobs it takes
``iterations``, ``time_budget``, ``c_puct``, ``belief`` and ``final``), ``value_mix``
(``engine=so_ismcts`` only, 0.0; ``lam > 0``: the same call also values the
searcher's own view after each of its moves, in one world of its belief, and the
root's PUCT takes ``(1 - lam)`` the rollouts' mean + ``lam`` that value: AlphaGo's
mix of value network and rollouts, at the root), ``evaluator`` (an
`Evaluator`; None = knowledge-free: uniform priors and random rollouts).
`isz.load_planner(path)` builds one from a checkpoint.
"""

from __future__ import annotations

import time

import numpy as np

from isz.agents.base import Agent
from isz.agents.knobs import check_budget, check_knobs
from isz.agents.registry import register_agent
from isz.belief import Belief
from isz.games.base import Game, View
from isz.search.driver import Budget, final_policy, so_search
from isz.search.evaluator import make_search_belief
from isz.search.puct_driver import (
    BELOW_THRESHOLD,
    LEAF_MIX_ENDS,
    OPPONENT_MODES,
    ROOT_SELECTIONS,
    VALUE_VIEWS,
    PUCTBatch,
    PUCTConfig,
)
from isz.types import IszError, check_choice, check_fraction, check_int, seed_from

PUCT_KNOBS = {"iterations": 200, "time_budget": None, "lanes": "auto", "c_puct": 1.5,
              "fpu": 0.5, "tree": "mo", "opponents": "puct",
              "value_view": "searcher", "root_selection": "puct", "belief": "uniform",
              "belief_policy": "network",
              "final": "most_visits", "mirror_eta": 2.0, "leaf_mix": 0.0, "expand_after": 1,
              "below_threshold": "playout", "worlds": None, "engine": "puct", "c": 0.7,
              "value_mix": 0.0, "evaluator": None}


ENGINES = ("puct", "so_ismcts")
MAX_AUTO_LANES = 16
WORLD_CHUNK = 256  # worlds drawn at a time under a time budget


def _check_number(name: str, value, lo: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < lo:
        raise IszError(f"{name} must be a number >= {lo}, got {value!r}")
    return float(value)


def _check_lanes(lanes, iterations: int | None) -> int:
    """Simulations per wave: an int >= 1, or ``auto`` (see the module docstring)."""
    if lanes == "auto":
        if iterations is None:
            return MAX_AUTO_LANES
        return 1 if iterations <= 8 else max(1, min(MAX_AUTO_LANES, iterations // 8))
    if isinstance(lanes, str):
        raise IszError(f"lanes must be an integer >= 1 or 'auto', got {lanes!r}")
    return check_int("lanes", lanes, lo=1)


def _check_engine(k: dict) -> None:
    """``engine``: ``puct``, or ``so_ismcts`` (with an evaluator, a final-move rule it has)."""
    check_choice("engine", k["engine"], ENGINES)
    check_fraction("value_mix", k["value_mix"], LEAF_MIX_ENDS)
    if k["engine"] != "so_ismcts":
        if k["value_mix"] != 0:
            raise IszError(f"value_mix={k['value_mix']!r} needs engine='so_ismcts' (PUCT's "
                           f"own leaf values mix by leaf_mix)")
        return
    if k["evaluator"] is None:
        raise IszError("engine='so_ismcts' needs an evaluator (a network) for its root priors")
    if k["final"] not in ("most_visits", "visit_distribution"):
        raise IszError(f"engine='so_ismcts' plays final='most_visits' or "
                       f"'visit_distribution', got {k['final']!r}")


class PUCTAgent(Agent):
    """Network-guided (or rollout) PUCT-ISMCTS from the seat's own view."""

    name = "puct_ismcts"

    def __init__(self, game: Game, **knobs):
        super().__init__(game)
        k = check_knobs(self.name, knobs, PUCT_KNOBS)
        self.iterations, self.time_budget = check_budget(k["iterations"], k["time_budget"])
        self.lanes = _check_lanes(k["lanes"], self.iterations)
        check_choice("tree", k["tree"], ("mo", "so"))
        check_choice("opponents", k["opponents"], OPPONENT_MODES)
        check_choice("value_view", k["value_view"], VALUE_VIEWS)
        check_choice("final-move rule", k["final"], ("most_visits", "visit_distribution",
                                                     "mirror"))
        check_choice("root_selection", k["root_selection"], ROOT_SELECTIONS)
        check_choice("below_threshold", k["below_threshold"], BELOW_THRESHOLD)
        if k["root_selection"] == "uniform" and k["final"] != "mirror":
            raise IszError(f"root_selection='uniform' needs final='mirror' (got "
                           f"{k['final']!r}): equal root visits say nothing of the moves")
        self.mirror_eta = _check_number("mirror_eta", k["mirror_eta"], 0.0)
        self.cfg = PUCTConfig(c_puct=_check_number("c_puct", k["c_puct"], 0.0),
                              fpu=_check_number("fpu", k["fpu"], 0.0), tree=k["tree"],
                              rollouts=k["evaluator"] is None, opponents=k["opponents"],
                              value_view=k["value_view"], root_selection=k["root_selection"],
                              leaf_mix=check_fraction("leaf_mix", k["leaf_mix"],
                                                       LEAF_MIX_ENDS),
                              expand_after=check_int("expand_after", k["expand_after"], lo=1),
                              below_threshold=k["below_threshold"])
        b = k["belief"]
        self.belief = b if isinstance(b, Belief) else \
            make_search_belief(b, game, k["evaluator"], k["belief_policy"])
        self.evaluator = k["evaluator"]
        self.final = k["final"]
        self.max_worlds = None if k["worlds"] is None else check_int("worlds", k["worlds"], lo=1)
        self.engine, self.c_ucb = k["engine"], _check_number("c", k["c"], 0.0)
        _check_engine(k)
        self.value_mix = float(k["value_mix"])
        self.knobs = k
        self.last_stats: dict[int, tuple[int, float]] = {}
        self.last_simulations = 0

    def reset(self) -> None:
        self.belief.reset()

    def policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        """Root visit distribution (``visit_distribution``), the improved policy
        (``mirror``), or one-hot of the most visited move."""
        if self.engine == "so_ismcts":
            return self._so_policy(self.check_view(view), rng)
        batch = self._search(self.check_view(view), rng)
        self.last_stats = batch.root_stats(0)
        pi = batch.target_policy(0, "mirror" if self.final == "mirror" else "visits",
                                 self.mirror_eta)
        if self.final == "most_visits" or pi.sum() == 0:
            best = max(self.last_stats, key=lambda a: self.last_stats[a][0]) \
                if self.last_stats else view.legal_actions[0]
            pi = np.zeros_like(pi)
            pi[best] = 1.0
        return pi / pi.sum()

    def _search(self, view: View, rng: np.random.Generator) -> PUCTBatch:
        """Waves of ``lanes`` simulations until ``iterations`` or ``time_budget`` runs out.

        Worlds are drawn up front for a fixed count, in chunks of `WORLD_CHUNK`
        under a time budget (the same generator stream either way), at most
        ``worlds`` of them; the belief's sampling counts against the budget.
        """
        t0 = time.perf_counter()
        worlds = self.belief.sample_many(view, self._more_worlds(0), rng)[None]
        batch = PUCTBatch(self.game, self.cfg, worlds, [view.player], seed_from(rng),
                          lanes=self.lanes)
        for k, active in batch.waves(self.evaluator, self.iterations):
            if self.time_budget is None:
                continue
            # one full wave after the root's at least, so every move has a chance
            if k > 0 and time.perf_counter() - t0 >= self.time_budget:
                break
            have = batch.worlds.shape[1]
            if k + active + self.lanes > have and self._more_worlds(have):
                batch.add_worlds(self.belief.sample_many(view, self._more_worlds(have),
                                                         rng)[None])
        self.last_simulations = batch.simulations
        return batch

    def _so_policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        """``engine=so_ismcts``: rollout SO-ISMCTS, its root led by the network's priors
        (PUCT with ``c_puct``; the evaluator call counts against the time budget)."""
        t0 = time.perf_counter()
        children = self._after_moves(view, rng) if self.value_mix > 0 else None
        tensors = view.tensor().reshape(1, -1)
        mask = np.zeros((1, self.game.num_actions), dtype=np.bool_)
        mask[0, list(view.legal_actions)] = True
        if children is not None:
            tensors = np.concatenate([tensors, children])
            mask = np.concatenate([mask, np.ones((len(children), mask.shape[1]), np.bool_)])
        priors, values = self.evaluator.evaluate(tensors, mask)
        root_value = None
        if children is not None:  # the own entry, [-1, 1] -> so_ismcts's scores [0, 1]
            root_value = np.zeros(self.game.num_actions)
            root_value[list(view.legal_actions)] = 0.5 * (values[1:, view.player] + 1.0)
        left = None if self.time_budget is None else \
            max(0.0, self.time_budget - (time.perf_counter() - t0))
        tree = so_search(self.game, lambda n: self.belief.sample_many(view, n, rng),
                         view.player, Budget(iterations=self.iterations, seconds=left),
                         c=self.c_ucb, seed=seed_from(rng), root_prior=priors[0],
                         c_prior=self.cfg.c_puct, root_value=root_value,
                         value_mix=self.value_mix)
        self.last_stats = tree.stats(0)
        self.last_simulations = sum(n for n, _ in self.last_stats.values())
        return final_policy(self.last_stats, self.final, self.game.num_actions)

    def _after_moves(self, view: View, rng: np.random.Generator) -> np.ndarray | None:
        """float32[L, tensor_size]: the searcher's own view after each of its L legal
        moves, in one world of its belief (an information-state tensor holds only
        what the seat has seen, so any consistent world gives the same rows); None
        where a move ends the game or meets chance (the rollouts value those
        exactly), or with a single move."""
        g, me = self.game, view.player
        if len(view.legal_actions) < 2:
            return None
        world = self.belief.sample_many(view, 1, rng)[0]
        rows = np.zeros((len(view.legal_actions), g.tensor_size), dtype=np.float32)
        for i, a in enumerate(view.legal_actions):
            s = world.copy()
            g.kernel.apply_action(s, g.kparams, a)
            if g.kernel.current_player(s, g.kparams) < 0:  # CHANCE or TERMINAL
                return None
            g.kernel.info_tensor(s, g.kparams, me, rows[i])
        return rows

    def _more_worlds(self, have: int) -> int:
        """Worlds to draw next, with ``have`` drawn so far (0: the cap is reached)."""
        chunk = self.iterations if self.time_budget is None else WORLD_CHUNK
        if self.max_worlds is not None:
            chunk = min(chunk, self.max_worlds - have)
        return chunk

    def act(self, view: View, rng: np.random.Generator) -> int:
        pi = self.policy(view, rng)
        if self.final in ("visit_distribution", "mirror"):
            return int(rng.choice(len(pi), p=pi))
        return int(np.argmax(pi))


def load_planner(path: str, game: Game | None = None, device: str = "auto",
                 **knobs) -> PUCTAgent:
    """A `PUCTAgent` guided by the network of checkpoint ``path``.

    ``game`` defaults to the game recorded in the checkpoint; a checkpoint of
    another game raises `IszError`. A game defined outside isz is registered by
    importing the module the checkpoint recorded, which must be importable in
    this environment (installed, or under a folder on ``sys.path``). ``knobs``
    are `PUCTAgent` knobs; those not given default to the planner settings the
    training run recorded in the checkpoint (simulations, belief, opponents,
    final rule, ...), else to `PUCT_KNOBS`.
    """
    from isz.agents.network import NetworkEvaluator
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint, load_model

    ckpt = load_checkpoint(path)
    if game is None:
        game = checkpoint_game(ckpt)
    model, _ = load_model(path, game)
    trained = dict((ckpt.get("extra") or {}).get("planner") or {})
    return PUCTAgent(game, evaluator=NetworkEvaluator(model, device), **{**trained, **knobs})


register_agent(PUCTAgent.name, PUCTAgent, PUCT_KNOBS)
