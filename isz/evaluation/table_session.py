"""A session at the table (`scripts/play.py`): the game and agents a `PlayConfig`
names, several games in a row, a running total."""

from __future__ import annotations

from pathlib import Path

from isz.agents.base import Agent
from isz.agents.planner import load_planner
from isz.agents.registry import agent_knobs, make_agent
from isz.evaluation.table import Ask, Quit, Say, explain_decisions, play_game, report
from isz.evaluation.table_config import PlayConfig
from isz.games.base import Game
from isz.games.registry import import_game_module, make_game
from isz.settings.play import PLAY
from isz.types import IszError, check_int

PLANNER = "planner"


def resolve(cfg: PlayConfig) -> PlayConfig:
    """Fill ``game``, ``game_module`` and ``agent`` from the checkpoint (if any) or the
    defaults, and import the game's module (a game defined outside isz)."""
    if cfg.checkpoint:
        path = Path(cfg.checkpoint)
        if not path.is_file():
            raise IszError(f"checkpoint {cfg.checkpoint!r} is not a file")
        from isz.nn.checkpoint import load_checkpoint

        ckpt = load_checkpoint(str(path))
        cfg.game_module = cfg.game_module or ckpt.get("game_module")
        if cfg.game is None:
            spec = ckpt["game"]
            cfg.game = spec.get("preset") or spec["name"]
            cfg.game_params = {**spec["params"], **cfg.game_params}
    if cfg.game_module:
        import_game_module(cfg.game_module)
    cfg.game = cfg.game or "oh_hell"
    cfg.agent = cfg.agent or (PLANNER if cfg.checkpoint else "so_ismcts")
    if cfg.agent == PLANNER and not cfg.checkpoint:
        raise IszError(f"agent {PLANNER!r} needs checkpoint=PATH (a training checkpoint)")
    return cfg


def build_agents(cfg: PlayConfig, game: Game) -> dict[int, Agent]:
    """One agent object per seat other than ``cfg.seat``."""
    check_int("seat", cfg.seat, lo=0, hi=game.num_players - 1)
    knobs = dict(cfg.knobs)
    if cfg.agent == PLANNER or "iterations" in agent_knobs(cfg.agent):
        knobs = {"iterations": cfg.iterations, **knobs}

    def one() -> Agent:
        if cfg.agent == PLANNER:
            return load_planner(cfg.checkpoint, game, **knobs)
        return make_agent(cfg.agent, game, **knobs)

    return {p: one() for p in range(game.num_players) if p != cfg.seat}


def play_session(cfg: PlayConfig, ask: Ask, say: Say) -> list[float]:
    """Play ``cfg.games`` games; return your utility per finished game."""
    PLAY.check(cfg)
    cfg = resolve(cfg)
    game = make_game(cfg.game, **cfg.game_params)
    agents = build_agents(cfg, game)
    others = ", ".join(f"P{p} {a.name}" for p, a in agents.items()) or "nobody"
    say(f"isz table: {game!r}. You are P{cfg.seat}; playing: {others}.")
    utils: list[float] = []
    for index in range(cfg.games):
        say(f"\n=== game {index + 1} of {cfg.games} (seed {cfg.seed}) ===")
        try:
            state, log = play_game(game, agents, cfg.seat, cfg.seed, index, ask, say,
                                   explain=cfg.explain)
        except Quit:
            say("you left the table.")
            break
        utils.append(report(state, cfg.seat, say)[1])
        if cfg.explain and log:
            explain_decisions(log, agents, say)
    if utils:
        say(f"\nyour total over {len(utils)} game(s): {sum(utils):+g}")
    return utils
