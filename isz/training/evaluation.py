"""Evaluation of the network during training: arena matches and exploitability.

The trained planner (`PUCTAgent` with the current network, no root noise,
most-visited move) plays each opponent at the same simulation count; for any
game with at most ``trainer.exploitability_max_histories`` histories the exact
exploitability of its policy (and of the raw network) is computed too.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from isz.agents import make_agent
from isz.agents.network import NetworkEvaluator
from isz.agents.puct_agent import PUCTAgent
from isz.evaluation import match
from isz.evaluation.exploitability import agent_policy, exploitability, fits, infostates
from isz.games.base import Game
from isz.nn.model import PolicyValueNet
from isz.progress import Progress
from isz.search.evaluator import evaluator_policy
from isz.settings.training import planner_record


def planner_knobs(cfg, final: str = "most_visits") -> dict:
    """The planner as the run ``cfg`` evaluates it: ``{"agent": "puct_ismcts", **its
    settings}`` (`isz.settings.training.planner_record`), also stored in every
    checkpoint, so `isz.load_planner` plays as trained by default."""
    return planner_record(cfg, final)


def planner(game: Game, model: PolicyValueNet, cfg, device,
            final: str = "most_visits") -> PUCTAgent:
    """The network-guided planner as it plays in evaluation."""
    knobs = {k: v for k, v in planner_knobs(cfg, final).items() if k != "agent"}
    return PUCTAgent(game, evaluator=NetworkEvaluator(model, device), **knobs)


def evaluate(game: Game, model: PolicyValueNet, cfg, device, deals: int, seed: int,
             step: Callable[[str, int, str], Progress] | None = None) -> dict[str, float]:
    """Scalars ``eval/score_vs_<opp>``, ``eval/se_vs_<opp>`` (and exploitability).

    ``step(desc, total, unit)``: a `Progress` per matchup and exploitability."""
    step = step or (lambda desc, total, unit: Progress(desc, total, unit, enabled=False))
    out: dict[str, float] = {}
    sims = cfg.search.simulations
    # forked workers cannot use CUDA that the parent initialised, nor a Ray driver's
    # connections (trainer.actors): those runs play their evaluation in this process
    forkable = torch.device(device).type == "cpu" and not cfg.trainer.actors
    workers = cfg.trainer.eval_workers if forkable else 1
    for opp in cfg.trainer.eval_opponents:
        seats = [planner(game, model, cfg, device)]
        while len(seats) < game.num_players:
            knobs = {"iterations": sims} if opp != "random" else {}
            seats.append(make_agent(opp, game, **{**knobs,
                                                  **cfg.trainer.eval_knobs.get(opp, {})}))
        with step(f"eval vs {opp}", deals, "deals") as bar:
            res = match(game, seats, deals=deals, seed=seed, progress=bar.update,
                        workers=workers)
        me = res.agents[0]
        out[f"eval/score_vs_{opp}"] = me.score
        out[f"eval/se_vs_{opp}"] = me.score_se
    out.update(exploitability_of(game, model, cfg, device, seed, step))
    return out


def exploitability_of(game: Game, model: PolicyValueNet, cfg, device, seed: int,
                      step: Callable[[str, int, str], Progress] | None = None,
                      prefix: str = "eval/") -> dict[str, float]:
    """``<prefix>exploitability`` (the planner guided by ``model``, planner seed
    ``seed``) and ``<prefix>exploitability_net`` (its policy head alone), for a game
    small enough (``trainer.exploitability_max_histories``); {} otherwise."""
    step = step or (lambda desc, total, unit: Progress(desc, total, unit, enabled=False))
    cap = cfg.trainer.exploitability_max_histories
    if not (cap and fits(game, cap)):
        return {}
    # the planner's mixed policy: its root visit distribution
    agent = planner(game, model, cfg, device, final="visit_distribution")
    desc = "exploitability" + ("" if prefix == "eval/" else f" ({prefix})")
    with step(desc, infostates(game, cap), "infostates") as bar:
        policy = agent_policy(agent, seed)
        out = {f"{prefix}exploitability": exploitability(game, policy, cap,
                                                         progress=bar.update).exploitability}
    # the raw network (its policy head alone), to tell learning from search
    raw = evaluator_policy(agent.evaluator)
    out[f"{prefix}exploitability_net"] = exploitability(game, raw).exploitability
    return out
