"""A strength ladder of a training run: its checkpoints against each other and
against rollout baselines at equal time per move, rated with standard errors.

    isz-ladder runs/oh_hell                       # 0.02 s a move, 100 deals a table
    python scripts/ladder.py runs/tricks --time 0.05 --deals 300 --workers 2

`run_ladder` finds the run's checkpoints (`isz.evaluation.ladder_players`),
plays the tables of `isz.evaluation.ladder_schedule` (each checkpoint against its
predecessor, a few older checkpoints and the baselines ``so_ismcts`` and ``pimc``
with the knobs the run's evaluation gave them) through `play_match`, each deal
once per seat rotation, every searching agent with the same ``time_budget`` and
no iteration cap; fits Elo ratings anchored at ``so_ismcts`` = 0 with bootstrap
SEs (`isz.evaluation.ladder_fit`); and writes ``<run_dir>/ladder/ladder.json``,
the TensorBoard scalars ``ladder/*`` under ``<run_dir>/tb/ladder`` and
``<run_dir>/ladder/ladder.png`` (`isz.evaluation.ladder_report`). Every table's
deals are journalled under ``<run_dir>/ladder/tables/`` as they finish: running
it again plays only what is missing. `ladder_step` is the same for a training
loop, after it writes a checkpoint.

Wall-clock budgets depend on the machine and its load: keep ``workers`` at or
below the free cores, and give ``iterations`` instead of a time for results that
repeat exactly.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from isz.evaluation import ladder_players as lp
from isz.evaluation.ladder_fit import TableGames, connected, fit
from isz.evaluation.ladder_games import old_tables, play_table
from isz.evaluation.ladder_report import draw_png, summary, write_tensorboard
from isz.evaluation.ladder_schedule import SEP, tables
from isz.evaluation.spec import PLANNER, MatchSpec, SeatSpec, build_game
from isz.fs import write_json_atomic
from isz.progress import Progress
from isz.types import IszError, check_int

BASELINES = ("so_ismcts", "pimc")
Step = Callable[[str, int, str], Progress]


@dataclass(frozen=True)
class LadderSettings:
    """How a ladder plays and rates.

    time_per_move: seconds a decision for every agent that searches (its
        ``time_budget``, no iteration cap); None: ``iterations`` instead.
    iterations: simulations a decision for every searching agent (deterministic).
    deals: deals a table, each played once per seat rotation.
    seed: the deals' seed (every table plays the same deals).
    baselines: rollout agents on the ladder; ``anchor`` (default ``so_ismcts``,
        else the first) is rated 0.
    older: checkpoints beyond the predecessor each one meets (2, 4, 8 back).
    bootstrap: resamples of the deals behind each SE.
    knobs: baseline -> extra knobs; None: the run's recorded ``trainer.eval_knobs``.
    device: where the checkpoints' planners run their network.
    checkpoints: which files are players: ``gen`` (gen-*.pt), ``iter`` (iter-*.pt),
        ``last`` (last.pt).
    """

    time_per_move: float | None = 0.02
    iterations: int | None = None
    deals: int = 100
    seed: int = 0
    baselines: tuple[str, ...] = BASELINES
    anchor: str | None = None
    older: int = 2
    bootstrap: int = 200
    knobs: dict[str, dict] | None = field(default=None, compare=False)
    device: str = "cpu"
    checkpoints: tuple[str, ...] = lp.KINDS

    def check(self) -> None:
        """IszError naming the first bad value."""
        from isz.agents import agent_names

        if (self.time_per_move is None) == (self.iterations is None):
            raise IszError("give the ladder's budget as time_per_move or iterations (one of "
                           f"the two), got {self.time_per_move!r} and {self.iterations!r}")
        if self.time_per_move is not None and not (
                isinstance(self.time_per_move, (int, float)) and self.time_per_move > 0):
            raise IszError(f"time_per_move must be a number of seconds > 0, "
                           f"got {self.time_per_move!r}")
        if self.iterations is not None:
            check_int("iterations", self.iterations, lo=1)
        check_int("deals", self.deals, lo=1)
        check_int("seed", self.seed, lo=0)
        check_int("older", self.older, lo=0)
        check_int("bootstrap", self.bootstrap, lo=2)
        if not self.baselines:
            raise IszError("a ladder needs at least one baseline (its anchor)")
        for b in self.baselines:
            if b not in agent_names() or b == PLANNER:
                raise IszError(f"unknown baseline {b!r}; allowed: {', '.join(agent_names())}")
        bad = [k for k in self.checkpoints if k not in lp.KINDS]
        if bad or not self.checkpoints:
            raise IszError(f"checkpoints {', '.join(self.checkpoints) or '(none)'}: give "
                           f"some of {', '.join(lp.KINDS)}")
        if self.anchor is not None and self.anchor not in self.baselines:
            raise IszError(f"anchor {self.anchor!r} is not one of the baselines "
                           f"{', '.join(self.baselines)}")

    @property
    def anchor_name(self) -> str:
        return self.anchor or ("so_ismcts" if "so_ismcts" in self.baselines
                               else self.baselines[0])

    def budget(self, agent: str) -> dict:
        """The search budget knobs of ``agent`` (``planner`` or a registered agent)."""
        from isz.agents import agent_knobs

        knobs = None if agent == PLANNER else agent_knobs(agent)
        if self.time_per_move is not None:
            if knobs is None or "time_budget" in knobs:
                return {"time_budget": float(self.time_per_move), "iterations": None}
            return {}
        return {"iterations": int(self.iterations)} if knobs is None or "iterations" in knobs \
            else {}


def _seats(s: LadderSettings, current: list[lp.Checkpoint],
           knobs: dict[str, dict]) -> dict[str, SeatSpec]:
    """Each playable player's `SeatSpec`: baselines by name, checkpoints as planners."""
    seats = {b: SeatSpec(b, {**knobs.get(b, {}), **s.budget(b)}, label=b) for b in s.baselines}
    for c in current:
        seats[c.name] = SeatSpec(PLANNER, {**s.budget(PLANNER), "device": s.device}, c.file,
                                 label=c.name)
    return seats


