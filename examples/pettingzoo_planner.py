"""A trained isz planner against PettingZoo's random agent, in PettingZoo's own loop.

    python examples/pettingzoo_planner.py                  # trains a tiny Kuhn planner first
    python examples/pettingzoo_planner.py --checkpoint runs/tricks/checkpoints/best.pt \\
        --games 100 --iterations 32

The planner (`isz.load_planner`) plays one seat through `IszAgentPolicy`, which
hands it only that seat's view; every other seat is the usual PettingZoo
random agent, a masked sample of its action space. The planner's seat rotates
game by game. Prints the planner's mean return (the game's returns, in
[-1, 1]) with its standard error, and its share of games won.
Needs ``pip install 'isz[pettingzoo]'``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

import isz
from isz.pettingzoo import IszAgentPolicy, env


def train_tiny(run_dir: Path, game: str = "kuhn_poker") -> Path:
    """A few seconds of self-play training on ``game``; returns its checkpoint's path."""
    from isz.training.config import TrainConfig
    from isz.training.loop import train

    cfg = TrainConfig()
    cfg.game.name = game
    cfg.selfplay.games_per_iteration, cfg.selfplay.parallel_games = 64, 32
    cfg.selfplay.teacher_iterations = 16  # the default recipe: the planner teaches
    cfg.model.width, cfg.model.depth = 32, 1
    cfg.trainer.iterations, cfg.trainer.steps_per_iteration, cfg.trainer.batch_size = 3, 20, 64
    cfg.trainer.eval_every, cfg.trainer.eval_opponents = 0, []
    cfg.trainer.exploitability_max_histories = 0
    cfg.trainer.device = "cpu"
    cfg.logger.progress = cfg.logger.tensorboard = False
    cfg.experiment.run_dir = str(run_dir)
    train(cfg)
    return run_dir / "checkpoints" / "last.pt"


def play(planner: isz.Agent, games: int, seed: int) -> list[float]:
    """The planner's return in each of ``games`` games, its seat rotating."""
    e = env(planner.game)
    policy = IszAgentPolicy(planner, e, seed=seed)
    out = []
    for g in range(games):
        e.reset(seed=seed + g)
        mine = e.possible_agents[g % len(e.possible_agents)]
        for i, name in enumerate(e.possible_agents):
            e.action_space(name).seed(seed + 1000 * g + i)  # PettingZoo's random agents
        total = 0.0
        for name in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if name == mine:
                total += reward
            if terminated or truncated:
                action = None
            elif name == mine:
                action = policy(obs, name)
            else:
                action = e.action_space(name).sample(obs["action_mask"])
            e.step(action)
        out.append(total)
    e.close()
    return out


def main(argv: list[str] | None = None) -> dict[str, float]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", help="an isz checkpoint (default: train a tiny one)")
    p.add_argument("--game", default="kuhn_poker", help="game of the tiny training run")
    p.add_argument("--games", type=int, default=200, help="games to play")
    p.add_argument("--iterations", type=int, default=None,
                   help="planner simulations per move (default: the checkpoint's)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    knobs = {} if args.iterations is None else {"iterations": args.iterations}
    with tempfile.TemporaryDirectory() as tmp:
        path = args.checkpoint or train_tiny(Path(tmp), args.game)
        planner = isz.load_planner(str(path), device="cpu", **knobs)
    returns = np.array(play(planner, args.games, args.seed))
    result = {"games": len(returns), "mean_return": float(returns.mean()),
              "se": float(returns.std(ddof=1) / np.sqrt(len(returns))) if len(returns) > 1
              else float("nan"),
              "won": float((returns > 0).mean())}
    print(f"{planner.game!r}: {planner!r} vs PettingZoo random agents, {result['games']} "
          f"games: mean return {result['mean_return']:+.3f} +- {result['se']:.3f}, "
          f"won {result['won']:.0%}")
    return result


if __name__ == "__main__":
    main()
