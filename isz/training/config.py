"""Typed schema of `scripts/train.py` (hydra groups: game, search, belief, model,
selfplay, trainer, logger, experiment). One line per key says what it does.

Hydra merges ``conf/`` into these dataclasses, so a misspelt key is rejected
with the key named; `validate` checks the values and names what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from isz.types import IszError, check_choice, check_fraction, check_int


@dataclass
class GameCfg:
    name: str = "tricks"  # registered game or preset (isz.game_names())
    params: dict[str, Any] = field(default_factory=dict)  # overrides of the game's parameters
    module: str | None = None  # module defining a game outside isz (examples.goofspiel),
    #   imported first; it must be importable (the scripts add the launch directory)


@dataclass
class SearchCfg:
    simulations: int = 32  # PUCT simulations per move, in self-play and evaluation
    c_puct: float = 1.5  # exploration weight of the prior
    fpu: float = 0.5  # score in [0, 1] assumed for an unvisited move
    tree: str = "mo"  # mo: one tree per player; so: one tree of the searcher
    opponents: str = "puct"  # puct; prior: opponents play the network policy; evaluate: all do
    value_view: str = "searcher"  # whose view values a leaf for the searcher: searcher, actor,
    #   or own (as searcher; the other seats share a zero sum: for value_other_weight=0)
    root_selection: str = "puct"  # root moves by PUCT, or uniform: visited in turn, so their
    #   mean values are unbiased (PUCT's abandon unlucky moves); needs target=mirror
    dirichlet_alpha: float = 0.3  # root noise concentration (self-play only)
    dirichlet_eps: float = 0.25  # root noise weight (self-play only)
    temperature_moves: int = 4  # first moves of a game sampled from the target, then argmax
    target: str = "visits"  # policy target: visits (AlphaZero) or mirror (Hedge step on q)
    mirror_eta: float = 2.0  # step size of the mirror target, per unit of value in [-1, 1]
    mirror_alpha: float = 0.0  # magnet weight of the mirror target (0: plain Hedge step)
    mirror_alpha_final: float | None = None  # if set: cosine decay of mirror_alpha to this
    magnet: str = "uniform"  # magnet of the mirror target: uniform, or network (a snapshot
    #   of the network's policy, replaced every magnet_every iterations: R-NaD's moving
    #   magnet, whose fixed points approach Nash instead of a regularised equilibrium)
    magnet_every: int = 10  # magnet=network: iterations between magnet snapshots
    planner_eta: float | None = None  # mirror step of the planner (evaluation, checkpoints'
    #   planner knobs); null: mirror_eta. Near equilibrium its step along noisy q is noise
    leaf_mix: float = 0.0  # m in [0, 1]: a leaf's value is (1 - m) network + m random playout
    expand_after: int = 1  # n >= 1: a leaf's first n - 1 visits are random playouts (no
    #   network call), the n-th expands it (AlphaGo's expansion threshold); 1: every leaf
    below_threshold: str = "playout"  # below expand_after: playout (stop there) or search
    #   (go on with uniform priors; see the puct_ismcts knob of the same name)


@dataclass
class BeliefCfg:
    name: str = "uniform"  # determinization sampler of every seat (isz.belief names)
    policy: str = "network"  # posterior/gibbs/particle/bayes: weigh by the network (or uniform)
    knobs: dict[str, Any] = field(default_factory=dict)  # the belief's own knobs (conf/belief/)

    def spec(self) -> str | dict:
        """The belief as `make_search_belief` takes it: a name, or name and knobs."""
        return {"name": self.name, **self.knobs} if self.knobs else self.name


@dataclass
class ModelCfg:
    width: int = 128  # hidden units of the residual MLP
    depth: int = 2  # residual blocks


@dataclass
class SelfPlayCfg:
    parallel_games: int = 64  # games searched in lockstep (one forward pass per step)
    games_per_iteration: int = 256  # games played per training iteration
    device: str = "cpu"  # actors only (trainer.actors >= 1): cpu, or cuda (Ray places them)
    gpus_per_actor: float = 0.25  # actors on cuda: the GPU fraction each one asks Ray for
    chunk_games: int = 0  # actors only: games per streamed chunk (0 = parallel_games)
    value_target_q: float = 0.0  # lam in [0, 1]: the actor's value target is (1 - lam) z +
    #   lam q (z: final return, q: its search's root value); 0 = the final return only
    value_target_q_rows: str = "decisions"  # rows whose own entry mixes in q: decisions,
    #   or all (a value-only row takes the q of its seat's next decision)
    rollout_iterations: int = 0  # first iterations whose self-play searches with random
    #   playouts at the leaves and uniform priors (no network): q informative from the start
    teacher: str = "none"  # so_ismcts: every self-play move is searched by rollout SO-ISMCTS
    #   (no network) and the network distils it: its visits and root value q
    teacher_iterations: int = 1000  # the teacher's iterations per move


@dataclass
class TrainerCfg:
    iterations: int = 40  # self-play + learning rounds
    steps_per_iteration: int = 100  # gradient steps per iteration
    batch_size: int = 256  # positions per gradient step
    lr: float = 2e-3  # AdamW learning rate (peak)
    weight_decay: float = 1e-4  # AdamW decoupled weight decay
    lr_schedule: str = "cosine"  # cosine (to 10%) or constant
    value_weight: float = 1.0  # weight of the value MSE against the policy cross-entropy
    value_other_weight: float = 1.0  # in [0, 1]: weight of the other seats' value entries
    #   of a row against its own seat's (1: every entry alike)
    buffer_size: int = 50_000  # replay capacity in positions
    device: str = "auto"  # auto (CUDA when present), cpu, cuda, cuda:N
    torch_threads: int = 1  # CPU threads of torch; 1 avoids fighting the search for cores
    seed: int = 0  # every random choice of the run flows from it
    eval_every: int = 10  # iterations between arena evaluations (0 = final only)
    eval_deals: int = 50  # deals per periodic evaluation matchup
    final_eval_deals: int = 200  # deals per final evaluation matchup (README: 1,000)
    eval_workers: int = 2  # processes playing evaluation deals (same result for any count;
    #   1 on CUDA or with Ray actors, where forking is unsafe)
    eval_opponents: list[str] = field(default_factory=lambda: ["so_ismcts", "pimc"])
    eval_knobs: dict[str, Any] = field(default_factory=dict)  # opponent -> extra knobs,
    #   e.g. {so_ismcts: {belief: voids}} (make_agent checks them)
    exploitability_max_histories: int = 50_000  # evaluations add the exact exploitability
    #   (and best.pt follows it) for games with at most this many histories; 0 = never
    checkpoint_every: int = 5  # iterations between kept numbered checkpoints
    keep_last: int = 3  # numbered checkpoints kept (plus last.pt and best.pt)
    actors: int = 0  # self-play actors on Ray (0: self-play in this process, reproducible)
    max_staleness: int = 4  # actors: positions of weights older than this many versions dropped
    average_from: int = 0  # >= 1: keep the mean of the network's weights after iterations
    #   average_from..t (SWA: an average policy), saved as checkpoints/average.pt; 0 = off
    continue_from: str | None = None  # a new run folder starts where another run's last.pt
    #   left off (weights, optimizer, schedule step, buffer, counters, RNG), e.g. with more
    #   iterations or a stronger teacher; ignored once this folder has its own last.pt


@dataclass
class LoggerCfg:
    tensorboard: bool = True  # scalars under <run_dir>/tb
    progress: bool = True  # progress bars (hidden when stderr is not a terminal)


@dataclass
class RayCfg:
    address: str | None = None  # null: a new local Ray; auto or host:port: join a cluster
    num_cpus: int | None = None  # local Ray only: CPUs it may use (null: all of this machine)
    object_store_mb: int = 256  # local Ray only: shared-memory object store size
    start_timeout_s: float = 120.0  # Ray start-up and actor creation must finish within this
    result_timeout_s: float = 600.0  # longest wait for any actor's next chunk before giving up
    max_restarts: int = 3  # times Ray restarts a dead actor before the run stops
    inflight: int = 2  # chunks queued per actor (it plays on while the learner trains)


@dataclass
class ExperimentCfg:
    name: str = "tricks"  # names the run folder
    run_dir: str = "runs/${experiment.name}"  # same folder again = resume


@dataclass
class TrainConfig:
    game: GameCfg = field(default_factory=GameCfg)
    search: SearchCfg = field(default_factory=SearchCfg)
    belief: BeliefCfg = field(default_factory=BeliefCfg)
    model: ModelCfg = field(default_factory=ModelCfg)
    selfplay: SelfPlayCfg = field(default_factory=SelfPlayCfg)
    trainer: TrainerCfg = field(default_factory=TrainerCfg)
    logger: LoggerCfg = field(default_factory=LoggerCfg)
    ray: RayCfg = field(default_factory=RayCfg)
    experiment: ExperimentCfg = field(default_factory=ExperimentCfg)


def _positive(what: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise IszError(f"{what} must be a number > 0, got {value!r}")


def _non_negative(what: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise IszError(f"{what} must be a number >= 0, got {value!r}")


def _check_belief_knobs(b: BeliefCfg) -> None:
    """``belief.knobs``: the belief's own knobs (its policy comes from ``belief.policy``)."""
    from isz.belief.registry import belief_knobs

    allowed = sorted(set(belief_knobs(b.name)) - {"policy", "motion"})
    unknown = sorted(set(b.knobs) - set(allowed))
    if unknown:
        raise IszError(f"unknown belief.knobs {', '.join(unknown)} for belief {b.name!r}; "
                       f"allowed: {', '.join(allowed) or '(none)'}")


