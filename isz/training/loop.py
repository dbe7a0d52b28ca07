"""`train(cfg)`: the AlphaZero-style loop through information-set search.

Each iteration: batched self-play with the current network (every seat
searches from its own view) -> positions into the replay buffer -> gradient
steps -> (with ``search.magnet=network``, every ``magnet_every`` iterations: the
mirror target's magnet becomes a snapshot of the network) -> (with
``trainer.average_from``, from that iteration on: the network is folded into the
running mean of its weights, ``checkpoints/average.pt``; with
``trainer.average_policy_from``, NFSP's average-policy network learns from a
reservoir of the positions, `isz.training.average_policy`) -> (every
``eval_every``) arena evaluation -> an atomic checkpoint of everything, and a
line in ``metrics.jsonl``. Running it again on the same run folder resumes
where it stopped.
With ``trainer.actors >= 1`` the positions come from Ray actors that play on
while the learner trains (`isz.training.source`); the rest is the same loop.
"""

from __future__ import annotations

import dataclasses
import math
import time
from pathlib import Path

import torch
from omegaconf import OmegaConf

from isz.fs import check_free_space, check_writable_dir
from isz.games.registry import import_game_module, make_game
from isz.nn.device import resolve_device
from isz.nn.model import ModelConfig
from isz.progress import Progress
from isz.search.puct_driver import PUCTConfig
from isz.selfplay import SelfPlayConfig
from isz.selfplay.selfplay import SELFPLAY_RUN
from isz.settings.planner_record import belief_spec
from isz.settings.search import PUCT_KERNEL
from isz.settings.training import GENERATION_CHECKS
from isz.training import run_state
from isz.training.average_policy import AveragePolicy
from isz.training.checks import final_checks
from isz.training.config import (
    TrainConfig,
    belief_policy,
    ends_generation,
    save_run_config,
    validate,
)
from isz.training.evaluation import evaluate, exploitability_of, planner_knobs
from isz.training.learner import train_steps, value_diagnostics
from isz.training.logging import RunLogger
from isz.training.playout_fit import fit_step, with_playout
from isz.training.source import open_source

RESULTS = "results.json"  # the final evaluation, in the run folder
# self-play drawing worlds for longer than this share of its time gets a note: the
# sampler, not the search or the network, then sets the run's wall time
BELIEF_SHARE_NOTE = 0.7


def _selfplay_cfg(cfg: TrainConfig) -> SelfPlayConfig:
    """The self-play record of ``cfg``: each setting of `SELFPLAY_RUN` and of the search
    kernel's `PUCT_KERNEL` taken from the training group that has it by name."""
    groups = (cfg.search, cfg.selfplay)

    def pick(setting) -> dict:
        have = [g for g in groups if hasattr(g, setting.name)]
        return {setting.name: setting.validate(getattr(have[0], setting.name))} if have else {}

    puct = PUCTConfig(**{k: v for s in PUCT_KERNEL for k, v in pick(s).items()})
    own = {"belief": belief_spec(cfg.belief), "belief_policy": belief_policy(cfg.belief),
           "puct": puct}
    return SelfPlayConfig(**own, **{k: v for s in SELFPLAY_RUN if s.name not in own
                                    for k, v in pick(s).items()})


def selfplay_cfg_at(cfg: TrainConfig, sp_cfg: SelfPlayConfig, it: int) -> SelfPlayConfig:
    """Self-play knobs of iteration ``it`` (1-based): the mirror magnet of
    `mirror_alpha_at`, and random-playout leaves for the first
    ``selfplay.rollout_iterations`` iterations."""
    puct = dataclasses.replace(sp_cfg.puct, rollouts=it <= cfg.selfplay.rollout_iterations)
    return dataclasses.replace(sp_cfg, mirror_alpha=mirror_alpha_at(cfg, it), puct=puct)


