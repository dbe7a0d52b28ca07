"""Evaluation of the network during training: arena matches and exploitability.

The trained planner (the agent the run records, `planner_knobs`, with the current
network, no root noise, most-visited move) plays each opponent at the same simulation
count; for any game with at most ``trainer.exploitability_max_histories`` histories the
exact exploitability of its policy (and of the raw network) is computed too.

The matches go through `isz.evaluation.play_match`, like `scripts/evaluate.py`'s:
the current weights are written to a temporary checkpoint that the workers
load. Without actors they are ``trainer.eval_workers`` processes of this
machine (this process alone when the learner is on CUDA: forked workers
cannot use CUDA the parent initialised); with ``trainer.actors >= 1`` they are
``trainer.eval_workers`` Ray workers on the run's cluster, asking Ray for no
CPU of their own (the self-play actors are idle while the learner evaluates).
Each matchup's finished deals are journalled under ``<run_dir>/eval/``, so a
run killed mid-evaluation and resumed with the same weights (``trainer.actors=0``
replays them exactly) plays only the missing deals.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import torch

from isz.agents.network import NetworkEvaluator
from isz.evaluation import MatchSpec, SeatSpec, journal_for, make_backend, play_match
from isz.evaluation.exploitability import agent_policy, exploitability, fits, infostates
from isz.evaluation.spec import PLANNER
from isz.games.base import Game
from isz.nn.checkpoint import save_checkpoint
from isz.nn.model import PolicyValueNet
from isz.progress import Progress
from isz.search.evaluator import evaluator_policy
from isz.settings.planner_record import planner_record


def planner_knobs(cfg, final: str = "most_visits") -> dict:
    """The planner as the run ``cfg`` evaluates it: ``{"agent": ..., **its settings}``
    (`isz.settings.planner_record.planner_record`), also stored in every checkpoint, so
    `isz.load_planner` plays as trained by default."""
    return planner_record(cfg, final)


def planner(game: Game, model: PolicyValueNet, cfg, device, final: str = "most_visits",
            record: dict | None = None):
    """The network-guided planner as it plays in evaluation: the agent the run's
    planner record names (``record``, default `planner_knobs`), with its settings and
    the move selection ``final``."""
    from isz.agents.planner import PLANNERS

    # the record's settings (a fitted playout, a value mix), the run's rule for ``final``
    knobs = {**planner_knobs(cfg, final),
             **{k: v for k, v in (record or {}).items() if k != "final"}}
    return PLANNERS[knobs.pop("agent")](game, evaluator=NetworkEvaluator(model, device),
                                        **knobs)


def evaluate(game: Game, model: PolicyValueNet, cfg, device, deals: int, seed: int,
             step: Callable[[str, int, str], Progress] | None = None,
             record: dict | None = None) -> dict[str, float]:
    """Scalars ``eval/score_vs_<opp>``, ``eval/se_vs_<opp>`` (win share), ``eval/utility_vs_<opp>``,
    ``eval/utility_se_vs_<opp>`` (the game's returns a game) and exploitability.

    ``step(desc, total, unit)``: a `Progress` per matchup and exploitability;
    ``record``: the planner the matches play (default `planner_knobs`; the loop's adds
    its fitted playout)."""
    step = step or quiet_step
    out: dict[str, float] = {}
    if cfg.trainer.eval_opponents:
        out.update(_matches(game, model, cfg, device, deals, seed, step,
                            record or planner_knobs(cfg)))
    out.update(exploitability_of(game, model, cfg, device, seed, step, record=record))
    return out


def eval_backend(cfg, device):
    """Where evaluation deals are played, and the planner's device there."""
    t = cfg.trainer
    if t.actors:  # the run's Ray is up: the lazy import finds it
        from isz.distributed import RayMatches

        return RayMatches(cfg.ray, workers=t.eval_workers, cpus_per_worker=0), "cpu"
    if torch.device(device).type == "cpu":
        return make_backend("local", t.eval_workers), "cpu"
    return make_backend("local", 1), str(device)


def eval_spec(cfg, players: int, opp: str, checkpoint: str, device: str, deals: int,
              seed: int, record: dict | None = None) -> MatchSpec:
    """The planner (``checkpoint``'s network; ``record``, default `planner_knobs`) in
    seat 0 against ``opp`` in the others."""
    record = record or planner_knobs(cfg)
    # the opponents search as long as the planner does
    knobs = {"iterations": record["iterations"]} if opp != "random" else {}
    other = SeatSpec(opp, {**knobs, **cfg.trainer.eval_knobs.get(opp, {})})
    me = SeatSpec(PLANNER, {**record, "device": device}, checkpoint)
    return seat0_spec(cfg, players, me, other, deals, seed)


def seat0_spec(cfg, players: int, me: SeatSpec, other: SeatSpec, deals: int,
               seed: int) -> MatchSpec:
    """A match of the run's game (``cfg.game``: name, params, module): ``me`` in seat 0,
    ``other`` in the other ``players - 1`` seats."""
    g = cfg.game
    return MatchSpec(g.name, (me, *[other] * (players - 1)), deals, seed, dict(g.params),
                     g.module)


def _matches(game, model, cfg, device, deals, seed, step, record) -> dict[str, float]:
    out: dict[str, float] = {}
    folder = Path(cfg.experiment.run_dir) / "eval"
    backend, where = eval_backend(cfg, device)
    with tempfile.TemporaryDirectory(prefix="isz-eval-") as tmp, backend:
        ckpt = planner_file(Path(tmp), game, model, record)
        specs = {opp: eval_spec(cfg, game.num_players, opp, ckpt, where, deals, seed, record)
                 for opp in cfg.trainer.eval_opponents}
        keys = {opp: spec.key() for opp, spec in specs.items()}
        journals = _journals(folder, keys)
        for opp, spec in specs.items():
            with step(f"eval vs {opp}", deals, "deals") as bar:
                res = play_match(spec, backend, journal=journals.get(opp),
                                 progress=bar.update)
            me = res.agents[0]
            out[f"eval/score_vs_{opp}"] = me.score
            out[f"eval/se_vs_{opp}"] = me.score_se
            # the game's own returns a game (chips on poker), with their SE over deals
            out[f"eval/utility_vs_{opp}"] = me.utility
            out[f"eval/utility_se_vs_{opp}"] = me.utility_se
    return out


def quiet_step(desc: str, total: int, unit: str) -> Progress:
    """The default ``step``: a `Progress` that shows nothing."""
    return Progress(desc, total, unit, enabled=False)


def planner_file(folder: Path, game: Game, model: PolicyValueNet, record: dict) -> str:
    """``model`` saved in ``folder`` as a checkpoint whose planner is ``record``, for the
    match's seats to load (in this process, forked workers or Ray workers)."""
    return str(save_checkpoint(folder / "planner.pt", model=model, game=game,
                               model_cfg=model.cfg.to_dict(), extra={"planner": record}))


def _journals(folder: Path, keys: dict[str, str]) -> dict[str, Path]:
    """Each matchup's journal in ``folder`` (when the run folder exists); journals of
    other matches (an earlier evaluation's weights) are removed."""
    if not folder.parent.is_dir():
        return {}
    folder.mkdir(exist_ok=True)
    paths = {opp: journal_for(folder / f"vs_{opp}.json", key) for opp, key in keys.items()}
    for old in folder.glob("*.jsonl"):
        if old not in paths.values():
            old.unlink(missing_ok=True)
    return paths


def exploitability_of(game: Game, model: PolicyValueNet, cfg, device, seed: int,
                      step: Callable[[str, int, str], Progress] | None = None,
                      prefix: str = "eval/", record: dict | None = None) -> dict[str, float]:
    """``<prefix>exploitability`` (the planner ``record`` — default `planner_knobs` —
    guided by ``model``, planner seed ``seed``) and ``<prefix>exploitability_net`` (its
    policy head alone), for a game small enough
    (``trainer.exploitability_max_histories``); {} otherwise."""
    step = step or quiet_step
    cap = cfg.trainer.exploitability_max_histories
    if not (cap and fits(game, cap)):
        return {}
    # the planner's mixed policy: its root visit distribution
    agent = planner(game, model, cfg, device, final="visit_distribution", record=record)
    desc = "exploitability" + ("" if prefix == "eval/" else f" ({prefix})")
    with step(desc, infostates(game, cap), "infostates") as bar:
        policy = agent_policy(agent, seed)
        out = {f"{prefix}exploitability": exploitability(game, policy, cap,
                                                         progress=bar.update).exploitability}
    # the raw network (its policy head alone), to tell learning from search
    raw = evaluator_policy(agent.evaluator)
    out[f"{prefix}exploitability_net"] = exploitability(game, raw).exploitability
    return out
