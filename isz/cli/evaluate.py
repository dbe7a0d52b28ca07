"""``isz-evaluate`` (or ``python scripts/evaluate.py``): play agents against each other
in the arena and report scores with standard errors.

    isz-evaluate game=tricks agents=[so_ismcts,pimc] deals=300 iterations=1000

Keys: isz/evaluation/config.py. ``agents`` lists agent names; with fewer names
than the game has seats, the seats are filled by cycling the list
(``agents=[random]`` on a 2-player game plays random against random). Every
agent with an ``iterations`` knob gets ``iterations``; ``knobs.NAME`` adds or
overrides knobs of agent NAME (``knobs.pimc.worlds=8`` or
``knobs={pimc:{worlds:8}}``), and ``game_params.KEY=VALUE`` sets a game
parameter; ``game_module=package.module`` imports a game defined outside isz
first (as with ``python -m``, modules under the launch directory are importable;
a checkpoint's game module is imported by itself). Prints the result table and
writes config + result as JSON to ``output`` (relative paths are relative to the
launch directory; by default ``results/evaluate-GAME-KEY.json``, KEY a hash of the
match's settings, so one match never replaces another's result).

A trained network plays as agent ``planner``:
``isz-evaluate checkpoint=runs/tricks/checkpoints/best.pt agents=[planner,so_ismcts]
iterations=32`` (the game defaults to the checkpoint's; ``iterations`` is its simulations;
its other search settings default to those the training run recorded). On a game small
enough to enumerate, ``exploitability=true`` adds the exact exploitability of every agent's
policy.

Equal wall time per move: ``time_per_move=0.05`` gives every searching agent
(planner included) a budget of 0.05 s per decision instead of ``iterations``;
the table and the JSON record each agent's mean seconds and simulations per
decision. Wall-clock results depend on the machine and its load (another
process on the same cores slows every agent, not always equally): report them
with their standard errors and the machine, and prefer ``workers`` <= cores.

More workers: ``workers=4`` plays the deals over 4 processes on this machine;
``backend=ray workers=4`` over 4 workers of a new local Ray, and ``ray.address=auto``
(or ``HOST:PORT``) over every node of a running Ray cluster (``workers`` defaults to one
per CPU of the cluster; docs/distributed.md). The result is the same deal by deal.
Each finished deal is written as it finishes to a journal next to ``output``
(``<output stem>.deals-<key>.jsonl``, keyed by a hash of the match's settings): after
Ctrl-C or a kill, the same command plays only the missing deals (``resume=false``
starts over). The journal is removed once the result is written.

User errors (unknown game, agent, knob or config key, bad values, an ``output``
that is a folder or cannot be written, ``exploitability=true`` on a game too
large for it, a checkpoint of another game or a corrupted one) exit with status
2 and one ``error: ...`` line on stderr, before the match starts; Ctrl-C exits with
status 130 and one line saying what it keeps.
"""

from __future__ import annotations

import dataclasses
import json

from hydra.core.config_store import ConfigStore
from hydra.utils import to_absolute_path
from omegaconf import DictConfig, OmegaConf

from isz import IszError, load_planner, make_agent, make_game
from isz.agents import Agent, agent_knobs
from isz.cli import hydra_command, one_line_errors, stopped, unknown_keys
from isz.evaluation import MatchSpec, SeatSpec, make_backend, play_match, resumable
from isz.evaluation.config import EvaluateConfig
from isz.fs import check_output_file, write_json_atomic
from isz.games import Game, import_game_module
from isz.settings.evaluate import EVALUATE
from isz.settings.training import RAY

PLANNER = "planner"
# output's folder when none is given (the file is named by `default_output_name`)
DEFAULT_OUTPUT = "results/evaluate.json"


def _schema() -> DictConfig:
    """`EvaluateConfig` with its free-form dicts open, so ``knobs.pimc.worlds=8`` and
    ``game_params.KEY=VALUE`` need no ``+`` (make_game/make_agent vet those keys)."""
    node = OmegaConf.structured(EvaluateConfig)
    OmegaConf.set_struct(node.game_params, False)
    OmegaConf.set_struct(node.knobs, False)
    return node


def store_schema() -> None:
    """``evaluate_schema``, the first entry of ``conf/evaluate/evaluate.yaml``'s defaults."""
    ConfigStore.instance().store(name="evaluate_schema", node=_schema())


