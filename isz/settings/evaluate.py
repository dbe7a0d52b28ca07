"""Settings of `scripts/evaluate.py` (the arena): the schema
`isz.evaluation.config.EvaluateConfig` is built from `EVALUATE`."""

from __future__ import annotations

from isz.settings.core import Group, Setting

EVALUATE = Group("evaluate", "An arena match: agents, budget, deals, output", [
    Setting("game", str, None, "game or preset (isz.game_names())",
            null="tricks, or the checkpoint's game when checkpoint is set"),
    Setting("game_params", dict, {}, "overrides of the game's parameters"),
    Setting("game_module", str, None, "module defining a game outside isz, imported first "
            "(examples.goofspiel); a checkpoint's recorded module is imported by itself",
            null="a game of isz"),
    Setting("agents", list[str], None, "agent names, cycled over the seats; planner: the "
            "checkpoint's planner", null="[so_ismcts, pimc], or [planner, so_ismcts] with a "
            "checkpoint"),
    Setting("checkpoint", str, None, "a training checkpoint to play as agent planner "
            "(isz.load_planner)", null="none"),
    Setting("deals", int, 20, "deals; each is played once per seat rotation", lo=1),
    Setting("seed", int, 0, "same seed, same result (whatever workers)", lo=0),
    Setting("workers", int, None, "workers to spread the deals over: processes of this "
            "machine, or Ray workers with backend=ray", lo=1,
            null="1 (this process), or with backend=ray one per CPU of the Ray cluster"),
    Setting("backend", str, None, "where the deals are played: local (processes of this "
            "machine) or ray (workers on every node of a Ray cluster; the ray.* keys)",
            choices=("local", "ray"), null="ray when ray.address is set, else local"),
    Setting("resume", bool, True, "journal each finished deal next to output; the same "
            "command again plays only the missing ones (false: start over)"),
    Setting("iterations", int, 1000, "search budget of every agent with an iterations "
            "setting (the planner's simulations)", lo=1),
    Setting("time_per_move", float, None, "seconds per decision for every searching agent "
            "(its time_budget alone: no iteration cap): equal wall time per move", lo=0,
            above=True, null="iterations is the budget"),
    Setting("knobs", dict, {}, "agent name -> extra settings (knobs.pimc.determinizations=8)"),
    Setting("output", str, None, "JSON result; relative to the launch directory",
            null="results/evaluate-GAME-KEY.json, KEY a hash of the match's settings: "
            "a match of other settings never replaces it; the same match resumes into it, "
            "and with more deals extends it"),
    Setting("exploitability", bool, False, "games small enough to enumerate: the exact "
            "exploitability (NashConv/2) of each distinct agent's policy"),
    Setting("progress", bool, True, "progress bar over deals (hidden when stderr is not a "
            "terminal)"),
])