def _learn(st, cfg: TrainConfig, device, progress: Progress) -> dict[str, float]:
    t = cfg.trainer
    t0 = time.perf_counter()
    n = t.steps_per_iteration
    means = train_steps(st.model, st.optimizer, st.scheduler,
                        lambda: st.buffer.sample(t.batch_size, st.rng), n, device, t, progress)
    st.counters["steps"] += n
    out = {f"loss/{k}": v for k, v in means.items()}
    out["perf/train_steps_per_s"] = n / max(time.perf_counter() - t0, 1e-9)
    out["perf/learner_samples_per_s"] = out["perf/train_steps_per_s"] * t.batch_size
    out["loss/lr"] = st.scheduler.get_last_lr()[0]
    return out


def _learn_average_policy(st, t, game, pos, it: int, device,
                          log: RunLogger) -> dict[str, float]:
    """Offer this iteration's positions (or the rows of its own games) to the average
    policy's reservoir and train it (started from a copy of the network the first time;
    polished on the last)."""
    if st.average_policy is None:
        st.average_policy = AveragePolicy.start(st.model, t, it)
    rows = None
    if t.average_policy_games:
        rows = st.average_policy.play(game, st.model, t.average_policy_games, it,
                                      t.average_policy_weight, device)
    else:
        net = st.model if t.average_policy_target == "network" else None
        st.average_policy.add(pos, it, t.average_policy_weight, network=net, device=device)
    with log.step(f"average policy {it}", t.average_policy_steps, "steps") as bar:
        out = st.average_policy.learn(t, device, bar)
    if rows is not None:  # the network's decisions in this iteration's own games
        out["average_policy/game_rows"] = float(rows)
    if it == t.iterations and t.average_policy_polish:
        with log.step("average policy polish", t.average_policy_polish, "steps") as bar:
            out.update(st.average_policy.polish(t, device, bar))
    return out


def mirror_alpha_at(cfg: TrainConfig, it: int) -> float:
    """Magnet weight of iteration ``it`` (1-based): constant, or a cosine from
    ``search.mirror_alpha`` down to ``search.mirror_alpha_final`` over the run
    (a smaller magnet regularises less: its fixed point is closer to Nash)."""
    s, n = cfg.search, cfg.trainer.iterations
    if s.mirror_alpha_final is None or n <= 1:
        return float(s.mirror_alpha)
    frac = 0.5 * (1.0 + math.cos(math.pi * (it - 1) / (n - 1)))
    return float(s.mirror_alpha_final + (s.mirror_alpha - s.mirror_alpha_final) * frac)


def _best_key(scalars: dict[str, float], t) -> float | None:
    """Higher is better: minus the exploitability where it is exact, else the score or
    the utility (``trainer.best_by``) against the first evaluation opponent; None when
    this iteration was not evaluated."""
    if "eval/exploitability" in scalars:
        return -scalars["eval/exploitability"]
    if t.eval_opponents:
        return scalars.get(f"eval/{t.best_by}_vs_{t.eval_opponents[0]}")
    return None


