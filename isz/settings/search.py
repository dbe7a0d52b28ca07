"""Settings of the PUCT search: declared once, shared by the training ``search``
group, the ``puct_ismcts`` agent (and the planner record in checkpoints) and
the search kernel's `PUCTConfig` (group `PUCT_KERNEL`)."""

from __future__ import annotations

from isz.settings.core import Group, Setting

# allowed values (the compiled kernels' variants are checked against them too,
# isz.search.puct.PUCTVariant)
POLICY_TARGETS = ("visits", "mirror")
OPPONENT_MODES = ("puct", "prior", "evaluate")
ROOT_SELECTIONS = ("puct", "uniform")
VALUE_VIEWS = ("searcher", "actor", "own")  # see isz.search.puct
BELOW_THRESHOLD = ("playout", "search")
LEAF_MIX_ENDS = "0: the network's leaf value, 1: a random playout"

SIMULATIONS = Setting(
    "simulations", int, 32, "PUCT simulations per move, in self-play and evaluation (the "
    "planner's iterations)", lo=1)
C_PUCT = Setting("c_puct", float, 1.5, "PUCT exploration weight of the network's prior", lo=0)
FPU = Setting("fpu", float, 0.5, "score in [0, 1] assumed for an unvisited move "
              "(first-play urgency)", lo=0)
TREE = Setting("tree", str, "mo", "mo: one tree per player; so: one tree of the searcher",
               choices=("mo", "so"))
OPPONENTS = Setting(
    "opponents", str, "puct", "puct: opponents' moves by PUCT in their trees; prior: "
    "opponents play the network's policy; evaluate: every seat does", choices=OPPONENT_MODES)
VALUE_VIEW = Setting(
    "value_view", str, "searcher", "whose view values a leaf for the searcher: searcher, "
    "actor, or own (as searcher; the other seats share a zero sum: own-entry value heads)",
    choices=VALUE_VIEWS)
ROOT_SELECTION = Setting(
    "root_selection", str, "puct", "root moves by PUCT, or uniform: visited in turn, so "
    "their mean values are unbiased (PUCT abandons unlucky moves)", choices=ROOT_SELECTIONS)
COMMON_WORLDS = Setting(
    "common_worlds", bool, False, "root_selection=uniform: every root move is searched in "
    "the same sampled worlds (paired comparisons: the hidden cards drop out of the gaps "
    "between the root q's that the mirror step reads)")
DIRICHLET_ALPHA = Setting("dirichlet_alpha", float, 0.3, "root noise concentration "
                          "(self-play only)", lo=0, above=True)
DIRICHLET_EPS = Setting("dirichlet_eps", float, 0.25, "root noise weight (self-play only)",
                        lo=0, hi=1, ends="0: no noise, 1: noise alone")
TEMPERATURE_MOVES = Setting("temperature_moves", int, 4, "first moves of a self-play game "
                            "sampled from the policy target, then its argmax", lo=0)
TARGET = Setting("target", str, "visits", "policy target: visits (AlphaZero) or mirror "
                 "(a Hedge step on q: softmax(log P + mirror_eta * q))", choices=POLICY_TARGETS)
MIRROR_ETA = Setting("mirror_eta", float, 2.0, "step size of the mirror policy, per unit of "
                     "value in [-1, 1]", lo=0)
MIRROR_ALPHA = Setting("mirror_alpha", float, 0.0, "magnet weight of the mirror target "
                       "(0: plain Hedge step)", lo=0)
MIRROR_ALPHA_FINAL = Setting("mirror_alpha_final", float, None, "cosine decay of "
                             "mirror_alpha over the run to this", lo=0, null="no decay")
MAGNET = Setting(
    "magnet", str, "uniform", "magnet of the mirror target: uniform, or network (a snapshot "
    "of the network's policy every magnet_every iterations: R-NaD's moving magnet)",
    choices=("uniform", "network"))
MAGNET_EVERY = Setting("magnet_every", int, 10, "magnet=network: iterations between magnet "
                       "snapshots", lo=1)
PLANNER_ETA = Setting("planner_eta", float, None, "mirror step of the planner (evaluation, "
                      "the checkpoints' planner record)", lo=0, above=True,
                      null="mirror_eta")
PLANNER_COMMON_WORLDS = Setting(
    "planner_common_worlds", bool, None, "common_worlds of the planner (evaluation, the "
    "checkpoints' planner record; self-play keeps common_worlds)", null="common_worlds")
LEAF_MIX = Setting("leaf_mix", float, 0.0, "m: a leaf's value is (1 - m) network + m one "
                   "random playout", lo=0, hi=1, ends=LEAF_MIX_ENDS)
EXPAND_AFTER = Setting(
    "expand_after", int, 1, "n: a leaf's first n - 1 visits are random playouts (no network "
    "call), the n-th expands it (AlphaGo's expansion threshold); 1: every leaf", lo=1)
BELOW_THRESHOLD = Setting(
    "below_threshold", str, "playout", "below expand_after: playout (stop there) or search "
    "(go on with uniform priors; a fresh opponent node's move picked in the searcher's "
    "tree, so_ismcts's opponent model)", choices=BELOW_THRESHOLD)
ROLLOUTS = Setting("rollouts", bool, False, "random-playout leaves and uniform priors "
                   "(no network): selfplay.rollout_iterations, or an agent with no evaluator")

PUCT_KERNEL = Group(
    "PUCTConfig", "Settings of one batched PUCT search (isz.search.puct_driver.PUCTBatch)",
    [C_PUCT, FPU, TREE, ROLLOUTS, DIRICHLET_ALPHA, DIRICHLET_EPS.but(default=0.0), OPPONENTS,
     VALUE_VIEW, ROOT_SELECTION, LEAF_MIX, EXPAND_AFTER, BELOW_THRESHOLD])
