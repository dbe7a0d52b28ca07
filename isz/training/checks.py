"""The run's final checks: which of the network's parts its recorded planner plays with.

At the end of a run whose planner is ``guided_so_ismcts`` (the default recipe's), two
checks at ``trainer.ladder_time`` a move decide two of the settings it records, each
judged in the game's returns (chips on poker): the values play only where they lead the
search without them by more than 2 SE; the root takes whichever rule is ahead:

1. `value_check` (``trainer.value_check_deals``): the network's values at the root
   (``value_mix`` = `VALUE_CHECK_MIX`) against none, head to head: one match, the values
   its only difference.
2. `root_check` (``trainer.root_check_deals``, ``trainer.root_check_rounds``): the
   root's rule, PUCT on the network's priors (``c_puct`` as trained) or so_ismcts's UCB
   (``c_puct=0``; the values, where the first check kept them, mixed into its mean),
   each against so_ismcts on the same deals, paired over deals. Neither rule is the
   safe one: on Liar's Dice with two dice UCB leads by +0.13 in returns, on the recon
   adversary and on Crazy Eights the priors lead. So the check picks the rule ahead:
   as soon as one leads by more than 2 SE, else after its last round of fresh deals
   by the higher mean (UCB on a tie). A single 300-deal round is too noisy for a fixed
   default either way: on Crazy Eights (examples/crazy_eights.py) it found the priors
   1.8 SE ahead and, under the rule before (the priors only on a 2-SE lead), recorded
   UCB, which led so_ismcts by +0.011 ± 0.018 at 0.01 s where the priors led by
   +0.061 ± 0.017; on Liar's Dice with two dice 200 deals found UCB 1.6 SE ahead.

The root rule is judged against so_ismcts, not head to head, because there the two
disagree: on Goofspiel the UCB root with values beats the PUCT root head to head by
+0.26 in returns and leads so_ismcts by 0.08 less (docs/results/recipe.md). Which rule
wins is the game's: the UCB root leads on Liar's Dice with two dice, the priors are the
recon adversary's lever.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from isz.evaluation import SeatSpec, play_match
from isz.evaluation.scoring import mean_and_se
from isz.evaluation.spec import PLANNER
from isz.games.base import Game
from isz.nn.model import PolicyValueNet
from isz.progress import Progress
from isz.settings.agents import GUIDED_SO_ISMCTS
from isz.training.evaluation import (
    eval_backend,
    planner_file,
    planner_knobs,
    quiet_step,
    seat0_spec,
)

VALUE_CHECK_MIX = 0.25
"""The root's value mix the final check tries: measured at 0.01-0.02 s a move it won
+0.047 ± 0.005 on Goofspiel and was level on tricks and Oh Hell (docs/results)."""


def value_check(game: Game, model: PolicyValueNet, cfg, device, seed: int,
                step: Callable[[str, int, str], Progress] | None = None,
                record: dict | None = None) -> dict[str, float]:
    """Do the network's values pay in the run's planner? Its planner with the values at
    the root (``value_mix`` = `VALUE_CHECK_MIX`, seat 0) against itself without them (the
    other seats), ``trainer.value_check_deals`` deals at ``trainer.ladder_time`` a move.

    Returns ``value_check/diff`` (seat 0's mean deal utility minus seat 1's, in the
    game's returns: > 0 when the values help), ``value_check/se`` (paired over deals) and
    ``value_check/value_mix``: `VALUE_CHECK_MIX` when the lead is more than 2 SE, else 0
    — what the run records. Returns, not the arena's score: they are what the network
    is trained on, and where they are not a rank (chips) the score would judge by hands
    won (on Leduc the values win chips and lose hands, docs/results/recipe.md); where
    they are a rank or a win, returns are ``2 * score - 1`` and the verdict is the same.
    Empty when the check is off or the planner is not ``guided_so_ismcts``."""
    t = cfg.trainer
    record = record or planner_knobs(cfg)
    if not (t.value_check_deals and _checked(record)):
        return {}
    step = step or quiet_step
    backend, where = eval_backend(cfg, device)
    with tempfile.TemporaryDirectory(prefix="isz-value-check-") as tmp, backend:
        ckpt = planner_file(Path(tmp), game, model, record)
        knobs = {"time_budget": t.ladder_time, "iterations": None, "device": where}
        values = SeatSpec(PLANNER, {**knobs, "value_mix": VALUE_CHECK_MIX}, ckpt,
                          label="values")
        rollouts = SeatSpec(PLANNER, knobs, ckpt, label="rollouts")
        spec = seat0_spec(cfg, game.num_players, values, rollouts, t.value_check_deals, seed)
        with step("value check", t.value_check_deals, "deals") as bar:
            res = play_match(spec, backend, progress=bar.update)
    pair = res.paired("utility")[0]
    pays = pair["se"] is not None and pair["diff"] > 2 * pair["se"]
    return {"value_check/diff": pair["diff"], "value_check/se": pair["se"],
            "value_check/value_mix": VALUE_CHECK_MIX if pays else 0.0}


def root_check(game: Game, model: PolicyValueNet, cfg, device, seed: int,
               step: Callable[[str, int, str], Progress] | None = None,
               record: dict | None = None) -> dict[str, float]:
    """Does the network's root rule pay against rollout search? The run's planner as
    ``record`` says (PUCT on the priors at its root) and the same with ``c_puct=0``
    (so_ismcts's UCB at its root, ``record``'s value mix in its mean), each in seat 0
    against so_ismcts (``trainer.eval_knobs``) in the others, on the same deals at
    ``trainer.ladder_time`` a move: rounds of ``trainer.root_check_deals`` fresh deals
    (round r at match seed ``seed + r``), at most ``trainer.root_check_rounds``, until
    one rule leads by more than 2 SE over all the deals played.

    Returns ``root_check/diff`` (the UCB root's mean deal return in seat 0 minus the
    PUCT root's: > 0 when the priors cost), ``root_check/se`` (paired over deals),
    ``root_check/deals`` (how many) and ``root_check/c_puct``: ``record``'s when the
    PUCT root is ahead (``diff < 0``), else 0 — what the run records. Empty when the
    check is off, the planner is not ``guided_so_ismcts`` or its ``c_puct`` is already 0."""
    t = cfg.trainer
    record = record or planner_knobs(cfg)
    if not (t.root_check_deals and _checked(record)) or not record["c_puct"]:
        return {}
    step = step or quiet_step
    backend, where = eval_backend(cfg, device)
    budget = {"time_budget": t.ladder_time, "iterations": None}
    so = SeatSpec("so_ismcts", {**budget, **t.eval_knobs.get("so_ismcts", {})})
    gaps: list[np.ndarray] = []  # per deal, the UCB root's return minus the PUCT root's
    with tempfile.TemporaryDirectory(prefix="isz-root-check-") as tmp, backend:
        ckpt = planner_file(Path(tmp), game, model, record)
        for r in range(t.root_check_rounds):
            returns = {}
            for rule, knobs in (("puct", {}), ("ucb", {"c_puct": 0.0})):
                me = SeatSpec(PLANNER, {**budget, **knobs, "device": where}, ckpt, label=rule)
                spec = seat0_spec(cfg, game.num_players, me, so, t.root_check_deals, seed + r)
                with step(f"root check ({rule}, round {r + 1})", t.root_check_deals,
                          "deals") as bar:
                    res = play_match(spec, backend, progress=bar.update)
                returns[rule] = res.deal_utilities[:, 0]
            gaps.append(returns["ucb"] - returns["puct"])
            diff, se = _mean_se(np.concatenate(gaps))
            if abs(diff) > 2 * se:  # decided: more deals would not change the pick
                break
    return {"root_check/diff": diff, "root_check/se": se,
            "root_check/deals": float(sum(g.size for g in gaps)),
            "root_check/c_puct": float(record["c_puct"]) if diff < 0 else 0.0}


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    """Mean of ``x`` (n,) and its SE."""
    m, se = mean_and_se(x[:, None])
    return float(m[0]), float(se[0])


def _checked(record: dict) -> bool:
    """Whether the run's final checks apply: a ``guided_so_ismcts`` planner."""
    return record["agent"] == GUIDED_SO_ISMCTS.name
