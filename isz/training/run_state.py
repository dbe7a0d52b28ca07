"""Everything a run needs to continue after a kill: saved atomically each iteration.

A run folder holds ``checkpoints/last.pt`` (network, optimizer, scheduler,
counters, RNG states, seconds spent, the mirror target's network magnet if the
run has one, the weight average of ``trainer.average_from`` if it has one, and the
names of its replay buffer's segment files), the segments
``checkpoints/buffer-<iteration>.npz`` it names (each the rows an iteration added,
`isz.training.buffer`), numbered checkpoints
``iter-<n>.pt`` (the last ``keep_last``), ``best.pt`` and, with an average,
``average.pt`` (the averaged network alone, written before ``last.pt``, loadable by
`isz.load_planner`); with ``trainer.average_policy_from``, ``average_policy.pt`` and the
reservoir ``reservoir-<iteration>.npz`` it learns from (`isz.training.average_policy`),
both before ``last.pt``, which names the reservoir; a finished run also
``results.json`` (its final evaluation, written before the last checkpoint). A segment is
written before the checkpoint that names it and segments it no longer names are removed
only after, so a kill at any moment leaves a consistent set: the run resumes with
nothing lost but the unfinished iteration.
"""

from __future__ import annotations

import copy
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from isz.fs import MB, remove_stale_temps, write_json_atomic
from isz.games.base import Game
from isz.nn.average import accumulate
from isz.nn.checkpoint import load_checkpoint, save_checkpoint
from isz.nn.model import ModelConfig, PolicyValueNet, build_model
from isz.training.average_policy import FILE as AVERAGE_POLICY_FILE
from isz.training.average_policy import AveragePolicy
from isz.training.buffer import ReplayBuffer
from isz.training.learner import make_optimizer


@dataclass
class RunState:
    """Model, optimizer, buffer, generator and counters of a training run."""

    model: PolicyValueNet
    optimizer: torch.optim.Optimizer
    scheduler: object
    buffer: ReplayBuffer
    rng: np.random.Generator
    counters: dict = field(default_factory=lambda: {"iteration": 0, "games": 0,
                                                   "positions": 0, "steps": 0})
    best_score: float = float("-inf")  # higher is better (see loop._best_key)
    resumed: bool = False
    magnet: PolicyValueNet | None = None  # search.magnet=network: the snapshot in use
    magnet_iteration: int = 0  # the iteration after which ``magnet`` was taken (0: init)
    average: PolicyValueNet | None = None  # trainer.average_from: the weights' running mean
    average_count: int = 0  # networks in ``average``
    average_policy: AveragePolicy | None = None  # trainer.average_policy_from (NFSP)
    # selfplay.playout_fit_games: the playout fitted at the last generation (F floats),
    # kept in the planner record of every checkpoint (resume reads it back from there)
    playout_weights: list | None = None
    # trainer.generation_checks: the last generation check's verdict (value_mix, c_puct),
    # which the teacher searches with and every later checkpoint records
    checked: dict = field(default_factory=dict)
    # wall seconds over the run's life (resumes included): everything, and self-play
    # plus learning alone (no evaluation), the x axis of exploitability vs work
    seconds: dict = field(default_factory=lambda: {"elapsed": 0.0, "work": 0.0})

    def snapshot_magnet(self, iteration: int) -> None:
        """The magnet becomes a frozen copy of the current network, as it stands after
        ``iteration`` (R-NaD's moving magnet)."""
        self.magnet = copy.deepcopy(self.model).eval().requires_grad_(False)
        self.magnet_iteration = int(iteration)

    def accumulate_average(self) -> None:
        """Fold the current network into the weight average (`isz.nn.average`)."""
        self.average_count += 1
        self.average = accumulate(self.average, self.model, self.average_count)


def _opt(model, tcfg):
    total = tcfg.iterations * tcfg.steps_per_iteration
    return make_optimizer(model, tcfg.lr, tcfg.weight_decay, total, tcfg.lr_schedule)


