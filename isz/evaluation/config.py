"""Typed schema of `scripts/evaluate.py`'s configuration, built from the declaration
`isz.settings.evaluate.EVALUATE` (every key: ``docs/configuration.md``), plus ``ray``:
the training `ray` group (`isz.settings.training.RAY`) for ``backend=ray``.

`conf/evaluate/evaluate.yaml` fills it; hydra registers it as ``evaluate_schema`` in its
ConfigStore, so an unknown key (a typo) or a value of the wrong type is
rejected with the key named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any  # noqa: F401  (the generated class's annotations name it)

from isz.settings.evaluate import EVALUATE
from isz.training.config import RayCfg

EvaluateKeys = EVALUATE.dataclass("EvaluateKeys", __name__)


@dataclass
class EvaluateConfig(EvaluateKeys):
    """The evaluate settings and the ``ray`` group."""

    ray: RayCfg = field(default_factory=RayCfg)