def _norm(x):
    return json.loads(json.dumps(x, default=str))


def _keeper(spec0: dict, seats: dict[str, SeatSpec], known: dict[str, lp.Checkpoint],
            planner_knobs: dict) -> Callable[[dict], bool]:
    """Whether a journal's settings are this ladder's: same game and seed, baselines
    with today's knobs, checkpoints (present or removed since) with their content."""
    def keep(settings: dict) -> bool:
        if any(settings.get(k) != spec0[k] for k in ("version", "game", "game_params",
                                                     "game_module", "seed")):
            return False
        for seat in settings.get("seats") or []:
            label, c = seat.get("label"), known.get(seat.get("label"))
            if c is not None:
                ok = seat.get("agent") == PLANNER and seat.get("checkpoint_sha256") == c.sha256 \
                    and seat.get("knobs") == planner_knobs
            else:
                b = seats.get(label)
                ok = b is not None and b.agent != PLANNER and seat.get("agent") == b.agent \
                    and seat.get("knobs") == _norm(b.knobs)
            if not ok:
                return False
        return True
    return keep


def run_ladder(run_dir: str | Path, settings: LadderSettings | None = None, *,
               backend=None, step: Step | None = None) -> dict:
    """Play what is missing of ``run_dir``'s ladder, fit the ratings and write them
    (module docstring); returns the ``ladder.json`` payload.

    backend: where deals are played (`play_match`; default: this process).
    Sets torch to one intra-op thread (`torch.set_num_threads`).
    step: ``step(desc, total, unit)`` -> a `Progress` per table (default: none shown).
    """
    import torch

    s = settings or LadderSettings()
    s.check()
    # a planner's network sees one position at a time: intra-op threads only spin (on a
    # loaded machine ~100x slower a forward), as in training (trainer.torch_threads)
    torch.set_num_threads(1)
    run_dir = Path(run_dir)
    folder = run_dir / "ladder"
    current, known = lp.merge_known(folder, lp.find_checkpoints(run_dir, s.checkpoints))
    known = {c.name: c for c in known if c.kind in s.checkpoints}
    knobs, source = (s.knobs, "given") if s.knobs is not None else \
        (lp.recorded_eval_knobs(run_dir), "the run's trainer.eval_knobs")
    if knobs is None:
        knobs, source = {}, "none (no recorded configuration in tb/)"
    name, params, module = lp.run_game(run_dir, current[-1])
    game = build_game(MatchSpec(name, (), 1, s.seed, params, module))
    if game.num_players < 2:
        raise IszError(f"{game.name} has one seat: a ladder needs a game of 2 or more")
    seats = _seats(s, current, knobs)
    step = step or (lambda desc, total, unit: Progress(desc, total, unit, enabled=False))
    played = []
    for table in tables([c.name for c in current], list(s.baselines), game.num_players,
                        s.older):
        spec = MatchSpec(name, tuple(seats[p] for p in table), s.deals, s.seed, params, module)
        with step(SEP.join(table), s.deals, "deals") as bar:
            played.append(play_table(spec, folder / "tables", backend, bar.update))
    spec0 = MatchSpec(name, (), 1, s.seed, params, module).settings({})
    keep = _keeper(spec0, seats, known, _norm(seats[current[-1].name].knobs))
    games = played + old_tables(folder / "tables", keep, game, s.deals, s.seed,
                                skip={t.journal for t in played})
    games.sort(key=lambda t: t.journal.name)  # the fit's bootstrap draws in a fixed order
    data = [TableGames(t.players, t.scores) for t in games]
    label = game.preset or game.spec["name"]  # "oh_hell", not "tricks (oh_hell)"
    head = {"run_dir": str(run_dir), "game": {**game.spec, "label": label},
            "budget": {"time_per_move": s.time_per_move, "iterations": s.iterations},
            "deals": s.deals, "seed": s.seed, "seats": game.num_players,
            "baseline_knobs": {"values": knobs, "source": source}}
    ladder = summary(head, fit(data, s.anchor_name, s.bootstrap, s.seed),
                     {b: seats[b].knobs for b in s.baselines}, list(known.values()), games,
                     connected(data))
    write_json_atomic(folder / "ladder.json", ladder)
    write_tensorboard(run_dir / "tb", ladder)
    draw_png(folder / "ladder.png", ladder)
    return ladder


