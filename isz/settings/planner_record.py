"""The planner a training run records in its checkpoints (`planner_record`): which agent,
and each of its settings from the run's own settings (`isz.settings.training`).
``docs/configuration.md`` lists the mapping (`isz.settings.docs`)."""

from __future__ import annotations

# puct_ismcts settings that a training run sets in its own words (see `planner_record`)
PLANNER_FROM_TRAINING = {
    "iterations": lambda cfg, final: cfg.search.simulations,
    "belief": lambda cfg, final: belief_spec(cfg.belief),
    "belief_policy": lambda cfg, final: cfg.belief.policy or "network",
    "final": lambda cfg, final: "mirror" if cfg.search.target == "mirror" else final,
    "mirror_eta": lambda cfg, final: cfg.search.mirror_eta if cfg.search.planner_eta is None
    else cfg.search.planner_eta,
    "common_worlds": lambda cfg, final: cfg.search.common_worlds
    if cfg.search.planner_common_worlds is None else cfg.search.planner_common_worlds,
}
# how it plays, not what (and whom it faces: an opponent model is chosen for a match)
NOT_RECORDED = ("time_budget", "lanes", "worlds", "evaluator", "opponent_model")
# guided_so_ismcts settings of a run whose teacher is the planner (the others: defaults)
GUIDED_FROM_TRAINING = {
    "iterations": lambda cfg, final: cfg.selfplay.teacher_iterations,
    "c_puct": lambda cfg, final: cfg.search.c_puct,
    "belief": PLANNER_FROM_TRAINING["belief"],
    "belief_policy": PLANNER_FROM_TRAINING["belief_policy"],
    "final": lambda cfg, final: final,
}


def belief_spec(b) -> str | dict:
    """A training ``belief`` group as agents take it: a name, or name and knobs."""
    return {"name": b.name, **b.knobs} if b.knobs else b.name


def planner_record(cfg, final: str = "most_visits") -> dict:
    """The planner of training config ``cfg``, as checkpoints record it: ``{"agent": ...,
    **settings}``. With ``selfplay.teacher=planner`` the planner is the teacher,
    ``guided_so_ismcts`` (`GUIDED_FROM_TRAINING`); otherwise ``puct_ismcts``, each
    setting from `PLANNER_FROM_TRAINING`, else the ``search`` setting of its name
    (`NOT_RECORDED` left out). With the mirror target it plays the mixed improved
    policy it was trained on (step ``search.planner_eta`` when set)."""
    from isz.settings.agents import GUIDED_SO_ISMCTS, PUCT_ISMCTS

    if cfg.selfplay.teacher == "planner":
        record = {"agent": GUIDED_SO_ISMCTS.name}
        for setting in GUIDED_SO_ISMCTS:
            if setting.name in GUIDED_FROM_TRAINING:
                record[setting.name] = setting.validate(
                    GUIDED_FROM_TRAINING[setting.name](cfg, final))
        return record
    record = {"agent": PUCT_ISMCTS.name}
    for setting in PUCT_ISMCTS:
        name = setting.name
        if name in PLANNER_FROM_TRAINING:
            record[name] = setting.validate(PLANNER_FROM_TRAINING[name](cfg, final))
        elif name not in NOT_RECORDED:
            record[name] = setting.validate(getattr(cfg.search, name))
    return record