def train(cfg: TrainConfig) -> dict[str, float]:
    """Run (or resume) training; returns the last evaluation scalars."""
    if cfg.game.module:  # before validation: the module may register beliefs or agents too
        import_game_module(cfg.game.module)
    validate(cfg)
    t = cfg.trainer
    game = make_game(cfg.game.name, **dict(cfg.game.params))
    device = resolve_device(t.device)
    # Small-batch MLP inference gains nothing from intra-op threads, and on a
    # loaded 2-core machine their spin-waiting makes each forward pass ~100x slower.
    torch.set_num_threads(t.torch_threads)
    model_cfg = ModelConfig(width=cfg.model.width, depth=cfg.model.depth)
    run_dir = check_writable_dir(cfg.experiment.run_dir, "experiment.run_dir")
    last = run_dir / "checkpoints" / "last.pt"
    # another run's last.pt (`validate` checked it is a file), unless this folder has its own
    origin = None if last.exists() or t.continue_from is None \
        else Path(t.continue_from).expanduser()
    if last.exists():
        st = run_state.resume(last, game, model_cfg, t, device)
    elif origin is not None:
        st = run_state.resume(origin, game, model_cfg, t, device, own=False)
    else:
        st = run_state.fresh(game, model_cfg, t, device)
    check_free_space(run_dir, run_state.disk_need(st, game, t), "this run")
    log = RunLogger(run_dir, cfg.logger, start=st.counters["iteration"], total=t.iterations)
    if st.counters["iteration"] >= t.iterations:
        log.nothing_left(st.counters["iteration"], run_dir / RESULTS)
        log.close()
        return run_state.read_results(run_dir / RESULTS)
    save_run_config(cfg, run_dir)  # what this start trains with (tools read it back)
    if cfg.search.magnet == "network":
        if st.magnet is None:  # a fresh run (or one that had no magnet): the current net
            st.snapshot_magnet(st.counters["iteration"])
    else:
        st.magnet = None
    if not t.average_from:  # turned off (or never on): no average to keep
        st.average, st.average_count = None, 0
    if not t.average_policy_from:
        st.average_policy = None
    log.start(st.resumed, continued=origin)
    if origin is not None or not st.resumed:
        log.hparams(OmegaConf.to_yaml(OmegaConf.structured(cfg)))
    source = open_source(cfg, game, st, device, run_dir)
    started = time.perf_counter()
    try:
        scalars = _iterate(cfg, game, st, device, log, source)
    finally:
        source.close()
        log.close()
    log.finish(run_dir / RESULTS, (time.perf_counter() - started) / 60)
    return scalars


def _iterate(cfg: TrainConfig, game, st, device, log: RunLogger, source) -> dict[str, float]:
    """Iterations until ``trainer.iterations``: self-play, learning, the periodic steps,
    then the checkpoint (and the final checks, at the last). Returns the last scalars."""
    t, run_dir = cfg.trainer, Path(cfg.experiment.run_dir)
    model_cfg = ModelConfig(width=cfg.model.width, depth=cfg.model.depth)
    sp_cfg = _selfplay_cfg(cfg)
    if t.generation_checks == "off":  # checkpoints before the last record the planner as
        # trained, also in a run resumed past an earlier final check
        st.checked = {}
    scalars: dict[str, float] = {}
    noted = False  # the note on a slow sampler said
    while st.counters["iteration"] < t.iterations:
        it = st.counters["iteration"] + 1
        t_it = time.perf_counter()
        it_cfg = as_checked(dataclasses.replace(selfplay_cfg_at(cfg, sp_cfg, it),
                                                playout_weights=st.playout_weights),
                            st.checked, GENERATION_CHECKS[t.generation_checks])
        magnet_iteration = st.magnet_iteration  # the magnet this iteration's targets use
        pos, stats, scalars = _self_play(cfg, st, it_cfg, it, device, log, source)
        if not noted and scalars["perf/belief_share"] > BELIEF_SHARE_NOTE:
            noted = True  # once a start, at the first iteration over (compiling dilutes the first)
            log.say(belief_share_line(cfg, game, scalars["perf/belief_share"]))
        scalars.update(_learn_iteration(cfg, game, st, pos, it, device, log))
        source.publish(st.model, it)
        work_s = time.perf_counter() - t_it
        scalars["perf/system_positions_per_s"] = stats.positions / work_s
        scalars["perf/replay_ratio"] = \
            st.counters["steps"] * t.batch_size / max(st.buffer.total_added, 1)
        final = it == t.iterations
        generation = ends_generation(t, it)
        if cfg.selfplay.playout_fit_games and (final or generation):
            scalars.update(fit_step(st, cfg, game, device, t.seed + it, log.step))
        record = with_playout(planner_knobs(cfg), st.playout_weights)  # as trained
        if generation and not final and t.generation_checks != "off":
            scalars.update(_check(game, st, cfg, device, it, log, record,
                                  lambda line, g=it: log.say(f"generation {g}: {line}")))
        if final or (t.eval_every and it % t.eval_every == 0):
            scalars.update(_evaluations(game, st, cfg, device, it, log, record, final))
        if cfg.search.target == "mirror":
            scalars["selfplay/mirror_alpha"] = it_cfg.mirror_alpha
        if cfg.search.magnet == "network":
            scalars["selfplay/magnet_iteration"] = magnet_iteration
        score = _best_key(scalars, t)
        is_best = score is not None and score > st.best_score
        if is_best:
            st.best_score = score
        st.counters["iteration"] = it
        st.seconds["work"] += work_s
        st.seconds["elapsed"] += time.perf_counter() - t_it
        # results and the metrics line before the checkpoint: a kill in between re-runs
        # this iteration (and a resume drops the metrics lines past the checkpoint)
        if final:
            scalars.update(_check(game, st, cfg, device, it, log, record, log.say))
            run_state.write_results(run_dir / RESULTS, st, scalars)
        log.iteration(it, scalars, {**st.counters, **{f"{k}_s": v
                                                       for k, v in st.seconds.items()}})
        run_state.save(run_dir, st, game, model_cfg, t.checkpoint_every, t.keep_last, is_best,
                       {**record, **st.checked}, generation=generation)
        if t.ladder_deals and generation:
            _ladder(cfg, run_dir, device, log)
    return scalars