def ladder_step(run_dir: str | Path, cfg, device="cpu", *, deals: int = 100,
                time_per_move: float = 0.02, backend=None, step: Step | None = None,
                **settings) -> dict:
    """The ladder as a step of training (after it writes a checkpoint): the run's own
    evaluation knobs (``cfg.trainer.eval_knobs``) and seed, and its evaluation
    workers (`isz.training.evaluation.eval_backend` for the learner's ``device``:
    forked processes, one process on CUDA, or Ray workers when the run has actors)
    unless ``backend`` is given; plays only the tables new checkpoints add.
    ``settings``: other `LadderSettings` fields."""
    from omegaconf import OmegaConf

    from isz.training.evaluation import eval_backend

    knobs = cfg.trainer.eval_knobs or {}
    if OmegaConf.is_config(knobs):  # a hydra config rather than the TrainConfig object
        knobs = OmegaConf.to_container(knobs, resolve=True)
    knobs = {str(k): dict(v) for k, v in knobs.items()}
    own = backend is None
    if own:
        backend, settings["device"] = eval_backend(cfg, device)
    s = LadderSettings(time_per_move=time_per_move, deals=deals, seed=cfg.trainer.seed,
                       knobs=knobs, **settings)
    try:
        return run_ladder(run_dir, s, backend=backend, step=step)
    finally:
        if own:
            backend.close()


