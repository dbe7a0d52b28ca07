"""Settings of the search agents (`isz.make_agent(name, game, **settings)`), one
group per agent. The agent's constructor resolves its knobs through its group
(`Group.resolve`): unknown names and bad values raise one-line `IszError`s.

Budget: ``iterations`` and ``time_budget`` given together stop at whichever
comes first; ``time_budget`` alone means that time, with no iteration cap (the
``iterations`` default applies only without a time budget).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from isz.settings.core import Group, Rule, Setting
from isz.settings.search import (
    BELOW_THRESHOLD,
    C_PUCT,
    COMMON_WORLDS,
    EXPAND_AFTER,
    FPU,
    LEAF_MIX,
    MIRROR_ETA,
    OPPONENTS,
    ROOT_SELECTION,
    TREE,
    VALUE_VIEW,
)
from isz.types import IszError, check_int

MAX_AUTO_LANES = 16


def _belief(what: str, value):
    """A registered belief's name, ``{"name": ..., **knobs}``, or a `Belief` object
    (the name and knobs are checked when the belief is built)."""
    from isz.belief import Belief

    if isinstance(value, (str, Belief)) or (isinstance(value, Mapping) and "name" in value):
        return value
    raise IszError(f"{what} must be a name, {{name: ..., **knobs}} or a Belief, got {value!r}")


def _evaluator(what: str, value):
    if callable(getattr(value, "evaluate", None)):
        return value
    raise IszError(f"{what} must be an Evaluator (evaluate(tensors, masks) -> priors, "
                   f"values) or None, got {type(value).__name__}")


def _lanes(what: str, value):
    if value == "auto":
        return value
    if isinstance(value, str):
        raise IszError(f"{what} must be an integer >= 1 or 'auto', got {value!r}")
    return check_int(what, value, lo=1)


def _smooth(what: str, value) -> tuple[float, float, float]:
    sp = tuple(value) if isinstance(value, (list, tuple)) else ()
    if len(sp) != 3 or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                               and x >= 0 for x in sp):
        raise IszError(f"{what} must be (eta, gamma, d), three numbers >= 0, got {value!r}")
    return tuple(map(float, sp))


def _leaf(what: str, value) -> str:
    from isz.search.playout import LEAVES  # late: research tools may register more

    if value not in LEAVES:
        raise IszError(f"{what} must be one of {', '.join(LEAVES)}, got {value!r}")
    return value


def _weights(what: str, value) -> tuple[float, ...]:
    """A list of finite numbers (its length is checked against the game's F by the
    agent, `isz.search.driver.playout_w`)."""
    ok = isinstance(value, (list, tuple, np.ndarray)) and len(value) > 0 and all(
        isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)
        and np.isfinite(x) for x in value)
    if not ok:
        raise IszError(f"{what} must be a list of finite numbers (the policy leaf's "
                       f"weights), got {value!r}")
    return tuple(float(x) for x in value)


ITERATIONS = Setting(
    "iterations", int, 1000, "search iterations (simulations) per decision; with "
    "time_budget too, whichever ends first", lo=1,
    null="no iteration cap (needs a time_budget)")
TIME_BUDGET = Setting(
    "time_budget", float, None, "seconds per decision (belief sampling included); given "
    "alone, that time with no iteration cap", lo=0, above=True, null="no time limit")
C = Setting("c", float, 0.7, "UCB exploration constant on scores in [0, 1]", lo=0,
            label="c (exploration constant)")
FINAL = Setting(
    "final", str, None, "the move played: most_visits, best_mean (highest mean score) or "
    "visit_distribution (drawn from the root visits: the average policy)",
    choices=("most_visits", "best_mean", "visit_distribution"),
    null="visit_distribution under smooth selection, else most_visits",
    label="final-move rule")
SELECTION = Setting("selection", str, "ucb", "ucb, or smooth: Smooth UCT (Heinrich & "
                    "Silver 2015) with smooth_params", choices=("ucb", "smooth"))
SMOOTH_PARAMS = Setting("smooth_params", object, (0.9, 0.1, 0.002), "(eta, gamma, d) of "
                        "Smooth UCT", check=_smooth, shape="three numbers >= 0")
BELIEF = Setting(
    "belief", object, "uniform", "determinization sampler of the searcher: a belief "
    "name (isz.belief), {name: ..., **knobs}, or a Belief object", check=_belief,
    shape="name, map or Belief")
BELIEF_POLICY = Setting(
    "belief_policy", str, "network", "network: a belief that takes a policy (see "
    "Beliefs) weighs histories by the evaluator's priors; uniform: it does not (other "
    "beliefs ignore it)", choices=("network", "uniform"), label="belief policy")
OPPONENT_MODEL = Setting(
    "opponent_model", str, None, "a checkpoint of this game whose network the belief weighs "
    "the other seats' moves by, instead of the planner's own: a model of the opponent "
    "faced, fitted to its moves by isz-fit-opponent (with belief_policy=network; beliefs "
    "that take no policy ignore it)", null="the planner's own network",
    label="opponent model")
SPLIT = Setting("split", bool, True, "opponents' trees branch on their own information "
                "state at the root (isz.search.mo_ismcts)")
DETERMINIZATIONS = Setting("determinizations", int, 20, "worlds solved by UCT and voted "
                           "over (the iterations are split among them)", lo=1)
LANES = Setting(
    "lanes", object, "auto", "simulations in flight per wave, their leaves evaluated in one "
    "network batch; auto: 1 for up to 8 iterations, else min(16, iterations // 8), 16 "
    "under a time budget alone", check=_lanes, shape="int >= 1 or auto")
WORLDS = Setting("worlds", int, None, "at most this many worlds a decision, the simulations "
                 "cycling through them (for beliefs whose worlds are dear)", lo=1,
                 null="a world drawn per simulation")
FINAL_PUCT = FINAL.but(
    default="most_visits", null=None, choices=("most_visits", "visit_distribution", "mirror"),
    doc="the move played: most_visits, visit_distribution (drawn from the root visits), or "
        "mirror (drawn from softmax(log P + mirror_eta * q), the improved policy)")
FINAL_GUIDED = FINAL.but(default="most_visits", null=None,
                         choices=("most_visits", "visit_distribution"),
                         doc="the move played: most_visits, or visit_distribution (drawn "
                             "from the root visits)")
VALUE_MIX = Setting(
    "value_mix", float, 0.0, "lam: the root's PUCT (its UCB when c_puct is 0) takes "
    "(1 - lam) the rollouts' mean + lam the network's value of the searcher's view after "
    "each move (one evaluator call a decision): AlphaGo's mix, at the root", lo=0, hi=1,
    ends="0: the rollouts' mean, 1: the network's value")
LEAF = Setting("leaf", str, "playout", "how the world below the tree is scored: a name of "
               "isz.search.playout.LEAVES (playout: one uniformly random playout; policy: "
               "one playout by the softmax of playout_weights)",
               check=_leaf, shape="a leaf name")
PLAYOUT_WEIGHTS = Setting(
    "playout_weights", object, None, "the policy leaf's weights: below the tree a seat "
    "plays move a with probability proportional to exp(w . features(a)), F numbers "
    "(Kernel.action_score; a one-hot action id where the game has none)",
    check=_weights, null="all zeros: uniformly random moves", shape="list of F numbers")
WEIGHTS_NEED_POLICY = Rule(
    "playout_weights needs leaf=policy (only that leaf reads them)",
    lambda v: v["playout_weights"] is not None and v["leaf"] != "policy", ("playout_weights",))
MODEL_NEEDS_NETWORK_POLICY = Rule(
    "opponent_model needs belief_policy=network (the model weighs the belief's worlds in "
    "the network's place)",
    lambda v: v["opponent_model"] is not None and v["belief_policy"] != "network",
    ("opponent_model",))
EVALUATOR = Setting("evaluator", object, None, "the network (an Evaluator: priors and "
                    "values of information-state tensors)", check=_evaluator,
                    null="knowledge-free: uniform priors (and random-playout leaves)",
                    shape="Evaluator")

BUDGET = (ITERATIONS, TIME_BUDGET)
ROLLOUT = (*BUDGET, C, FINAL, SELECTION, SMOOTH_PARAMS)
ITERATIONS_NEED_TIME = Rule(
    "iterations=null needs a time_budget (else the search would never stop)",
    lambda v: v["iterations"] is None and v["time_budget"] is None, ("iterations",))
ROLLOUT_RULES = (ITERATIONS_NEED_TIME,)

SO_ISMCTS = Group("so_ismcts", "Single-observer ISMCTS: one tree of the searcher, "
                  "worlds from its belief, random playouts", [*ROLLOUT, BELIEF, LEAF,
                                                              PLAYOUT_WEIGHTS],
                  (*ROLLOUT_RULES, WEIGHTS_NEED_POLICY))
MO_ISMCTS = Group("mo_ismcts", "Multiple-observer ISMCTS: one tree per player",
                  [*ROLLOUT, BELIEF, SPLIT], ROLLOUT_RULES)
PIMC = Group("pimc", "Perfect Information Monte Carlo: UCT in sampled worlds, then a vote",
             [*ROLLOUT, BELIEF, DETERMINIZATIONS], ROLLOUT_RULES)
CHEAT_UCT = Group("cheat_uct", "UCT on the true state: the cheating baseline",
                  ROLLOUT, ROLLOUT_RULES)
PUCT_ISMCTS = Group(
    "puct_ismcts", "AlphaZero-style PUCT-ISMCTS: the network's priors in every tree node, "
    "its values at the leaves (class PUCTAgent; isz.load_planner builds it from a "
    "checkpoint)",
    [ITERATIONS.but(default=200), TIME_BUDGET, LANES, C_PUCT, FPU, TREE, OPPONENTS,
     VALUE_VIEW, ROOT_SELECTION, BELIEF, BELIEF_POLICY, OPPONENT_MODEL, FINAL_PUCT,
     MIRROR_ETA, LEAF_MIX, EXPAND_AFTER, BELOW_THRESHOLD, WORLDS, COMMON_WORLDS, EVALUATOR],
    [ITERATIONS_NEED_TIME, MODEL_NEEDS_NETWORK_POLICY,
     Rule("root_selection=uniform needs final=mirror: equal root visits say nothing of "
          "the moves", lambda v: v["root_selection"] == "uniform" and v["final"] != "mirror",
          ("final",)),
     Rule("common_worlds=true needs root_selection=uniform: only root moves visited in turn "
          "share worlds", lambda v: v["common_worlds"] and v["root_selection"] != "uniform",
          ("root_selection",)),
     Rule("common_worlds=true needs worlds=null: cycling through a capped set of worlds "
          "would break the pairs", lambda v: v["common_worlds"] and v["worlds"] is not None,
          ("worlds",))])
GUIDED_SO_ISMCTS = Group(
    "guided_so_ismcts", "The rollout so_ismcts (UCB with c below the root, random "
    "playouts) whose root moves are selected by PUCT (c_puct) on the network's priors "
    "for the view: one evaluator call a decision (class GuidedSOAgent)",
    [*BUDGET, C, C_PUCT, BELIEF.but(default="auto"), BELIEF_POLICY, OPPONENT_MODEL,
     FINAL_GUIDED, VALUE_MIX, LEAF, PLAYOUT_WEIGHTS, EVALUATOR],
    [ITERATIONS_NEED_TIME, WEIGHTS_NEED_POLICY, MODEL_NEEDS_NETWORK_POLICY,
     Rule("value_mix > 0 needs an evaluator (the network values the moves)",
          lambda v: v["value_mix"] > 0 and v["evaluator"] is None, ("value_mix",))])
PLANNERS = (PUCT_ISMCTS, GUIDED_SO_ISMCTS)  # the agents a checkpoint's planner record names
