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
from isz.settings.training import belief_spec  # noqa: F401  (re-exported)
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