def _self_play(cfg: TrainConfig, st, it_cfg: SelfPlayConfig, it: int, device,
               log: RunLogger, source):
    """Iteration ``it``'s games from ``source``, their positions added to the buffer.
    Returns ``(positions, stats, scalars)``: the scalars are self-play's (``perf/``,
    ``selfplay/``, ``belief/``) and, where the source holds games out, the value head's
    error on them."""
    with log.step(f"self-play {it}", cfg.selfplay.games_per_iteration, "games") as bar:
        pos, stats, scalars = source.collect(st, it_cfg, cfg.selfplay.games_per_iteration,
                                             progress=bar.update)
    if stats.final_returns is not None:  # held-out: the network has not seen these games
        scalars.update(value_diagnostics(st.model, pos, stats.final_returns, device))
    st.buffer.add(pos)
    st.counters["games"] += stats.games
    st.counters["positions"] += stats.positions
    scalars.update({f"perf/{k}": v for k, v in stats.as_scalars().items()})
    scalars["selfplay/mean_game_length"] = stats.positions / max(stats.games, 1)
    scalars["selfplay/buffer_size"] = len(st.buffer)
    scalars.update({f"belief/{k}": v for k, v in stats.belief_scalars().items()})
    return pos, stats, scalars


def _learn_iteration(cfg: TrainConfig, game, st, pos, it: int, device,
                     log: RunLogger) -> dict[str, float]:
    """Iteration ``it``'s learning: the network's steps, then, where on, the average
    policy's, the magnet's snapshot and the running mean of the weights."""
    t = cfg.trainer
    with log.step(f"training {it}", t.steps_per_iteration, "steps") as bar:
        scalars = _learn(st, cfg, device, bar)
    if t.average_policy_from and it >= t.average_policy_from:
        scalars.update(_learn_average_policy(st, t, game, pos, it, device, log))
    if st.magnet is not None and it % cfg.search.magnet_every == 0:
        st.snapshot_magnet(it)  # the magnet of the next magnet_every iterations
    if t.average_from and it >= t.average_from:
        st.accumulate_average()
    return scalars


def _evaluations(game, st, cfg: TrainConfig, device, it: int, log: RunLogger, record: dict,
                 final: bool) -> dict[str, float]:
    """The periodic (or, at the last iteration, final) evaluation of the network as
    ``record`` plays it, and the exploitability of the averages the run keeps."""
    t = cfg.trainer
    deals = t.final_eval_deals if final else t.eval_deals
    out = evaluate(game, st.model, cfg, device, deals, seed=t.seed + it, step=log.step,
                   record=record)
    for model, prefix in ((st.average, "eval/average_"),
                          (None if st.average_policy is None else st.average_policy.model,
                           "eval/average_policy_")):
        if model is not None:
            out.update(exploitability_of(game, model, cfg, device, t.seed + it, log.step,
                                         prefix=prefix, record=record))
    return out