EPILOG = """\
Writes RUN_DIR/ladder/ladder.json: "players" (each baseline and checkpoint: rating,
se, comparisons, decisions, seconds_per_move, simulations_per_move; checkpoints also
checkpoint_kind (gen, iter, last), iteration, generation, hours, file, sha256, and
planner: the agent and settings it records and plays with, e.g. its value_mix),
"pairings" (each table: players, deals, scores, score_se, paired differences with
SEs, each seat's utility in the game's unit with its SE, seconds and simulations per
move of each seat), "anchor", "rating" (scale and method), "budget", "deals", "seed",
"baseline_knobs"; RUN_DIR/ladder/ladder.png; TensorBoard scalars ladder/* under
RUN_DIR/tb/ladder. Every table's deals are journalled in RUN_DIR/ladder/tables/: the
same command again plays only what is missing.
"""


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="isz-ladder", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Rate a training run's checkpoints against each other and against "
                    "rollout baselines at equal time per move.")
    ap.add_argument("run_dir", metavar="RUN_DIR", help="a training run folder")
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--time", type=float, default=None, metavar="S",
                        help="seconds a move for every searching agent (default 0.02)")
    budget.add_argument("--iterations", type=int, default=None, metavar="N",
                        help="simulations a move instead of a time (repeatable results)")
    ap.add_argument("--deals", type=int, default=100, help="deals a table (default 100)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--baselines", default=",".join(BASELINES),
                    help="comma-separated rollout agents (default so_ismcts,pimc)")
    ap.add_argument("--anchor", default=None, help="the baseline rated 0 (default so_ismcts)")
    ap.add_argument("--checkpoints", default=",".join(lp.KINDS),
                    help="which files are players: gen (gen-*.pt), iter (iter-*.pt), last "
                         "(last.pt); default all three")
    ap.add_argument("--older", type=int, default=2,
                    help="older checkpoints each one meets beyond its predecessor")
    ap.add_argument("--bootstrap", type=int, default=200, help="resamples behind each SE")
    ap.add_argument("--knobs", default=None, metavar="JSON",
                    help='baseline knobs, e.g. \'{"so_ismcts": {"belief": "voids"}}\' '
                         "(default: the run's recorded trainer.eval_knobs)")
    ap.add_argument("--workers", type=int, default=None,
                    help="processes (or Ray workers) playing the deals (default 1)")
    ap.add_argument("--backend", choices=("local", "ray"), default="local")
    ap.add_argument("--ray-address", default=None, help="backend ray: auto or HOST:PORT")
    ap.add_argument("--quiet", action="store_true", help="no progress bars")
    return ap


def _names(text: str) -> tuple[str, ...]:
    return tuple(b.strip() for b in text.split(",") if b.strip())


def _knobs(text: str | None) -> dict | None:
    if text is None:
        return None
    try:
        knobs = json.loads(text)
    except ValueError as e:
        raise IszError(f"--knobs {text!r} is not JSON ({e})") from None
    if not isinstance(knobs, dict) or not all(isinstance(v, dict) for v in knobs.values()):
        raise IszError(f"--knobs {text!r}: give a JSON object of agent -> object of knobs")
    return knobs


def print_ladder(ladder: dict) -> None:
    """The ratings as a text table."""
    print(f"{'player':<12} {'iter':>6} {'hours':>7} {'rating':>8} {'±SE':>6} "
          f"{'sims/move':>10}")
    for p in ladder["players"]:
        hours = p.get("hours")
        print(f"{p['name']:<12} {p.get('iteration', ''):>6} "
              f"{'' if hours is None else f'{hours:.2f}':>7} {p['rating']:8.1f} "
              f"{p['se']:6.1f} {p.get('simulations_per_move', math.nan):10.1f}")


def main(argv: list[str] | None = None) -> int:
    """``isz-ladder RUN_DIR [options]`` (see ``--help``); exit status 2 with one
    ``error: ...`` line on bad input."""
    from isz.cli import one_line_errors
    from isz.evaluation.arena import make_backend

    a = _parser().parse_args(argv)
    with one_line_errors():
        s = LadderSettings(
            time_per_move=0.02 if a.time is None and a.iterations is None else a.time,
            iterations=a.iterations, deals=a.deals, seed=a.seed,
            baselines=_names(a.baselines), anchor=a.anchor, older=a.older,
            bootstrap=a.bootstrap, knobs=_knobs(a.knobs), checkpoints=_names(a.checkpoints))
        s.check()
        if not Path(a.run_dir).is_dir():
            raise IszError(f"RUN_DIR {a.run_dir!r} is not a folder (give a training run "
                           "folder)")
        ray = None
        if a.backend == "ray":
            from isz.training.config import RayCfg

            ray = RayCfg(address=a.ray_address)
        with make_backend(a.backend, a.workers, ray) as backend:
            ladder = run_ladder(a.run_dir, s, backend=backend,
                                step=lambda d, t, u: Progress(d, t, u, enabled=not a.quiet))
    print_ladder(ladder)
    out = Path(a.run_dir) / "ladder"
    print(f"played {ladder['played_deals']} new deal(s); wrote {out / 'ladder.json'}, "
          f"{out / 'ladder.png'} and TensorBoard scalars ladder/* in "
          f"{Path(a.run_dir) / 'tb' / 'ladder'}")
    return 0
