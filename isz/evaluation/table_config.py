"""Typed schema of `scripts/play.py`'s configuration, built from the declaration
`isz.settings.play.PLAY` (every key: ``docs/configuration.md``).

`conf/play/play.yaml` fills it; hydra registers it as ``play_schema``, so an
unknown key or a value of the wrong type is rejected with the key named.
"""

from __future__ import annotations

from typing import Any  # noqa: F401  (the generated class's annotations name it)

from isz.settings.play import PLAY

PlayConfig = PLAY.dataclass("PlayConfig", __name__)
