"""Settings of `scripts/train.py`: one group per hydra config group (the schema
`isz.training.config.TrainConfig` is built from these) and the rules between
settings of different groups (`TRAIN_RULES`, checked by
`isz.training.config.validate`).

``conf/`` sets only what differs from these defaults: ``conf/game/*.yaml`` and
``conf/belief/*.yaml`` are the options of their groups, ``conf/experiment/*.yaml``
the presets.
"""

from __future__ import annotations

from isz.settings import search as s
from isz.settings.core import Group, Rule, Setting
from isz.types import IszError, check_int

# trainer.average_policy_weight: iteration t's rows weigh t^power: t^0 (NFSP), t^0.5, t^1
# (linear CFR); a lower power remembers longer, so a cycling last iterate moves the
# average less. The setting's choices are this table's names.
AVERAGE_POLICY_POWERS = {"uniform": 0.0, "sqrt": 0.5, "linear": 1.0}
# trainer.generation_checks -> the checked settings the planner teacher takes
GENERATION_CHECKS = {"off": (), "root": ("c_puct",), "planner": ("c_puct", "value_mix")}


def _agent_names() -> list[str]:
    from isz.agents import agent_names

    return agent_names()


def _belief_names() -> list[str]:
    from isz.belief import belief_names

    return belief_names()


def _teachers() -> tuple[str, ...]:
    from isz.selfplay.teacher import TEACHERS

    return TEACHERS


def _q_rows() -> tuple[str, ...]:
    from isz.selfplay.records import Q_ROWS

    return Q_ROWS


def _opponents(what: str, value) -> list:
    names = _agent_names()
    for name in value:
        if name not in names:
            raise IszError(f"unknown {what} entry {name!r}; allowed: {', '.join(names)}")
    return value


def _check_deals(what: str, value) -> int:
    """0 (off) or at least 2: a paired SE needs two deals."""
    value = check_int(what, value, lo=0)
    if value == 1:
        raise IszError(f"{what} must be 0 (no check) or at least 2 deals (an SE needs "
                       "two), got 1")
    return value


def policy_beliefs() -> list[str]:
    """Registered beliefs that take a policy (a ``policy`` knob): the network's, or
    uniform, as ``belief.policy`` / the agents' ``belief_policy`` say."""
    from isz.belief.registry import belief_knobs

    return [n for n in _belief_names() if "policy" in belief_knobs(n)]


GAME = Group("game", "The game (isz.game_names()); conf/game/NAME.yaml are its options", [
    Setting("name", str, "tricks", "registered game or preset (isz.game_names())"),
    Setting("params", dict, {}, "overrides of the game's parameters (make_game checks them)"),
    Setting("module", str, None, "module defining a game outside isz (examples.goofspiel), "
            "imported first; it must be importable (the scripts add the launch directory)",
            null="a game of isz"),
])
SEARCH = Group("search", "The PUCT search of self-play and of the planner", [
    s.SIMULATIONS, s.C_PUCT, s.FPU, s.TREE, s.OPPONENTS, s.VALUE_VIEW, s.ROOT_SELECTION,
    s.COMMON_WORLDS, s.DIRICHLET_ALPHA, s.DIRICHLET_EPS, s.TEMPERATURE_MOVES, s.TARGET,
    s.MIRROR_ETA, s.MIRROR_ALPHA, s.MIRROR_ALPHA_FINAL, s.MAGNET, s.MAGNET_EVERY, s.PLANNER_ETA,
    s.PLANNER_COMMON_WORLDS, s.LEAF_MIX, s.EXPAND_AFTER, s.BELOW_THRESHOLD,
])
BELIEF = Group("belief", "Every seat's determinization sampler; conf/belief/NAME.yaml are "
               "its options", [
    Setting("name", str, "auto", "the belief (isz.belief names; auto: the game's best "
            "belief that takes the network's policy, see Beliefs)", choices=_belief_names),
    Setting("policy", str, None, "a belief that takes a policy weighs histories by the "
            "network's (network) or not (uniform); set only for such a belief",
            choices=("network", "uniform"), null="network, for a belief that takes one"),
    Setting("knobs", dict, {}, "the belief's own knobs (its policy comes from belief.policy)"),
])
MODEL = Group("model", "The residual MLP", [
    Setting("width", int, 128, "hidden units of the residual MLP", lo=1),
    Setting("depth", int, 2, "residual blocks", lo=0),
])
PARALLEL_GAMES = Setting("parallel_games", int, 64, "games searched in lockstep (one "
                         "forward pass a step)", lo=1)
