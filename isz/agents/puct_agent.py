"""`puct_ismcts`: PUCT-ISMCTS guided by an evaluator (a trained network), as an agent.

Knobs: ``iterations`` (simulations per move, default 200), ``c_puct`` (1.5),
``fpu`` (score of an unvisited move, 0.5), ``tree`` (``mo`` one tree per
player, default, or ``so``), ``opponents`` (``puct``, or ``prior``: opponents
play the network's policy, see `isz.search.puct`), ``value_view`` (``searcher``: the
searcher's leaf values from its own view, default; or ``actor``), ``belief`` (name
or `Belief`, default uniform), ``belief_policy`` (``network``: a belief that takes
a policy — posterior, gibbs — weighs histories by the evaluator's priors; or
``uniform``),
``final`` (``most_visits``, ``visit_distribution``, or ``mirror``: the improved
policy ``softmax(log P + mirror_eta * q)`` of `PUCTBatch.mirror_policy`, played
mixed), ``mirror_eta`` (2.0), ``evaluator`` (an
`Evaluator`; None = knowledge-free: uniform priors and random rollouts).
`isz.load_planner(path)` builds one from a checkpoint.
"""

from __future__ import annotations

import numpy as np

from isz.agents.base import Agent
from isz.agents.knobs import check_knobs
from isz.agents.registry import register_agent
from isz.belief import Belief
from isz.games.base import Game, View
from isz.search.evaluator import make_search_belief
from isz.search.puct_driver import OPPONENT_MODES, PUCTBatch, PUCTConfig
from isz.types import IszError, check_choice, check_int, seed_from

PUCT_KNOBS = {"iterations": 200, "c_puct": 1.5, "fpu": 0.5, "tree": "mo", "opponents": "puct",
              "value_view": "searcher", "belief": "uniform", "belief_policy": "network",
              "final": "most_visits", "mirror_eta": 2.0, "evaluator": None}


def _check_number(name: str, value, lo: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < lo:
        raise IszError(f"{name} must be a number >= {lo}, got {value!r}")
    return float(value)


class PUCTAgent(Agent):
    """Network-guided (or rollout) PUCT-ISMCTS from the seat's own view."""

    name = "puct_ismcts"

    def __init__(self, game: Game, **knobs):
        super().__init__(game)
        k = check_knobs(self.name, knobs, PUCT_KNOBS)
        self.iterations = check_int("iterations", k["iterations"], lo=1)
        check_choice("tree", k["tree"], ("mo", "so"))
        check_choice("opponents", k["opponents"], OPPONENT_MODES)
        check_choice("value_view", k["value_view"], ("searcher", "actor"))
        check_choice("final-move rule", k["final"], ("most_visits", "visit_distribution",
                                                     "mirror"))
        self.mirror_eta = _check_number("mirror_eta", k["mirror_eta"], 0.0)
        self.cfg = PUCTConfig(c_puct=_check_number("c_puct", k["c_puct"], 0.0),
                              fpu=_check_number("fpu", k["fpu"], 0.0), tree=k["tree"],
                              rollouts=k["evaluator"] is None, opponents=k["opponents"],
                              value_view=k["value_view"])
        b = k["belief"]
        self.belief = b if isinstance(b, Belief) else \
            make_search_belief(b, game, k["evaluator"], k["belief_policy"])
        self.evaluator = k["evaluator"]
        self.final = k["final"]
        self.knobs = k
        self.last_stats: dict[int, tuple[int, float]] = {}

    def reset(self) -> None:
        self.belief.reset()

    def policy(self, view: View, rng: np.random.Generator) -> np.ndarray:
        """Root visit distribution (``visit_distribution``), the improved policy
        (``mirror``), or one-hot of the most visited move."""
        worlds = self.belief.sample_many(view, self.iterations, rng)[None]
        batch = PUCTBatch(self.game, self.cfg, worlds, [view.player], seed_from(rng))
        batch.run(self.evaluator, self.iterations)
        self.last_stats = batch.root_stats(0)
        pi = batch.target_policy(0, "mirror" if self.final == "mirror" else "visits",
                                 self.mirror_eta)
        if self.final == "most_visits" or pi.sum() == 0:
            best = max(self.last_stats, key=lambda a: self.last_stats[a][0]) \
                if self.last_stats else view.legal_actions[0]
            pi = np.zeros_like(pi)
            pi[best] = 1.0
        return pi / pi.sum()

    def act(self, view: View, rng: np.random.Generator) -> int:
        pi = self.policy(view, rng)
        if self.final in ("visit_distribution", "mirror"):
            return int(rng.choice(len(pi), p=pi))
        return int(np.argmax(pi))


def load_planner(path: str, game: Game | None = None, device: str = "auto",
                 **knobs) -> PUCTAgent:
    """A `PUCTAgent` guided by the network of checkpoint ``path``.

    ``game`` defaults to the game recorded in the checkpoint; a checkpoint of
    another game raises `IszError`. ``knobs`` are `PUCTAgent` knobs; those not
    given default to the planner settings the training run recorded in the
    checkpoint (simulations, belief, opponents, final rule, ...), else to
    `PUCT_KNOBS`.
    """
    from isz.agents.network import NetworkEvaluator
    from isz.games.registry import make_game
    from isz.nn.checkpoint import load_checkpoint, load_model

    ckpt = load_checkpoint(path)
    if game is None:
        spec = ckpt["game"]
        game = make_game(spec["name"], **spec["params"])
    model, _ = load_model(path, game)
    trained = dict((ckpt.get("extra") or {}).get("planner") or {})
    return PUCTAgent(game, evaluator=NetworkEvaluator(model, device), **{**trained, **knobs})


register_agent(PUCTAgent.name, PUCTAgent, PUCT_KNOBS)