def check_continue_from(path: str | None, run_dir: str) -> None:
    """`trainer.continue_from`: unset, or an existing file (IszError naming it); not
    looked at once ``run_dir`` has its own last.pt (the source may be gone by then)."""
    if (Path(run_dir) / "checkpoints" / "last.pt").exists():
        return
    if path is not None and not Path(path).expanduser().is_file():
        raise IszError(f"trainer.continue_from={path!r}: no such checkpoint file (give "
                       f"another run's checkpoints/last.pt)")


def validate(cfg: TrainConfig) -> None:
    """Raise `IszError` naming the first bad value and what is allowed."""
    from isz.agents import agent_names
    from isz.belief import belief_names
    from isz.search.puct_driver import (
        BELOW_THRESHOLD,
        LEAF_MIX_ENDS,
        OPPONENT_MODES,
        POLICY_TARGETS,
        ROOT_SELECTIONS,
        VALUE_VIEWS,
    )
    from isz.selfplay.records import Q_ROWS

    s, t = cfg.search, cfg.trainer
    check_int("search.simulations", s.simulations, lo=1)
    check_choice("search.tree", s.tree, ("mo", "so"))
    check_choice("search.opponents", s.opponents, OPPONENT_MODES)
    check_choice("search.value_view", s.value_view, VALUE_VIEWS)
    check_choice("search.target", s.target, POLICY_TARGETS)
    check_choice("search.root_selection", s.root_selection, ROOT_SELECTIONS)
    if s.root_selection == "uniform" and s.target != "mirror":
        raise IszError(f"search.root_selection=uniform needs search.target=mirror (got "
                       f"{s.target!r}): equal root visits are no policy target")
    _positive("search.mirror_eta", s.mirror_eta)
    if s.planner_eta is not None:
        _positive("search.planner_eta (or null)", s.planner_eta)
    _non_negative("search.mirror_alpha", s.mirror_alpha)
    if s.mirror_alpha_final is not None:
        _non_negative("search.mirror_alpha_final (or null)", s.mirror_alpha_final)
    _validate_magnet(cfg)
    check_choice("belief.policy", cfg.belief.policy, ("network", "uniform"))
    check_int("search.temperature_moves", s.temperature_moves, lo=0)
    check_fraction("search.leaf_mix", s.leaf_mix, LEAF_MIX_ENDS)
    check_int("search.expand_after", s.expand_after, lo=1)
    check_choice("search.below_threshold", s.below_threshold, BELOW_THRESHOLD)
    if not 0 <= s.dirichlet_eps <= 1:
        raise IszError(f"search.dirichlet_eps must be in [0, 1], got {s.dirichlet_eps}")
    _positive("search.dirichlet_alpha", s.dirichlet_alpha)
    check_choice("belief", cfg.belief.name, belief_names())
    _check_belief_knobs(cfg.belief)
    check_int("model.width", cfg.model.width, lo=1)
    check_int("model.depth", cfg.model.depth, lo=0)
    check_int("selfplay.parallel_games", cfg.selfplay.parallel_games, lo=1)
    check_int("selfplay.games_per_iteration", cfg.selfplay.games_per_iteration, lo=1)
    check_fraction("selfplay.value_target_q", cfg.selfplay.value_target_q,
                   "0: final return, 1: root value")
    check_choice("selfplay.value_target_q_rows", cfg.selfplay.value_target_q_rows, Q_ROWS)
    check_int("selfplay.rollout_iterations", cfg.selfplay.rollout_iterations, lo=0)
    _validate_teacher(cfg)
    for key in ("iterations", "steps_per_iteration", "batch_size", "buffer_size",
                "final_eval_deals", "eval_deals", "eval_workers", "checkpoint_every",
                "keep_last"):
        check_int(f"trainer.{key}", getattr(t, key), lo=1)
    check_int("trainer.eval_every", t.eval_every, lo=0)
    check_int("trainer.exploitability_max_histories", t.exploitability_max_histories, lo=0)
    check_int("trainer.average_from", t.average_from, lo=0)
    if t.average_from > t.iterations:
        raise IszError(f"trainer.average_from={t.average_from} is past trainer.iterations="
                       f"{t.iterations}: the average would never start (0 turns it off)")
    check_continue_from(t.continue_from, cfg.experiment.run_dir)
    check_int("trainer.seed", t.seed, lo=0)
    check_int("trainer.torch_threads", t.torch_threads, lo=1)
    _positive("trainer.lr", t.lr)
    check_fraction("trainer.value_other_weight", t.value_other_weight,
                   "1: every value entry alike, 0: only the row's own seat")
    check_choice("trainer.lr_schedule", t.lr_schedule, ("cosine", "constant"))
    _validate_actors(cfg)
    for name in t.eval_opponents:
        check_choice("trainer.eval_opponents entry", name, agent_names())


