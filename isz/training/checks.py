"""The run's final checks: which of the network's parts its recorded planner plays with.

At the end of a run whose planner is ``guided_so_ismcts`` (the default recipe's), two
checks decide two of the settings it records. Each plays variants of the run's planner in
seat 0 against so_ismcts (``trainer.eval_knobs``) on the same deals at
``trainer.ladder_time`` a move, and compares them paired over deals in the game's returns
(chips on poker):

1. `value_check` (``trainer.value_check_deals``, ``trainer.value_check_rounds``): the
   network's values at the root (``value_mix`` = `VALUE_CHECK_MIX`) against none, the
   root as trained (PUCT on the priors, by default). The values are kept when ahead on
   the mean over the rounds played (no values on a tie): by default one round; with
   ``value_check_rounds`` > 1, another while they lead by less than 2 SE, and out at once
   when behind. A rule that kept them only on a lead of more than 2 SE left them out at
   training seeds never run before where they had paid at every other seed (Kuhn poker:
   +0.017 ± 0.014 in its check, and the planner so recorded led so_ismcts by +0.018
   chips where the others led by +0.04).
2. `root_check` (``trainer.root_check_deals``, ``trainer.root_check_rounds``): the
   root's rule, PUCT on the network's priors (``c_puct`` as trained) or so_ismcts's UCB
   (``c_puct=0``), each with the values where the first check kept them. Neither rule is
   the safe one: on Liar's Dice with two dice UCB leads by +0.13 in returns, on the recon
   adversary and on Crazy Eights the priors lead. So the check picks the rule ahead: as
   soon as one leads by more than 2 SE, else after its last round of fresh deals
   (``root_check_rounds``, by default one) by the higher mean (UCB on a tie). A 2-SE bar
   for either side makes a default of the other: on Crazy Eights (examples/
   crazy_eights.py) the check found the priors 1.8 SE ahead and, under such a bar,
   recorded UCB, which led so_ismcts by +0.011 ± 0.018 at 0.01 s where the priors led
   by +0.061 ± 0.017.

A pick by one round's mean is wrong more often than by two rounds', but only where the
two variants are close, so its expected cost (the gap times the chance of the wrong
pick) is at most 0.17 SE of a round, and a second round lowers that by at most 0.085 SE
(about 0.0003 in returns on tricks, 0.003 chips on Leduc) for another match of each
variant; the default plays one (docs/results/checks.md).

Both are judged against so_ismcts, not head to head, because there the two disagree: on
Goofspiel the UCB root with values beats the PUCT root head to head by +0.26 in returns
and leads so_ismcts by 0.08 less; on Leduc and on recon the values won head to head and
cost against so_ismcts (docs/results/checks.md). Each variant is played once: the root
check's first PUCT round is the value check's match that won, where their deals agree.
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
"""The root's value mix the final check tries: against so_ismcts at 0.01 s a move it adds
+0.051 ± 0.010 on Liar's Dice with two dice; it is level on tricks, Oh Hell and Goofspiel
with 4 cards, and costs on recon (docs/results/liars_dice.md, checks.md)."""


class Arms:
    """Variants of the run's planner (a value mix, a ``c_puct``), each in seat 0 against
    so_ismcts at ``trainer.ladder_time`` a move; round r's deals are match seed
    ``seed + r``. Each (variant, deals, round) is played once and its per-deal returns
    kept, so the checks share matches."""

    def __init__(self, cfg, players: int, ckpt: str, backend, where: str, seed: int,
                 step: Callable[[str, int, str], Progress]):
        t = cfg.trainer
        self.cfg, self.players, self.ckpt, self.backend = cfg, players, ckpt, backend
        self.seed, self.step = seed, step
        self.budget = {"time_budget": t.ladder_time, "iterations": None}
        self.where = where
        self.so = SeatSpec("so_ismcts", {**self.budget, **t.eval_knobs.get("so_ismcts", {})})
        self._played: dict[tuple, np.ndarray] = {}

    def returns(self, title: str, label: str, knobs: dict, deals: int,
                r: int = 0) -> np.ndarray:
        """Seat 0's mean return a deal, (deals,), of the planner with ``knobs`` (its
        ``value_mix`` and ``c_puct``) on round ``r``'s deals; ``title`` names the step
        while it is played."""
        key = (tuple(sorted(knobs.items())), deals, r)
        if key not in self._played:
            me = SeatSpec(PLANNER, {**self.budget, **knobs, "device": self.where},
                          self.ckpt, label=label)
            spec = seat0_spec(self.cfg, self.players, me, self.so, deals, self.seed + r)
            with self.step(title, deals, "deals") as bar:
                res = play_match(spec, self.backend, progress=bar.update)
            self._played[key] = res.deal_utilities[:, 0]
        return self._played[key]


def final_checks(game: Game, model: PolicyValueNet, cfg, device, seed: int,
                 step: Callable[[str, int, str], Progress] | None = None,
                 record: dict | None = None,
                 say: Callable[[str], None] | None = None) -> dict[str, float]:
    """The value check, then the root check on its verdict: their scalars (empty when
    both are off or the planner is not ``guided_so_ismcts``), each check's verdict told
    to ``say`` as it is reached (`value_line`, `root_line`). ``record`` (default
    `planner_knobs`) is not changed; the caller records ``value_check/value_mix`` and
    ``root_check/c_puct``."""
    t = cfg.trainer
    record = dict(record or planner_knobs(cfg))
    # the root check plays only a PUCT root; with neither check to play, no backend opens
    if not (_checked(record) and (t.value_check_deals
                                  or (t.root_check_deals and float(record["c_puct"])))):
        return {}
    backend, where = eval_backend(cfg, device)
    with tempfile.TemporaryDirectory(prefix="isz-checks-") as tmp, backend:
        ckpt = planner_file(Path(tmp), game, model, record)
        arms = Arms(cfg, game.num_players, ckpt, backend, where, seed, step or quiet_step)
        say = say or (lambda line: None)
        out = value_check(arms, record, t.value_check_deals, t.value_check_rounds)
        if out:
            record["value_mix"] = out["value_check/value_mix"]
            say(value_line(out))
        root = root_check(arms, record, t.root_check_deals, t.root_check_rounds)
        if root:
            say(root_line(root))
    return {**out, **root}


def value_check(arms: Arms, record: dict, deals: int, rounds: int = 1) -> dict[str, float]:
    """Do the network's values pay against rollout search? The planner with the values
    at the root (``value_mix`` = `VALUE_CHECK_MIX`) and without (``value_mix=0``), its
    root as ``record`` says, each against so_ismcts on the same deals: rounds of
    ``deals`` fresh deals, at most ``rounds``, while the values lead by less than 2 SE
    over all the deals played (`_pick`): fresh deals only to confirm a lead.

    Returns ``value_check/diff`` (the return with values minus without: > 0 when the
    values help), ``value_check/se`` (paired over deals), ``value_check/deals`` and
    ``value_check/value_mix``: `VALUE_CHECK_MIX` when the values are ahead, else 0 —
    what the run records. Returns, not the arena's score: they are what the network is
    trained on, and where they are not a rank (chips) the score would judge by hands won
    (on Leduc the values win chips and lose hands, docs/results/poker_recipe.md); where
    they are a rank or a win, returns are ``2 * score - 1`` and the verdict is the same.
    Empty when ``deals`` is 0."""
    if not deals:
        return {}
    c = {"c_puct": float(record["c_puct"])}
    diff, se, n = _pick(lambda r: arms.returns(
        f"value check (values, round {r + 1})", "values",
        {**c, "value_mix": VALUE_CHECK_MIX}, deals, r) - arms.returns(
        f"value check (no values, round {r + 1})", "no values", {**c, "value_mix": 0.0},
        deals, r), rounds, lambda d, se: d <= 0 or d > 2 * se)
    return {"value_check/diff": diff, "value_check/se": se, "value_check/deals": n,
            "value_check/value_mix": VALUE_CHECK_MIX if diff > 0 else 0.0}


def _pick(gap: Callable[[int], np.ndarray], rounds: int,
          settled: Callable[[float, float], bool] = lambda d, se: abs(d) > 2 * se,
          ) -> tuple[float, float, float]:
    """The checks' rule: round ``r``'s per-deal gap between two variants is ``gap(r)``;
    rounds are played until ``settled(mean, SE)`` over all deals so far (by default: the
    mean more than 2 SE from 0), at most ``rounds``. Returns (mean, SE, deals played):
    the caller takes the variant the mean favours. A 2-SE bar for one side would make the
    check a test with a default; what the run needs is the better of two, and the mean
    picks it more often than any default where the check is noisy (docs/results/
    checks.md)."""
    gaps: list[np.ndarray] = []
    for r in range(rounds):
        gaps.append(gap(r))
        diff, se = _mean_se(np.concatenate(gaps))
        if settled(diff, se):  # decided: more deals would not change the pick
            break
    return diff, se, float(sum(g.size for g in gaps))


def root_check(arms: Arms, record: dict, deals: int, rounds: int) -> dict[str, float]:
    """Does the network's root rule pay against rollout search? The planner as ``record``
    says (PUCT on the priors at its root, its ``value_mix``) and the same with
    ``c_puct=0`` (so_ismcts's UCB at its root, the value mix in its mean), each against
    so_ismcts on the same deals: rounds of ``deals`` fresh deals, at most ``rounds``,
    until one rule leads by more than 2 SE over all the deals played.

    Returns ``root_check/diff`` (the UCB root's mean deal return in seat 0 minus the
    PUCT root's: > 0 when the priors cost), ``root_check/se`` (paired over deals),
    ``root_check/deals`` (how many) and ``root_check/c_puct``: ``record``'s when the
    PUCT root is ahead (``diff < 0``), else 0 — what the run records. Empty when
    ``deals`` is 0 or ``record``'s ``c_puct`` is already 0."""
    c_puct = float(record["c_puct"])
    if not (deals and c_puct):
        return {}
    mix = {"value_mix": float(record.get("value_mix") or 0.0)}
    # per deal, the UCB root's return minus the PUCT root's (PUCT first: the value check
    # played it on the same deals)
    diff, se, n = _pick(lambda r: -arms.returns(
        f"root check (puct, round {r + 1})", "puct", {**mix, "c_puct": c_puct}, deals, r)
        + arms.returns(f"root check (ucb, round {r + 1})", "ucb", {**mix, "c_puct": 0.0},
                       deals, r), rounds)
    return {"root_check/diff": diff, "root_check/se": se, "root_check/deals": n,
            "root_check/c_puct": c_puct if diff < 0 else 0.0}


def value_line(scalars: dict) -> str:
    """One line for the log: the value check's lead (in the game's returns) and what
    the run records."""
    mix = scalars["value_check/value_mix"]
    diff, se = scalars["value_check/diff"], scalars["value_check/se"]
    return (f"value check: values at the root {diff:+.3f} ± {se:.3f} in returns over none, "
            f"each against so_ismcts, {scalars['value_check/deals']:.0f} deals; the planner "
            f"records value_mix={mix:g} ({_why('the values' if mix else 'no values', diff, se)})")


def root_line(scalars: dict) -> str:
    """One line for the log: the root check's UCB lead over PUCT (in the game's returns,
    each against so_ismcts, over the deals it played) and the c_puct the run records."""
    c, diff, se = (scalars[f"root_check/{k}"] for k in ("c_puct", "diff", "se"))
    return (f"root check: so_ismcts's UCB at the root {diff:+.3f} ± {se:.3f} in returns "
            f"over the priors' PUCT, each against so_ismcts, {scalars['root_check/deals']:.0f}"
            f" deals; the planner records c_puct={c:g} "
            f"({_why('the priors' if c else 'UCB', diff, se)})")


def _why(who: str, diff: float, se: float) -> str:
    """Why a check picked ``who``: a lead of 2 SE, the mean, or a tie."""
    return (f"{who} ahead by more than 2 SE" if abs(diff) > 2 * se
            else f"{who} ahead by the mean, within 2 SE" if diff else f"level: {who} on a tie")


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    """Mean of ``x`` (n,) and its SE."""
    m, se = mean_and_se(x[:, None])
    return float(m[0]), float(se[0])


def _checked(record: dict) -> bool:
    """Whether the run's final checks apply: a ``guided_so_ismcts`` planner."""
    return record["agent"] == GUIDED_SO_ISMCTS.name
