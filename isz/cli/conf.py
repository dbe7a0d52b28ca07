"""Where the commands find their hydra configs and keep their own run folders.

The configs are the repository's top-level ``conf/``. A checkout (an editable
install, or ``python scripts/train.py``) reads it beside the ``isz`` package;
an installed wheel carries it inside the package as ``isz/conf``
(``pyproject.toml`` maps one onto the other), so the commands work from any
folder.
"""

from __future__ import annotations

from pathlib import Path

from isz.types import IszError

PACKAGE = Path(__file__).resolve().parents[1]  # the isz package folder


def conf_dir() -> Path:
    """The folder holding ``train.yaml`` and the config groups: ``isz/conf`` when isz
    was installed from a wheel, else ``conf/`` of the checkout isz runs from."""
    places = (PACKAGE / "conf", PACKAGE.parent / "conf")
    for place in places:
        if (place / "train.yaml").is_file():
            return place
    raise IszError(f"isz's configs are missing (no train.yaml in {places[0]} or "
                   f"{places[1]}): reinstall isz")


def outputs_root() -> Path:
    """Where ``outputs/`` (the run folders hydra keeps for evaluate and play) goes: the
    checkout's root (whose ``outputs/`` git ignores) whatever the launch directory, or
    the launch directory for an installed wheel."""
    conf = conf_dir()
    return conf.parent if conf.parent != PACKAGE else Path.cwd()


def register_isz_root() -> None:
    """``${isz_root:}`` in ``conf/evaluate`` and ``conf/play``: `outputs_root`."""
    from omegaconf import OmegaConf

    OmegaConf.register_new_resolver("isz_root", lambda: str(outputs_root()), replace=True)
