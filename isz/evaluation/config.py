"""Typed schema of `scripts/evaluate.py`'s configuration, built from the declaration
`isz.settings.evaluate.EVALUATE` (every key: ``docs/configuration.md``).

`conf/evaluate/evaluate.yaml` fills it; hydra registers it as ``evaluate_schema`` in its
ConfigStore, so an unknown key (a typo) or a value of the wrong type is
rejected with the key named.
"""

from __future__ import annotations

from typing import Any  # noqa: F401  (the generated class's annotations name it)

from isz.settings.evaluate import EVALUATE

EvaluateConfig = EVALUATE.dataclass("EvaluateConfig", __name__)