VALUE_TARGET_Q = Setting("value_target_q", float, 1.0, "lam: the actor's value target is "
                         "(1 - lam) z + lam q (z: final return, q: its search's root value)",
                         lo=0, hi=1, ends="0: final return, 1: root value")
VALUE_TARGET_Q_ROWS = Setting(
    "value_target_q_rows", str, "all", "rows whose own entry mixes in q: decisions, or "
    "all (a value-only row takes the q of its seat's next decision)", choices=_q_rows)
TEACHER = Setting("teacher", str, "planner", "none: self-play searches with the PUCT of "
                  "search.*; so_ismcts: every move is searched by rollout SO-ISMCTS (no "
                  "network) and the network distils its visits and root value; planner: by "
                  "the planner of the current network (guided_so_ismcts: so_ismcts with its "
                  "root led by the network's priors, worlds from the network-weighed belief), "
                  "which the run then records", choices=_teachers)
TEACHER_ITERATIONS = Setting("teacher_iterations", int, 1000, "the teacher's iterations per "
                             "move", lo=1)
ALL_HANDS = Setting(
    "all_hands", bool, False, "at each decision also search every other information set of "
    "the acting seat at the same public state (each hand it could hold; worlds from that "
    "view's posterior) and record each as a position: its policy target, and as value "
    "target its search's value (belief posterior; a game small enough to enumerate)")
PLAYOUT_FIT_GAMES = Setting(
    "playout_fit_games", int, 0, "with teacher=planner: at the end of every generation "
    "(trainer.generation_schedule, and the last iteration) the planner plays this many games "
    "against itself and a fast playout policy is fitted to its moves "
    "(isz.training.playout_fit); the teacher searches with it from then on and the run "
    "records it (leaf=policy) unless it predicts held-out moves no better than uniform "
    "play; its games go on selfplay.workers processes without actors; 0: off, random "
    "playouts", lo=0)
LEAGUE = Setting(
    "league", float, 0.0, "share of self-play games in which one seat, drawn at random, is "
    "a rollout searcher (the teacher's search without the network: so_ismcts at "
    "teacher_iterations, worlds from the game's belief without a policy) whose moves are "
    "played and not learned from (isz.selfplay.league); needs a teacher", lo=0, hi=1)