MAGNETS = ("uniform", "network")


def _validate_magnet(cfg: TrainConfig) -> None:
    """``search.magnet``/``magnet_every``: a network magnet needs the mirror target, a
    magnet weight > 0 (else the magnet does nothing) and self-play in this process."""
    s = cfg.search
    check_choice("search.magnet", s.magnet, MAGNETS)
    check_int("search.magnet_every", s.magnet_every, lo=1)
    if s.magnet != "network":
        return
    if s.target != "mirror":
        raise IszError(f"search.magnet=network needs search.target=mirror (got "
                       f"{s.target!r}): the magnet is part of the mirror step")
    if s.mirror_alpha <= 0:
        raise IszError(f"search.magnet=network needs search.mirror_alpha > 0 (got "
                       f"{s.mirror_alpha!r}): with no magnet weight the magnet does nothing")
    if cfg.trainer.actors:
        raise IszError(f"search.magnet=network runs only with trainer.actors=0 (got "
                       f"{cfg.trainer.actors}): actors do not receive the magnet yet")


def _validate_teacher(cfg: TrainConfig) -> None:
    """``selfplay.teacher``: a known teacher; its policy target is its visits, and it
    replaces every iteration's search, so random-playout iterations would mean nothing."""
    from isz.selfplay.teacher import TEACHERS

    sp = cfg.selfplay
    check_choice("selfplay.teacher", sp.teacher, TEACHERS)
    check_int("selfplay.teacher_iterations", sp.teacher_iterations, lo=1)
    if sp.teacher == "none":
        return
    if cfg.search.target != "visits":
        raise IszError(f"selfplay.teacher={sp.teacher} needs search.target=visits (got "
                       f"{cfg.search.target!r}): the teacher's policy target is its visits")
    if sp.rollout_iterations:
        raise IszError(f"selfplay.teacher={sp.teacher} searches every iteration's moves; "
                       f"selfplay.rollout_iterations={sp.rollout_iterations} would do "
                       f"nothing (set it to 0)")


def _validate_actors(cfg: TrainConfig) -> None:
    """The distributed knobs (they matter only with ``trainer.actors >= 1``)."""
    t, r = cfg.trainer, cfg.ray
    check_int("trainer.actors", t.actors, lo=0)
    check_int("trainer.max_staleness", t.max_staleness, lo=0)
    check_choice("selfplay.device", cfg.selfplay.device, ("cpu", "cuda"))
    check_int("selfplay.chunk_games", cfg.selfplay.chunk_games, lo=0)
    if cfg.selfplay.device == "cuda":
        _positive("selfplay.gpus_per_actor", cfg.selfplay.gpus_per_actor)
    if r.num_cpus is not None:
        check_int("ray.num_cpus (or null)", r.num_cpus, lo=1)
    check_int("ray.object_store_mb", r.object_store_mb, lo=80)
    _positive("ray.start_timeout_s", r.start_timeout_s)
    _positive("ray.result_timeout_s", r.result_timeout_s)
    check_int("ray.max_restarts", r.max_restarts, lo=0)
    check_int("ray.inflight", r.inflight, lo=1)
