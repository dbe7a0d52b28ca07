"""Typed schema of `scripts/train.py` (hydra groups: game, search, belief, model,
selfplay, trainer, logger, ray, experiment), built from the declarations in
`isz.settings.training` (every key, its default, what it allows and means:
``docs/configuration.md``).

Hydra merges ``conf/`` into these dataclasses, so a misspelt key is rejected
with the key named; `validate` checks the values and the rules between them and
names what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any  # noqa: F401  (the generated classes' annotations name it)

from isz.settings import training as st
from isz.types import IszError

GameCfg = st.GAME.dataclass("GameCfg", __name__)
SearchCfg = st.SEARCH.dataclass("SearchCfg", __name__)
BeliefCfg = st.BELIEF.dataclass("BeliefCfg", __name__)
ModelCfg = st.MODEL.dataclass("ModelCfg", __name__)
SelfPlayCfg = st.SELFPLAY.dataclass("SelfPlayCfg", __name__)
TrainerCfg = st.TRAINER.dataclass("TrainerCfg", __name__)
LoggerCfg = st.LOGGER.dataclass("LoggerCfg", __name__)
RayCfg = st.RAY.dataclass("RayCfg", __name__)
ExperimentCfg = st.EXPERIMENT.dataclass("ExperimentCfg", __name__)


@dataclass
class TrainConfig:
    game: GameCfg = field(default_factory=GameCfg)
    search: SearchCfg = field(default_factory=SearchCfg)
    belief: BeliefCfg = field(default_factory=BeliefCfg)
    model: ModelCfg = field(default_factory=ModelCfg)
    selfplay: SelfPlayCfg = field(default_factory=SelfPlayCfg)
    trainer: TrainerCfg = field(default_factory=TrainerCfg)
    logger: LoggerCfg = field(default_factory=LoggerCfg)
    ray: RayCfg = field(default_factory=RayCfg)
    experiment: ExperimentCfg = field(default_factory=ExperimentCfg)


CONFIG_FILE = "config.yaml"  # in a run folder: the settings it last started with


def ends_generation(t: TrainerCfg, it: int) -> bool:
    """Whether iteration ``it`` (1-based) ends a generation: its checkpoint is kept as
    ``gen-NNNNNN.pt``, the playout is refitted and the ladder steps
    (``trainer.generation_schedule``)."""
    if t.generation_schedule == "doubling":
        return it & (it - 1) == 0 or it == t.iterations
    return bool(t.generation_every) and it % t.generation_every == 0


def save_run_config(cfg: TrainConfig, run_dir: Path) -> None:
    """Write ``cfg`` as ``run_dir/config.yaml`` (atomically, at every start or resume):
    the settings that tools re-running part of the run (`research.polish_average`,
    `research.replay_average`) read back with `load_run_config`."""
    from omegaconf import OmegaConf

    from isz.fs import write_atomic

    text = OmegaConf.to_yaml(OmegaConf.structured(cfg))
    write_atomic(Path(run_dir) / CONFIG_FILE, lambda f: f.write(text))


def load_run_config(run_dir: str | Path) -> TrainConfig:
    """The `TrainConfig` a run folder recorded (`save_run_config`); IszError when it has
    none (a run from before config.yaml existed) or it does not fit the schema."""
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    path = Path(run_dir) / CONFIG_FILE
    if not path.is_file():
        raise IszError(f"{run_dir}: no {CONFIG_FILE} (a run started before runs recorded "
                       "their settings): give the run's hydra overrides instead")
    try:
        merged = OmegaConf.merge(OmegaConf.structured(TrainConfig), OmegaConf.load(path))
        return OmegaConf.to_object(merged)
    except (OmegaConfBaseException, ValueError) as e:
        key = getattr(e, "full_key", None)  # OmegaConf's message runs over several lines
        where = f" (at {key})" if key else ""
        raise IszError(f"cannot read {path}: {str(e).splitlines()[0]}{where}") from e


def belief_policy(b) -> str:
    """``cfg.belief.policy``, or its default (network; beliefs without one ignore it)."""
    return b.policy or "network"


def check_continue_from(path: str | None, run_dir: str) -> None:
    """`trainer.continue_from`: unset, or an existing file (IszError naming it); not
    looked at once ``run_dir`` has its own last.pt (the source may be gone by then)."""
    if (Path(run_dir) / "checkpoints" / "last.pt").exists():
        return
    if path is not None and not Path(path).expanduser().is_file():
        raise IszError(f"trainer.continue_from={path!r}: no such checkpoint file (give "
                       f"another run's checkpoints/last.pt)")


def validate(cfg: TrainConfig) -> None:
    """Raise `IszError` naming the first bad value and what is allowed: every group's
    settings, then the rules between them (`isz.settings.training.TRAIN_RULES`)."""
    for group in st.GROUPS:
        group.check(getattr(cfg, group.name), f"{group.name}.")
    for rule in st.TRAIN_RULES:
        rule.check(cfg)
    check_continue_from(cfg.trainer.continue_from, cfg.experiment.run_dir)
