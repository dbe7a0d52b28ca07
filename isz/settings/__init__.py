"""Every setting of isz, declared once (type, default, allowed values, one line of
meaning): `isz.settings.search` (the PUCT search), `isz.settings.agents` (one group
per search agent), `isz.settings.training` (the hydra groups of ``scripts/train.py``).

The hydra schema, validation, the agents' constructors, the planner record in
checkpoints (`isz.settings.planner_record`) and ``docs/configuration.md``
(`isz.settings.docs`) derive from them. To
add a setting: declare a `Setting` in the module of its topic, put it in the
`Group` of each consumer, read it where it acts, and regenerate the docs
(``python -m isz.settings.docs``).
"""

from isz.settings.core import Group, Rule, Setting

__all__ = ["Group", "Rule", "Setting"]