def fresh(game: Game, model_cfg: ModelConfig, tcfg, device) -> RunState:
    torch.manual_seed(tcfg.seed)
    model = build_model(game, model_cfg).to(device)
    opt, sched = _opt(model, tcfg)
    return RunState(model, opt, sched, ReplayBuffer(tcfg.buffer_size),
                    np.random.default_rng(tcfg.seed))


def resume(path: Path, game: Game, model_cfg: ModelConfig, tcfg, device,
           own: bool = True) -> RunState:
    """Load ``last.pt`` and the buffer it names (IszError for another game or a bad file).

    ``own``: the run's own folder, whose temp files of a write that a kill
    interrupted are removed first (the run resuming is its only writer);
    False: another run's ``last.pt`` (`trainer.continue_from`), only read."""
    if own:
        remove_stale_temps(path.parent)
    ckpt = load_checkpoint(path, game, map_location=device)
    model = build_model(game, ModelConfig.from_dict(ckpt["model_config"])).to(device)
    model.load_state_dict(ckpt["model"])
    opt, sched = _opt(model, tcfg)
    opt.load_state_dict(ckpt["optimizer"])
    extra = ckpt["extra"]
    sched.load_state_dict(json.loads(extra["scheduler"]))
    rng = np.random.default_rng()
    rng.bit_generator.state = json.loads(extra["rng"])
    torch.set_rng_state(extra["torch_rng"])
    buffer = _load_buffer(path.parent, extra)
    if not own:  # its files are the other run's: this run's first save writes the ring
        buffer.forget_files()
    st = RunState(model, opt, sched, buffer, rng, dict(ckpt["counters"]),
                  float(extra["best_score"]), resumed=True)
    st.seconds.update({k: float(v) for k, v in dict(extra.get("seconds") or {}).items()})
    st.playout_weights = (extra.get("planner") or {}).get("playout_weights")
    st.checked = dict(extra.get("checked") or {})
    if extra.get("magnet") is not None:
        magnet = build_model(game, ModelConfig.from_dict(ckpt["model_config"])).to(device)
        magnet.load_state_dict(extra["magnet"]["state"])
        st.magnet = magnet.eval().requires_grad_(False)
        st.magnet_iteration = int(extra["magnet"]["iteration"])
    if extra.get("average") is not None:
        average = build_model(game, ModelConfig.from_dict(ckpt["model_config"])).to(device)
        average.load_state_dict(extra["average"]["state"])
        st.average = average.eval().requires_grad_(False)
        st.average_count = int(extra["average"]["count"])
    if extra.get("average_policy") is not None:
        st.average_policy = AveragePolicy.restore(
            extra["average_policy"], game, ModelConfig.from_dict(ckpt["model_config"]), tcfg,
            device, path.parent)
    return st


