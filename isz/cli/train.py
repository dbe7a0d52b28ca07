"""``isz-train`` (or ``python scripts/train.py``): train a policy/value network by
self-play through information-set search.

    isz-train                                     # the default: tricks, ~minutes on CPU
    isz-train game=kuhn_poker trainer.iterations=30
    isz-train game.name=goofspiel game.module=examples.goofspiel
    tensorboard --logdir runs                     # watch it

Re-running the same command (same ``experiment.run_dir``) resumes the run from
its last checkpoint. Keys: isz/training/config.py; groups in conf/ (`isz.cli.conf`). User
errors (unknown names, options, keys or bad values, a run folder that is a
file, read-only or on a full disk, a checkpoint of another game, a diverged
loss) exit with status 2 and one ``error: ...`` line on stderr; Ctrl-C exits with
status 130 and one line saying what the run keeps.

``game.module`` (a game defined outside isz) is imported before the game is made;
as with ``python -m``, modules under the launch directory are importable
(`isz.games.import_game_module`).
"""

from __future__ import annotations

from pathlib import Path

from hydra.core.config_store import ConfigStore
from omegaconf import DictConfig, OmegaConf

from isz.cli import hydra_command, one_line_errors, stopped, unknown_keys
from isz.training.config import TrainConfig, check_continue_from
from isz.types import IszError


def _schema():
    node = OmegaConf.structured(TrainConfig)
    OmegaConf.set_struct(node.game.params, False)  # game params are vetted by make_game
    OmegaConf.set_struct(node.trainer.eval_knobs, False)  # agent knobs: vetted by make_agent
    OmegaConf.set_struct(node.belief.knobs, False)  # belief knobs are vetted by validate
    return node


# A preset's value that the command line must give (``continue_from: ${isz_required:}``:
# the run ``experiment=oh_hell_teacher_long`` continues). OmegaConf's own ``???`` cannot
# say it: merged over the schema's default, ``???`` leaves the default in place.
REQUIRED = "${isz_required:}"


def _required() -> str:
    raise IszError("a value that a preset leaves to the command line was not given")


def store_schema() -> None:
    """``train_schema``, the first entry of ``conf/train.yaml``'s defaults list, and the
    ``isz_required`` resolver of `REQUIRED`."""
    ConfigStore.instance().store(name="train_schema", node=_schema())
    OmegaConf.register_new_resolver("isz_required", _required, replace=True)


def _required_keys(node, prefix: str = "") -> list[str]:
    if isinstance(node, dict):
        return [k for key, v in node.items() for k in _required_keys(v, f"{prefix}{key}.")]
    return [prefix[:-1]] if node == REQUIRED else []


def check_given(cfg: DictConfig) -> None:
    """`IszError` naming each value that the chosen preset leaves to the command line
    (`REQUIRED`) and that the command line did not give."""
    missing = _required_keys(OmegaConf.to_container(cfg, resolve=False))
    if missing:
        name = OmegaConf.select(cfg, "experiment.name", default="?")
        raise IszError(f"experiment {name} needs {', '.join(k + '=...' for k in missing)} on "
                       f"the command line (conf/experiment/{name}.yaml says what it is)")


def preflight(cfg: DictConfig) -> None:
    """Before hydra creates ``<run_dir>/hydra``: keys known and given, the run folder a
    writable folder with some space (`isz.training.loop.train` checks again, with its
    estimate)."""
    from isz.fs import MB, check_free_space, check_writable_dir

    unknown_keys(cfg, TrainConfig, free=("game.params",))
    check_given(cfg)
    check_continue_from(cfg.trainer.continue_from, cfg.experiment.run_dir)
    run_dir = check_writable_dir(cfg.experiment.run_dir, "experiment.run_dir")
    check_free_space(run_dir, 16 * MB, "a training run")  # the estimate comes with the game


def run(cfg: DictConfig) -> None:
    """Train the run ``cfg`` describes (composed by hydra); print its last evaluation."""
    from isz.training.loop import train

    with one_line_errors():
        unknown_keys(cfg, TrainConfig, free=("game.params",))
        check_given(cfg)
        try:
            scalars = train(OmegaConf.to_object(cfg))
        except KeyboardInterrupt:
            stopped(kept(Path(cfg.experiment.run_dir)))
    evals = {k: v for k, v in scalars.items() if k.startswith("eval/")}
    for k, v in sorted(evals.items()):
        print(f"{k:32s} {v:.4f}")


def kept(run_dir: Path) -> str:
    """What a run stopped part-way keeps, for `isz.cli.stopped`."""
    last = run_dir / "checkpoints" / "last.pt"
    if last.exists():
        return f"{last} keeps the last finished iteration; the same command resumes from it"
    return "no iteration had finished; the same command starts anew"


def main() -> None:
    """The ``isz-train`` console command: hydra's command line over ``conf/train.yaml``."""
    hydra_command(run, store_schema, "train", preflight=preflight)