SELFPLAY = Group("selfplay", "Self-play: games, actors, value targets, teacher", [
    PARALLEL_GAMES,
    Setting("games_per_iteration", int, 256, "games played per training iteration", lo=1),
    Setting("workers", int, 2, "without actors: processes of this machine playing the "
            "iteration's games (and the playout fit's), in chunks of parallel_games games "
            "(of 10), each from its own seed "
            "(the same games for any count with trainer.torch_threads=1, the default; 1 "
            "on CUDA, where forking is unsafe)", lo=1),
    Setting("device", str, "cpu", "actors only (trainer.actors >= 1): where they run the "
            "network (Ray places cuda actors)", choices=("cpu", "cuda")),
    Setting("gpus_per_actor", float, 0.25, "actors on cuda: the GPU fraction each one asks "
            "Ray for", lo=0, above=True),
    Setting("chunk_games", int, 0, "actors only: games per streamed chunk (0: "
            "parallel_games)", lo=0),
    VALUE_TARGET_Q, VALUE_TARGET_Q_ROWS,
    Setting("rollout_iterations", int, 0, "first iterations whose self-play searches with "
            "random playouts and uniform priors (no network): q informative from the start",
            lo=0),
    TEACHER, TEACHER_ITERATIONS, LEAGUE, ALL_HANDS, PLAYOUT_FIT_GAMES,
])
TRAINER = Group("trainer", "Learning, evaluation, checkpoints, actors", [
    Setting("iterations", int, 40, "self-play + learning rounds", lo=1),
    Setting("steps_per_iteration", int, 100, "gradient steps per iteration", lo=1),
    Setting("batch_size", int, 256, "positions per gradient step", lo=1),
    Setting("lr", float, 2e-3, "AdamW learning rate (peak)", lo=0, above=True),
    Setting("weight_decay", float, 1e-4, "AdamW decoupled weight decay", lo=0),
    Setting("lr_schedule", str, "cosine", "cosine (to 10%) over iterations × steps, or "
            "constant; a finished run resumed with more iterations goes on along the longer "
            "cosine, so it ends unlike a run that had that count from its start",
            choices=("cosine", "constant")),
    Setting("value_weight", float, 1.0, "weight of the value MSE against the policy "
            "cross-entropy", lo=0),
    Setting("value_other_weight", float, 0.0, "weight of the other seats' value entries of "
            "a row against its own seat's", lo=0, hi=1,
            ends="1: every value entry alike, 0: only the row's own seat"),
    Setting("buffer_size", int, 50_000, "replay capacity in positions", lo=1),
    Setting("device", str, "auto", "auto (CUDA when present), cpu, cuda, cuda:N"),
    Setting("torch_threads", int, 1, "CPU threads of torch; 1 avoids fighting the search "
            "for cores", lo=1),
    Setting("seed", int, 0, "every random choice of the run flows from it", lo=0),
    Setting("eval_every", int, 10, "iterations between arena evaluations (0: final only)",
            lo=0),
    Setting("eval_deals", int, 50, "deals per periodic evaluation matchup", lo=1),
    Setting("final_eval_deals", int, 200, "deals per final evaluation matchup", lo=1),
    Setting("eval_workers", int, 2, "processes playing evaluation deals (same result for any "
            "count; 1 on CUDA or with Ray actors, where forking is unsafe)", lo=1),
    Setting("eval_opponents", list[str], ["so_ismcts", "pimc"], "agents the planner plays "
            "in evaluations, at the planner's simulation count", check=_opponents,
            shape="list of agent names"),
    Setting("eval_knobs", dict, {"so_ismcts": {"belief": "auto"}, "pimc": {"belief": "auto"}},
            "opponent -> extra settings (make_agent checks them); belief auto: the game's "
            "best knowledge-free belief (voids on the trick games)"),
    Setting("exploitability_max_histories", int, 50_000, "evaluations add the exact "
            "exploitability (and best.pt follows it) for games with at most this many "
            "histories; 0: never", lo=0),
    Setting("best_by", str, "score", "where there is no exploitability, best.pt is the "
            "checkpoint with the best evaluation against the first of eval_opponents by its "
            "score (win share: a rank) or its utility (the game's own returns a game: chips "
            "on poker, where a win share counts a hand won by one chip as a pot); the "
            "final checks' verdict is recorded in last.pt alone",
            choices=("score", "utility")),
    Setting("checkpoint_every", int, 5, "iterations between kept numbered checkpoints", lo=1),
    Setting("keep_last", int, 3, "numbered checkpoints kept (plus last.pt and best.pt)", lo=1),
    Setting("generation_every", int, 10, "iterations between generation snapshots "
            "(checkpoints/gen-NNNNNN.pt, never pruned: the strength ladder's rungs)", lo=0),
    Setting("generation_schedule", str, "every", "when a generation ends: every "
            "generation_every iterations, or doubling (iterations 1, 2, 4, 8, ... and the "
            "last: each generation has trained as long as all before it together, so a "
            "loop whose gains slow is still measured where they come)",
            choices=("every", "doubling")),
    Setting("ladder_deals", int, 50, "deals per table of the strength ladder played after "
            "each generation snapshot: the new generation against its predecessor and "
            "each of ladder_baselines, at equal time per move (0: none; isz-ladder RUN_DIR "
            "plays the full ladder afterwards)", lo=0),
    Setting("ladder_time", float, 0.01, "seconds a move of every agent in the ladder", lo=0,
            above=True),
    Setting("ladder_baselines", list[str], ["so_ismcts"], "rollout agents on the ladder "
            "played during training (the first is rated 0), with eval_knobs' settings",
            check=_opponents, shape="list of agent names"),
    Setting("value_check_deals", int, 300, "deals a round of the final value check: the "
            "planner with the network's values at the root (value_mix 0.25) and without, "
            "each against so_ismcts on the same deals at ladder_time a move; the run records "
            "the values if ahead on the mean (chips on poker; none on a tie) (0: no "
            "check, value_mix 0; equal to root_check_deals, the root check's rounds reuse "
            "the matches it kept)", check=_check_deals, shape="0 or an int >= 2"),
    Setting("value_check_rounds", int, 1, "rounds of value_check_deals fresh deals the "
            "value check plays at most: another only while the values lead by less than 2 "
            "SE (1: one round's mean decides)", lo=1),
    Setting("root_check_deals", int, 300, "deals a round of the final root check, after "
            "the value check: the planner with its root's PUCT on the network's priors and "
            "with so_ismcts's UCB there (c_puct 0, the value mix kept), each against "
            "so_ismcts on the same deals at ladder_time a move; the run records the rule "
            "with the higher mean return (c_puct as trained or 0; UCB on a tie) (0: no "
            "check, c_puct as trained)", check=_check_deals, shape="0 or an int >= 2"),
    Setting("root_check_rounds", int, 1, "rounds of root_check_deals fresh deals the root "
            "check plays at most: it stops once either rule leads by more than 2 SE in the "
            "game's returns, paired over all the deals played, and otherwise picks by the "
            "mean after its last round (1: one round's mean decides)", lo=1),
    Setting("generation_checks", str, "off", "at the end of every generation but the "
            "last, the final checks (value_check_deals, root_check_deals) judge the network "
            "as it stands and the generation's snapshot records their verdict; root: the "
            "planner teacher then searches with the root's rule they chose (PUCT on the "
            "priors or UCB) until the next generation; planner: with that rule and the "
            "network's values at its root where they paid (the teacher of generation g+1 "
            "is the whole planner of generation g); off: no check before the last "
            "iteration, the teacher as trained", choices=tuple(GENERATION_CHECKS)),
    Setting("actors", int, 0, "self-play actors on Ray (0: self-play in this process, "
            "reproducible)", lo=0),
    Setting("max_staleness", int, 4, "actors: positions of weights older than this many "
            "versions are dropped", lo=0),
    Setting("average_from", int, 0, "keep the mean of the network's weights after "
            "iterations average_from..t (SWA: an average policy), saved as "
            "checkpoints/average.pt; 0: off", lo=0),
    Setting("average_policy_from", int, 0, "from this iteration on, a second network learns "
            "the reach-weighted average of the policies self-play played (NFSP: a reservoir "
            "of every iteration's positions), saved as checkpoints/average_policy.pt; 0: off",
            lo=0),
    Setting("average_policy_buffer", int, 200_000, "reservoir capacity of the average "
            "policy, in positions (a uniform sample of all positions offered)", lo=1),
    Setting("average_policy_steps", int, 100, "gradient steps of the average policy per "
            "iteration", lo=1),
    Setting("average_policy_weight", str, "uniform", "weight of iteration t's positions in "
            "the average policy: uniform (NFSP, fictitious play), sqrt (t^0.5) or linear (t, as "
            "linear CFR: the early policies fade)", choices=tuple(AVERAGE_POLICY_POWERS)),
    Setting("average_policy_target", str, "search", "what the average policy learns at each "
            "played position: search (the policy the move was drawn from, as NFSP) or network "
            "(the run's network's policy after that iteration's training: the average of the "
            "network iterates, without the search's per-visit noise)",
            choices=("search", "network")),
    Setting("average_policy_polish", int, 0, "after the last iteration's steps, the average "
            "policy takes this many more gradient steps on its final reservoir with a fresh "
            "optimizer whose learning rate runs the run's schedule over them (a restart: "
            "online it met the last rows at the schedule's end); 0: off", lo=0),
    Setting("average_policy_games", int, 0, "the average policy learns, instead of self-play's "
            "positions, the network's own decisions in this many extra games per iteration in "
            "which one seat (in turn) plays the network's policy and the others play uniformly "
            "at random: a fixed opponent makes each iterate's rows at an information set come "
            "in proportion to its own reach (fictitious self-play's average); 0: self-play's "
            "positions", lo=0),
    Setting("continue_from", str, None, "a new run folder starts where another run's last.pt "
            "left off (weights, optimizer, schedule, buffer, counters, RNG); ignored once "
            "this folder has its own last.pt", null="a fresh start"),
])
LOGGER = Group("logger", "What a run shows", [
    Setting("tensorboard", bool, True, "scalars under <run_dir>/tb"),
    Setting("progress", bool, True, "progress bars (hidden when stderr is not a terminal)"),
])
RAY = Group("ray", "Ray, for trainer.actors >= 1 (and scripts/evaluate.py backend=ray)", [
    Setting("address", str, None, "auto or host:port: join a cluster", null="a new local Ray"),
    Setting("num_cpus", int, None, "local Ray only: CPUs it may use", lo=1,
            null="all of this machine"),
    Setting("object_store_mb", int, 256, "local Ray only: shared-memory object store size",
            lo=80),
    Setting("start_timeout_s", float, 120.0, "Ray start-up and actor creation must finish "
            "within this", lo=0, above=True),
    Setting("result_timeout_s", float, 600.0, "longest wait for any actor's next chunk "
            "(a match worker's next deals) before giving up", lo=0, above=True),
    Setting("max_restarts", int, 3, "times Ray restarts a dead actor before it is given "
            "up (the others go on)", lo=0),
    Setting("inflight", int, 2, "chunks queued per actor (it plays on while the learner "
            "trains)", lo=1),
])
EXPERIMENT = Group("experiment", "The run; conf/experiment/NAME.yaml are the presets", [
    Setting("name", str, "tricks", "names the run folder"),
    Setting("run_dir", str, "runs/${experiment.name}", "the run folder (the same folder "
            "again: resume)"),
])
GROUPS = (GAME, SEARCH, BELIEF, MODEL, SELFPLAY, TRAINER, LOGGER, RAY, EXPERIMENT)