def _check(game, st, cfg: TrainConfig, device, it: int, log: RunLogger, record: dict,
           say) -> dict[str, float]:
    """The final checks of the network after iteration ``it`` (``record``: the planner as
    trained), each verdict told to ``say``; their verdict becomes ``st.checked``. Returns
    their scalars."""
    out = final_checks(game, st.model, cfg, device, cfg.trainer.seed + it, log.step, record,
                       say)
    st.checked = verdict(out)
    return out


def verdict(checks: dict[str, float]) -> dict:
    """The planner settings the checks' scalars (`final_checks`) decide: ``value_mix``
    where the value check ran (the values earn their place, or not), ``c_puct`` where
    the root check ran (the priors lead the root, or UCB does)."""
    keys = {"value_mix": "value_check/value_mix", "c_puct": "root_check/c_puct"}
    return {k: float(checks[s]) for k, s in keys.items() if s in checks}


def as_checked(sp: SelfPlayConfig, checked: dict, take: tuple[str, ...]) -> SelfPlayConfig:
    """The self-play of ``sp`` with the planner teacher as the last generation check left
    it: of ``checked`` (`verdict`'s settings), those named in ``take``
    (`GENERATION_CHECKS`): its root's ``c_puct``, its ``value_mix``."""
    got = {k: float(v) for k, v in checked.items() if k in take}
    if not got:
        return sp
    return dataclasses.replace(
        sp, teacher_value_mix=got.get("value_mix", sp.teacher_value_mix),
        puct=dataclasses.replace(sp.puct, c_puct=got.get("c_puct", sp.puct.c_puct)))


def _ladder(cfg: TrainConfig, run_dir: Path, device, log: RunLogger) -> None:
    """The strength ladder over the run's generations so far (only the tables the new
    one adds are played): ratings in ladder/ladder.json, tb/ladder and ladder.png.

    Each new generation meets only its predecessor and ``trainer.ladder_baselines``
    (``older=0``): two tables a generation keep the step a small share of a short
    run; ``isz-ladder RUN_DIR`` afterwards adds the farther rungs."""
    from isz.evaluation.ladder import ladder_step

    t = cfg.trainer
    start = time.perf_counter()
    ladder = ladder_step(run_dir, cfg, device, deals=t.ladder_deals,
                         time_per_move=t.ladder_time, step=log.step, checkpoints=("gen",),
                         baselines=tuple(t.ladder_baselines), older=0)
    log.say(ladder_line(ladder, time.perf_counter() - start))


def belief_share_line(cfg: TrainConfig, game, share: float) -> str:
    """The note of a run whose self-play is mostly drawing worlds: which belief, and
    where the time can be won back."""
    from isz.belief.registry import resolve_belief

    name = resolve_belief(cfg.belief.name, game, network=belief_policy(cfg.belief) ==
                          "network")
    return (f"note: drawing worlds took {share:.0%} of self-play's time (belief {name!r} on "
            f"{game.name!r}): the sampler sets this run's speed; for a game of your own, a "
            "faster redeterminize (docs/adding_a_game.md, step 5) speeds it most")


def ladder_line(ladder: dict, seconds: float) -> str:
    """One line for the log: each rung's rating and SE against the anchor."""
    rungs = ", ".join(f"{p['name']} {p['rating']:+.1f} ± {p['se']:.1f}"
                      for p in ladder["players"] if p["name"] != ladder["anchor"])
    return (f"ladder (Elo, {ladder['anchor']} = 0): {rungs} "
            f"[{seconds:.0f} s]")