def seat_specs(cfg: EvaluateConfig, game: Game) -> list[tuple[str, dict]]:
    """``(agent name, knobs)`` per seat: names cycled over the seats, knobs resolved."""
    if not cfg.agents:
        raise IszError("agents must name at least one agent")
    if PLANNER in cfg.agents and not cfg.checkpoint:
        raise IszError(f"agent {PLANNER!r} needs checkpoint=PATH (a training checkpoint)")
    if len(cfg.agents) > game.num_players:
        raise IszError(f"{game.name} has {game.num_players} seat(s) but {len(cfg.agents)} "
                       f"agents were given: {', '.join(cfg.agents)}")
    names = [cfg.agents[i % len(cfg.agents)] for i in range(game.num_players)]
    stray = sorted(set(cfg.knobs) - set(names))
    if stray:
        raise IszError(f"knobs given for agent(s) not playing: {', '.join(stray)}; "
                       f"playing: {', '.join(sorted(set(names)))}")
    specs = []
    for name in names:
        specs.append((name, {**budget_knobs(cfg, name), **cfg.knobs.get(name, {})}))
    return specs


def budget_knobs(cfg: EvaluateConfig, name: str) -> dict:
    """The search budget of agent ``name``: ``iterations``, or with ``time_per_move``
    the same wall time for every agent that searches (``time_budget`` alone: no
    iteration cap)."""
    knobs = {} if name == PLANNER else agent_knobs(name)
    if cfg.time_per_move is not None and (name == PLANNER or "time_budget" in knobs):
        return {"time_budget": cfg.time_per_move}
    if name == PLANNER or "iterations" in knobs:
        return {"iterations": cfg.iterations}
    return {}


def build_agents(specs: list[tuple[str, dict]], game: Game,
                 checkpoint: str | None = None) -> list[Agent]:
    """One agent object per seat; ``planner`` is the checkpoint's network-guided planner
    (reported as ``planner``, the name the user gave)."""
    agents = [load_planner(checkpoint, game, **knobs) if name == PLANNER
              else make_agent(name, game, **knobs) for name, knobs in specs]
    for (name, _), agent in zip(specs, agents, strict=True):
        agent.name = name
    return agents


def resolve_defaults(cfg: EvaluateConfig) -> EvaluateConfig:
    """Fill ``game`` and ``agents`` from the checkpoint (if any) or the plain defaults."""
    if cfg.game is None:
        if cfg.checkpoint:
            from isz.nn.checkpoint import checkpoint_game, load_checkpoint

            ckpt = load_checkpoint(to_absolute_path(cfg.checkpoint))
            checkpoint_game(ckpt)  # registers a game defined outside isz
            spec = ckpt["game"]
            cfg.game = spec.get("preset") or spec["name"]
            cfg.game_params = {**spec["params"], **cfg.game_params}
        else:
            cfg.game = "tricks"
    if cfg.agents is None:
        cfg.agents = [PLANNER, "so_ismcts"] if cfg.checkpoint else ["so_ismcts", "pimc"]
    if cfg.checkpoint:
        cfg.checkpoint = to_absolute_path(cfg.checkpoint)
    return cfg


def evaluate(cfg: EvaluateConfig) -> dict:
    """Run the match ``cfg`` describes, print its table, write and return the JSON payload."""
    EVALUATE.check(cfg)
    RAY.check(cfg.ray, "ray.")
    if cfg.game_module:
        import_game_module(cfg.game_module)
    # the default's folder is checked now, before any agent is built; its name waits
    # for the match's key
    out = check_output_file(to_absolute_path(cfg.output or DEFAULT_OUTPUT), "output")
    cfg = resolve_defaults(cfg)
    if cfg.checkpoint:
        import torch

        # one core per decision for every agent: a planner with more intra-op
        # threads than the rollout searchers would not be compared at equal cost
        torch.set_num_threads(1)
    game = make_game(cfg.game, **cfg.game_params)
    specs = seat_specs(cfg, game)
    agents = build_agents(specs, game, cfg.checkpoint)
    if cfg.exploitability:
        preflight_exploitability(game, agents)
    spec = match_spec(cfg, specs)
    key = spec.key()  # hashes each checkpoint's bytes: once
    if cfg.output is None:
        out = out.with_name(default_output_name(cfg.game, key))
    kind = cfg.backend or ("ray" if cfg.ray.address else "local")
    with resumable(out, key, cfg.resume) as journal, \
            make_backend(kind, cfg.workers, cfg.ray) as backend:
        result = play_match(spec, backend, journal=journal, progress=cfg.progress)
        payload = {"config": dataclasses.asdict(cfg),
                   "seats": [{"agent": name, "knobs": knobs} for name, knobs in specs],
                   "result": result.to_dict()}
        if cfg.exploitability:
            payload["exploitability"], payload["exploitability_work"] = exploitabilities(
                specs, agents, game, cfg.seed, cfg.progress)
        write_json_atomic(out, payload)
    # the table after the write: a reader that closes the pipe early (| head) cannot
    # cost the results
    print(result.table())
    for pair in payload["result"]["paired"]:
        if pair["se"] is not None:  # one deal has no SE
            print(f"{pair['a']} - {pair['b']}: {pair['diff']:+.3f} ± {pair['se']:.3f} "
                  f"(paired over deals)")
    print(f"wrote {out}")
    return payload