def _unknown_belief_knobs(cfg) -> list[str]:
    from isz.belief.registry import belief_knobs

    return sorted(set(cfg.belief.knobs) - _own_knobs(belief_knobs(cfg.belief.name)))


def _own_knobs(knobs: dict) -> set[str]:
    return set(knobs) - {"policy", "motion"}


def _belief_knobs_message(cfg) -> str:
    from isz.belief.registry import belief_knobs

    allowed = sorted(_own_knobs(belief_knobs(cfg.belief.name)))
    return (f"unknown belief.knobs {', '.join(_unknown_belief_knobs(cfg))} for belief "
            f"{cfg.belief.name!r}; allowed: {', '.join(allowed) or '(none)'}")


def _policy_message(cfg) -> str:
    return (f"belief.policy={cfg.belief.policy} is set, but belief {cfg.belief.name!r} takes "
            f"no policy; beliefs that do: {', '.join(policy_beliefs())} (drop belief.policy)")


TRAIN_RULES = (
    Rule("belief.knobs holds only the belief's own knobs (isz.belief.belief_knobs)",
         lambda c: bool(_unknown_belief_knobs(c)), message=_belief_knobs_message),
    Rule("belief.policy is set only for a belief that takes a policy",
         lambda c: c.belief.policy is not None and c.belief.name not in policy_beliefs(),
         message=_policy_message),
    Rule("search.root_selection=uniform needs search.target=mirror: equal root visits are "
         "no policy target",
         lambda c: c.search.root_selection == "uniform" and c.search.target != "mirror",
         ("search.target",)),
    Rule("search.planner_common_worlds=true needs search.root_selection=uniform: only root "
         "moves visited in turn share worlds",
         lambda c: c.search.planner_common_worlds and c.search.root_selection != "uniform",
         ("search.planner_common_worlds", "search.root_selection")),
    Rule("search.common_worlds=true needs search.root_selection=uniform: only root moves "
         "visited in turn share worlds",
         lambda c: c.search.common_worlds and c.search.root_selection != "uniform",
         ("search.root_selection",)),
    Rule("search.magnet=network needs search.target=mirror: the magnet is part of the "
         "mirror step",
         lambda c: c.search.magnet == "network" and c.search.target != "mirror",
         ("search.target",)),
    Rule("search.magnet=network needs search.mirror_alpha > 0: with no magnet weight the "
         "magnet does nothing",
         lambda c: c.search.magnet == "network" and c.search.mirror_alpha <= 0,
         ("search.mirror_alpha",)),
    Rule("search.magnet=network runs only with trainer.actors=0: actors do not receive the "
         "magnet yet", lambda c: c.search.magnet == "network" and c.trainer.actors > 0,
         ("trainer.actors",)),
    Rule("a selfplay.teacher needs search.target=visits: the teacher's policy target is its "
         "visits", lambda c: c.selfplay.teacher != "none" and c.search.target != "visits",
         ("selfplay.teacher", "search.target")),
    Rule("a selfplay.teacher searches every iteration's moves: selfplay.rollout_iterations "
         "must be 0 (it would do nothing)",
         lambda c: c.selfplay.teacher != "none" and c.selfplay.rollout_iterations > 0,
         ("selfplay.teacher", "selfplay.rollout_iterations")),
    Rule("selfplay.league > 0 needs a selfplay.teacher: the member plays beside the teacher",
         lambda c: c.selfplay.league > 0 and c.selfplay.teacher == "none",
         ("selfplay.league", "selfplay.teacher")),
    Rule("selfplay.playout_fit_games > 0 needs selfplay.teacher=planner: the playout is "
         "fitted to the rollout planner's moves and played below its tree",
         lambda c: c.selfplay.playout_fit_games and c.selfplay.teacher != "planner",
         ("selfplay.playout_fit_games", "selfplay.teacher")),
    Rule("selfplay.all_hands=true needs belief.name=posterior: the other hands' worlds come "
         "from their own exact posterior", lambda c: c.selfplay.all_hands and
         c.belief.name != "posterior", ("belief.name",)),
    Rule("selfplay.all_hands=true needs selfplay.teacher=none: the teacher searches the "
         "hand held only", lambda c: c.selfplay.all_hands and c.selfplay.teacher != "none",
         ("selfplay.teacher",)),
    Rule("trainer.average_from must not be past trainer.iterations: the average would never "
         "start (0 turns it off)",
         lambda c: c.trainer.average_from > c.trainer.iterations,
         ("trainer.average_from", "trainer.iterations")),
    Rule("trainer.average_policy_from must not be past trainer.iterations: the average "
         "policy would never start (0 turns it off)",
         lambda c: c.trainer.average_policy_from > c.trainer.iterations,
         ("trainer.average_policy_from", "trainer.iterations")),
    Rule("trainer.average_policy_from needs selfplay.all_hands=false: the rows of hands not "
         "held were not played, so they would weigh the average by the public state's reach "
         "instead of the information set's",
         lambda c: c.trainer.average_policy_from and c.selfplay.all_hands,
         ("trainer.average_policy_from", "selfplay.all_hands")),
    Rule("trainer.average_policy_games needs trainer.average_policy_from > 0 and "
         "trainer.average_policy_target=network: its rows carry the network's own policy",
         lambda c: c.trainer.average_policy_games and not (
             c.trainer.average_policy_from and c.trainer.average_policy_target == "network"),
         ("trainer.average_policy_games", "trainer.average_policy_from",
          "trainer.average_policy_target")),
    Rule("trainer.average_policy_polish needs trainer.average_policy_from > 0: there is no "
         "average policy to polish",
         lambda c: c.trainer.average_policy_polish and not c.trainer.average_policy_from,
         ("trainer.average_policy_polish", "trainer.average_policy_from")),
)