def save(run_dir: Path, st: RunState, game: Game, model_cfg: ModelConfig, keep_every: int,
         keep_last: int, is_best: bool, planner: dict | None = None, *,
         generation: bool = False) -> Path:
    """Buffer, then ``last.pt`` naming it; numbered/best/generation copies; then prune
    old numbered checkpoints and buffers (generations ``gen-NNNNNN.pt`` stay).

    ``planner``: the run's planner knobs (`isz.load_planner` defaults); ``generation``:
    this iteration ends a generation (`isz.training.config.ends_generation`)."""
    ck = run_dir / "checkpoints"
    ck.mkdir(parents=True, exist_ok=True)
    it = st.counters["iteration"]
    buffer_files = st.buffer.save_segment(ck, f"buffer-{it:06d}.npz")
    extra = {"scheduler": json.dumps(st.scheduler.state_dict()),
             "rng": json.dumps(st.rng.bit_generator.state),
             "torch_rng": torch.get_rng_state(),
             "buffer": {"capacity": st.buffer.capacity, "files": buffer_files},
             "best_score": float(st.best_score), "planner": dict(planner or {}),
             "checked": dict(st.checked),
             "seconds": {k: float(v) for k, v in st.seconds.items()},
             "magnet": None if st.magnet is None else
             {"state": st.magnet.state_dict(), "iteration": int(st.magnet_iteration)},
             "average": None if st.average is None else
             {"state": st.average.state_dict(), "count": int(st.average_count)},
             "average_policy": None}
    reservoir = None
    if st.average_policy is not None:  # its reservoir and network before last.pt
        reservoir = f"reservoir-{it:06d}.npz"
        st.average_policy.reservoir.save(ck / reservoir)
        extra["average_policy"] = st.average_policy.state(reservoir)
        save_checkpoint(ck / AVERAGE_POLICY_FILE, model=st.average_policy.model, game=game,
                        model_cfg=model_cfg, counters=st.counters,
                        extra={"planner": dict(planner or {})})
    if st.average is not None:  # before last.pt: a kill in between re-runs the iteration
        save_checkpoint(ck / "average.pt", model=st.average, game=game, model_cfg=model_cfg,
                        counters={**st.counters, "averaged": int(st.average_count)},
                        extra={"planner": dict(planner or {})})
    last = save_checkpoint(ck / "last.pt", model=st.model, game=game, model_cfg=model_cfg,
                           optimizer=st.optimizer, counters=st.counters, extra=extra)
    if it % keep_every == 0:
        _copy_atomic(last, ck / f"iter-{it:06d}.pt")
    if generation:
        _copy_atomic(last, ck / f"gen-{it:06d}.pt")
    if is_best:
        _copy_atomic(last, ck / "best.pt")
    for old in sorted(ck.glob("iter-*.pt"))[:-keep_last]:
        old.unlink(missing_ok=True)
    for old in [*ck.glob("buffer-*.npz"), *ck.glob("reservoir-*.npz")]:
        if old.name not in (*buffer_files, reservoir):
            old.unlink(missing_ok=True)
    return last


def _load_buffer(folder: Path, extra: dict) -> ReplayBuffer:
    """The replay buffer ``last.pt``'s ``extra`` names: its segments, or the one file of a
    run saved before segments (``buffer_file``)."""
    if "buffer" in extra:
        return ReplayBuffer.load_segments(folder, int(extra["buffer"]["capacity"]),
                                          list(extra["buffer"]["files"]))
    buffer = ReplayBuffer.load(folder / extra["buffer_file"])
    buffer.forget_files()
    return buffer


def disk_need(st: RunState, game: Game, tcfg) -> int:
    """Bytes a run may still write: the replay buffer twice (its segments hold the ring
    and at most one iteration's rows more, the oldest removed only after a new one is
    written) and every kept checkpoint (weights and the two
    Adam moments), plus room for TensorBoard; a resumed run only adds temp copies."""
    row = 4 * game.tensor_size + 5 * game.num_actions + 4 * game.num_players + 8
    buffer = tcfg.buffer_size * row
    ckpt = 12 * sum(p.numel() for p in st.model.parameters())
    if tcfg.average_from:  # average.pt and the average inside last.pt
        ckpt += 8 * sum(p.numel() for p in st.model.parameters())
    if tcfg.average_policy_from:  # its reservoir, average_policy.pt, its state in last.pt
        buffer += tcfg.average_policy_buffer * row
        ckpt += 16 * sum(p.numel() for p in st.model.parameters())
    if st.resumed:
        return buffer + 2 * ckpt + 8 * MB
    return 2 * buffer + (tcfg.keep_last + 3) * ckpt + 8 * MB


def write_results(path: Path, st: RunState, scalars: dict[str, float]) -> Path:
    """The final evaluation of a run as JSON (atomic): counters, ``eval/`` and the final
    checks' ``value_check/`` and ``root_check/`` scalars."""
    evals = {k: v for k, v in scalars.items()
             if k.startswith(("eval/", "value_check/", "root_check/"))}
    return write_json_atomic(path, {"counters": dict(st.counters), "final": evals})


def read_results(path: Path) -> dict[str, float]:
    """The ``eval/`` scalars `write_results` stored ({} when there are none)."""
    try:
        return dict(json.loads(Path(path).read_text())["final"])
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _copy_atomic(src: Path, dst: Path) -> None:
    tmp = dst.with_name(f".{dst.name}.tmp")
    shutil.copyfile(src, tmp)
    tmp.replace(dst)
