"""Settings of `scripts/play.py` (a person at the table): the schema
`isz.evaluation.table_config.PlayConfig` is built from `PLAY`."""

from __future__ import annotations

from isz.settings.core import Group, Setting
from isz.settings.evaluate import EVALUATE

PLAY = Group("play", "A person against agents in the terminal", [
    EVALUATE["game"].but(null="oh_hell, or the checkpoint's game when checkpoint is set"),
    EVALUATE["game_params"],
    EVALUATE["game_module"],
    Setting("seat", int, 0, "your seat (P0 moves first in most games)", lo=0),
    Setting("agent", str, None, "who plays the other seats: an agent name "
            "(isz.agent_names()), or planner: the checkpoint's planner",
            null="so_ismcts, or planner with a checkpoint"),
    Setting("checkpoint", str, None, "a training checkpoint, played as agent planner",
            null="none"),
    EVALUATE["iterations"],
    Setting("knobs", dict, {}, "extra settings of the agent (knobs.determinizations=8)"),
    Setting("games", int, 1, "games to play in a row (new deals, same seats)", lo=1),
    EVALUATE["seed"].but(doc="deals and the agents' generators: same seed, same deals"),
    Setting("explain", bool, True, "after each game, show the agents' policies over "
            "their legal moves"),
])
