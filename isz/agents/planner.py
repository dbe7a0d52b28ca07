"""`load_planner`: the agent a checkpoint's planner record names, guided by its network.

A training run records its planner in every checkpoint (``extra["planner"]``,
`isz.training.evaluation.planner_knobs`): ``{"agent": "puct_ismcts", <its
settings>}``. A record without ``agent`` is older: ``engine: so_ismcts`` there
means `guided_so_ismcts`, otherwise `puct_ismcts`.
"""

from __future__ import annotations

from isz.agents.base import Agent
from isz.agents.guided_so_agent import GuidedSOAgent
from isz.agents.puct_agent import PUCTAgent
from isz.games.base import Game
from isz.types import IszError, check_choice

PLANNERS = {PUCTAgent.name: PUCTAgent, GuidedSOAgent.name: GuidedSOAgent}


def planner_settings(record: dict, overrides: dict) -> tuple[str, dict]:
    """``(agent name, settings)`` of a planner: the record's settings that agent takes,
    ``overrides`` on top (``agent`` among them picks another planner). A
    ``time_budget`` override without ``iterations`` drops the recorded iterations:
    the time alone is the budget."""
    record, overrides = dict(record), dict(overrides)
    if "engine" in overrides:
        raise IszError(f"engine={overrides['engine']!r} is gone: the planners are agents, "
                       "agent=puct_ismcts (engine=puct) or agent=guided_so_ismcts "
                       "(engine=so_ismcts)")
    engine = record.pop("engine", "puct")  # records written before the agents split
    name = record.pop("agent", "guided_so_ismcts" if engine == "so_ismcts" else "puct_ismcts")
    name = overrides.pop("agent", name)
    check_choice("planner agent", name, sorted(PLANNERS))
    takes = PLANNERS[name].SETTINGS
    settings = {k: v for k, v in record.items() if k in takes}
    if overrides.get("time_budget") is not None and "iterations" not in overrides:
        settings.pop("iterations", None)
    return name, {**settings, **overrides}


def load_planner(path: str, game: Game | None = None, device: str = "auto",
                 **overrides) -> Agent:
    """The planner of checkpoint ``path``, guided by its network.

    ``game`` defaults to the game recorded in the checkpoint; a checkpoint of
    another game raises `IszError`. A game defined outside isz is registered by
    importing the module the checkpoint recorded, which must be importable in
    this environment (installed, or under a folder on ``sys.path``). The agent
    is the one the checkpoint's planner record names (``agent=...`` picks
    another: ``puct_ismcts`` or ``guided_so_ismcts``), with the recorded
    settings it takes, ``overrides`` on top (`planner_settings`).
    """
    from isz.agents.network import NetworkEvaluator
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint, load_model, planner_record

    ckpt = load_checkpoint(path)
    if game is None:
        game = checkpoint_game(ckpt)
    name, settings = planner_settings(planner_record(ckpt), overrides)
    if "evaluator" not in settings:
        settings["evaluator"] = NetworkEvaluator(load_model(path, game)[0], device)
    return PLANNERS[name](game, **settings)
