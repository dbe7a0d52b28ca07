"""``isz-play`` (or ``python scripts/play.py``): play against isz agents in the terminal.

    isz-play                                     # oh_hell vs so_ismcts, you are P0
    isz-play game=kuhn_poker seat=1 agent=so_ismcts iterations=2000
    isz-play checkpoint=runs/tricks/checkpoints/best.pt seat=0
    isz-play game=leduc_poker agent=openspiel_ismcts games=5 seed=3

You see your own cards and the public history, pick a move by its letter or
name (``q`` leaves), and after each game see every card, the result and each
agent's policy over its legal moves; ``game_module=MODULE`` imports a game defined
outside isz (a checkpoint's recorded module is imported by itself). Every key:
docs/configuration.md (declared in isz/settings/play.py).
User errors (unknown game, agent or key, a bad seat, a checkpoint of another
game) exit with status 2 and one ``error: ...`` line on stderr.
"""

from __future__ import annotations

from hydra.core.config_store import ConfigStore
from hydra.utils import to_absolute_path
from omegaconf import DictConfig, OmegaConf

from isz.cli import hydra_command, one_line_errors, unknown_keys
from isz.evaluation.table_config import PlayConfig


def _schema() -> DictConfig:
    node = OmegaConf.structured(PlayConfig)  # free-form dicts: make_game/make_agent vet them
    OmegaConf.set_struct(node.game_params, False)
    OmegaConf.set_struct(node.knobs, False)
    return node


def store_schema() -> None:
    """``play_schema``, the first entry of ``conf/play/play.yaml``'s defaults list."""
    ConfigStore.instance().store(name="play_schema", node=_schema())


def to_config(dcfg: DictConfig) -> PlayConfig:
    """The typed config; rejects keys added with ``+`` that the schema lacks."""
    unknown_keys(dcfg, PlayConfig)
    cfg = OmegaConf.to_object(dcfg)
    if cfg.checkpoint:
        cfg.checkpoint = to_absolute_path(cfg.checkpoint)
    return cfg


def run(dcfg: DictConfig) -> None:
    """Seat the person at the table of the config hydra composed."""
    from isz.evaluation.table_session import play_session

    try:
        with one_line_errors():
            play_session(to_config(dcfg), ask=input, say=lambda text: print(text, flush=True))
    except KeyboardInterrupt:
        print("\nyou left the table.")


def main() -> None:
    """The ``isz-play`` console command: hydra's command line over ``conf/play/play.yaml``."""
    hydra_command(run, store_schema, "play", group="play")