def default_output_name(game: str, key: str) -> str:
    """``evaluate-GAME-KEY.json``: one file per match's settings, so a match never
    replaces another's result, and the same command resumes into and rewrites its own."""
    return f"evaluate-{game}-{key[:10]}.json"


def match_spec(cfg: EvaluateConfig, specs: list[tuple[str, dict]]) -> MatchSpec:
    """The match as names (`MatchSpec`), for any worker to build; a checkpoint's
    recorded game module travels with it."""
    module = cfg.game_module
    if cfg.checkpoint and not module:
        from isz.nn.checkpoint import load_checkpoint

        module = load_checkpoint(cfg.checkpoint).get("game_module")
    seats = tuple(SeatSpec(name, knobs, cfg.checkpoint if name == PLANNER else None)
                  for name, knobs in specs)
    return MatchSpec(cfg.game, seats, cfg.deals, cfg.seed, dict(cfg.game_params), module)


def preflight_exploitability(game: Game, agents: list[Agent]) -> None:
    """Before the match: the game small enough, no agent that cannot have a policy."""
    from isz.evaluation.exploitability import check_size, infostates

    check_size(game)
    infostates(game)  # enumerates the tree (cached): a large game fails here, not after
    for agent in agents:
        if agent.cheats:
            raise IszError(f"exploitability=true: agent {agent.name!r} cheats (sees the true "
                           "state), so it has no policy over information states")


def exploitabilities(specs, agents: list[Agent], game: Game, seed: int,
                     progress: bool = True) -> tuple[dict[str, float], dict[str, dict]]:
    """Exact exploitability of each distinct seat agent's policy (games small enough to
    enumerate; `IszError` otherwise), and per agent what one infostate's answer cost:
    mean seconds and simulations (``time_per_move`` compares agents at equal time)."""
    from isz.evaluation.exploitability import agent_policy, exploitability, infostates
    from isz.progress import Progress

    out: dict[str, float] = {}
    work: dict[str, dict] = {}
    for (name, knobs), agent in zip(specs, agents, strict=True):
        label = f"{name} {json.dumps(knobs, sort_keys=True)}"
        if label not in out:
            policy = agent_policy(agent, seed)
            with Progress(f"exploitability of {name}", infostates(game), "infostates",
                          enabled=progress) as bar:
                out[label] = exploitability(game, policy, progress=bar.update).exploitability
            n = max(policy.work["infostates"], 1)
            work[label] = {"infostates": policy.work["infostates"],
                           "seconds_per_infostate": policy.work["seconds"] / n,
                           "simulations_per_infostate": policy.work["simulations"] / n}
            print(f"exploitability of {label}: {out[label]:.4f} "
                  f"({work[label]['simulations_per_infostate']:.0f} simulations, "
                  f"{work[label]['seconds_per_infostate']:.4f} s per infostate)")
    return out, work


def to_config(dcfg: DictConfig) -> EvaluateConfig:
    """The typed config; rejects keys added with ``+`` that the schema lacks."""
    unknown_keys(dcfg, EvaluateConfig)
    return OmegaConf.to_object(dcfg)


def run(dcfg: DictConfig) -> None:
    """Run the match of the config hydra composed; user errors are one line."""
    with one_line_errors():
        cfg = to_config(dcfg)
        try:
            evaluate(cfg)
        except KeyboardInterrupt:
            stopped("the deals finished so far are in the journal next to the output; "
                    "the same command plays only the missing ones")


def main() -> None:
    """The ``isz-evaluate`` console command: hydra's command line over
    ``conf/evaluate/evaluate.yaml``."""
    hydra_command(run, store_schema, "evaluate", group="evaluate")
