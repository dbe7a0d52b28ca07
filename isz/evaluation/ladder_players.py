"""The players of a run's ladder: its checkpoints and the rollout baselines.

A training run folder keeps ``checkpoints/iter-<n>.pt`` (the last few numbered
checkpoints), ``checkpoints/last.pt`` and, where training writes them, generation
snapshots ``checkpoints/gen-<g>.pt``. Each distinct file (by content: ``last.pt``
is usually a copy of the newest ``iter-<n>.pt``) is one player, named ``it<n>``
or ``gen<g>``, with its iteration and the training hours it had cost when saved
(the checkpoint's ``extra["seconds"]["elapsed"]``, or the run's
``metrics.jsonl`` line of that iteration).

Checkpoints that training has since removed stay in the ladder: their metadata
is kept in ``<run_dir>/ladder/players.json`` and their games in the pairing
journals (`isz.evaluation.ladder_games`).

The baselines' knobs come from the run's evaluation settings
(``trainer.eval_knobs``, e.g. ``{so_ismcts: {belief: voids}}``), read back from
the hyperparameters text training writes to TensorBoard (`recorded_config`).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from isz.evaluation.spec import file_digest
from isz.fs import write_json_atomic
from isz.types import IszError

_NUMBERED = re.compile(r"^(iter|gen)-0*(\d+)\.pt$")
PLAYERS_FILE = "players.json"
KINDS = ("gen", "iter", "last")  # checkpoint files a ladder can take


@dataclass(frozen=True)
class Checkpoint:
    """One checkpoint player.

    name: ``it<n>`` or ``gen<g>``; kind: the file it came from, ``gen``
    (gen-*.pt), ``iter`` (iter-*.pt) or ``last`` (last.pt); file: its path (None
    once training removed it); sha256: of its bytes; iteration: training
    iterations done when it was saved; generation: ``g`` of ``gen-<g>.pt`` (else
    None); hours: training wall hours when it was saved (None if the run did not
    record them); planner: the planner it records and plays as (`planner_record`:
    agent and settings, e.g. the ``value_mix`` its run's value check chose; None for
    a player an older players file remembers).
    """

    name: str
    kind: str
    file: str | None
    sha256: str
    iteration: int
    generation: int | None
    hours: float | None
    planner: dict | None = None


def find_checkpoints(run_dir: Path, kinds: tuple[str, ...] = KINDS) -> list[Checkpoint]:
    """Every distinct checkpoint of ``run_dir`` of the ``kinds`` (``gen``: gen-*.pt,
    ``iter``: iter-*.pt, ``last``: last.pt), sorted by iteration, generations first
    among equals; IszError if there is none."""
    from isz.nn.checkpoint import load_checkpoint, planner_record

    folder = Path(run_dir) / "checkpoints"
    files = sorted(folder.glob("gen-*.pt")) if "gen" in kinds else []
    files += sorted(folder.glob("iter-*.pt")) if "iter" in kinds else []
    files += [folder / "last.pt"] if "last" in kinds and (folder / "last.pt").is_file() else []
    if not files:
        wanted = ", ".join({"gen": "gen-*.pt", "iter": "iter-*.pt", "last": "last.pt"}[k]
                           for k in kinds)
        raise IszError(f"{str(folder)!r} holds no checkpoint ({wanted}): give a training "
                       "run folder")
    hours_at = _metrics_hours(Path(run_dir))
    seen: dict[str, Checkpoint] = {}
    names: set[str] = set()
    for f in files:
        sha = file_digest(f)
        if sha in seen:  # last.pt as a copy of iter-<n>.pt: one player
            continue
        ckpt = load_checkpoint(f)
        it = int(ckpt["counters"].get("iteration", 0))
        kind = f.name.split("-")[0] if f.name != "last.pt" else "last"
        m = _NUMBERED.match(f.name)
        gen = int(m.group(2)) if m and kind == "gen" else None
        name = f"gen{gen}" if gen is not None else f"it{it}"
        if name in names:  # e.g. a last.pt of an iteration whose iter-<n>.pt differs
            name = f.stem.replace("-", "")
        names.add(name)
        seconds = ((ckpt.get("extra") or {}).get("seconds") or {}).get("elapsed")
        hours = float(seconds) / 3600 if seconds is not None else hours_at.get(it)
        seen[sha] = Checkpoint(name, kind, str(f), sha, it, gen, hours, planner_record(ckpt))
    return sorted(seen.values(), key=lambda c: (c.iteration, c.generation is None, c.name))


def _metrics_hours(run_dir: Path) -> dict[int, float]:
    """iteration -> training hours, from ``metrics.jsonl`` (its ``elapsed_s``)."""
    from isz.training.logging import METRICS, read_metrics

    path = run_dir / METRICS
    if not path.is_file():
        return {}
    return {r["iteration"]: float(r["elapsed_s"]) / 3600
            for r in read_metrics(path) if "elapsed_s" in r}


def merge_known(folder: Path, current: list[Checkpoint]) -> tuple[list[Checkpoint],
                                                                  list[Checkpoint]]:
    """``(current, known)``: the current checkpoints, each under the name
    ``folder/players.json`` first gave its content (so a later ``gen-<g>.pt`` copy of
    a rated ``iter-<n>.pt`` does not start it afresh), and those plus the remembered
    ones no longer on disk (file None), sorted; writes the merged list back."""
    path = folder / PLAYERS_FILE
    known: dict[str, Checkpoint] = {}
    if path.is_file():
        try:
            for row in json.loads(path.read_text())["checkpoints"]:
                known[row["name"]] = Checkpoint(**{**row, "file": None})
        except (ValueError, KeyError, TypeError) as e:
            raise IszError(f"{str(path)!r} is not a ladder players file ({e}); move it "
                           "away to start the ladder's list afresh") from None
    by_sha = {c.sha256: c.name for c in known.values()}
    current = [replace(c, name=by_sha.get(c.sha256, c.name)) for c in current]
    known = {n: c for n, c in known.items() if c.sha256 not in {k.sha256 for k in current}}
    known.update({c.name: c for c in current})
    order = lambda c: (c.iteration, c.generation is None, c.name)  # noqa: E731
    out = sorted(known.values(), key=order)
    write_json_atomic(path, {"checkpoints": [asdict(c) for c in out]})
    return sorted(current, key=order), out


def run_game(run_dir: Path, newest: Checkpoint) -> tuple[str, dict, str | None]:
    """``(game name, params, module)`` of the run, as its newest checkpoint records."""
    from isz.nn.checkpoint import load_checkpoint

    ckpt = load_checkpoint(newest.file)
    return ckpt["game"]["name"], dict(ckpt["game"]["params"]), ckpt.get("game_module")


def recorded_config(run_dir: Path) -> dict | None:
    """The run's configuration as training recorded it (the ``hyperparameters``
    text in ``<run_dir>/tb``, written when a run starts: the latest event file's
    first one, so a continued run's), or None."""
    import yaml
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
    from tensorboard.util.tensor_util import make_ndarray

    text = None
    for f in sorted((Path(run_dir) / "tb").glob("events.out.tfevents.*")):
        try:
            text = next((make_ndarray(v.tensor).item().decode()
                         for event in EventFileLoader(str(f)).Load()
                         for v in event.summary.value
                         if v.tag == "hyperparameters/text_summary"), text)
        except Exception:  # noqa: BLE001 (a torn event file: use what was read)
            continue
    if text is None:
        return None
    try:
        return yaml.safe_load(text.strip().strip("`"))
    except yaml.YAMLError:
        return None


def recorded_eval_knobs(run_dir: Path) -> dict[str, dict] | None:
    """``trainer.eval_knobs`` of the run's recorded configuration (None: none found)."""
    cfg = recorded_config(run_dir)
    if not isinstance(cfg, dict):
        return None
    knobs = (cfg.get("trainer") or {}).get("eval_knobs")
    return {str(k): dict(v or {}) for k, v in knobs.items()} if isinstance(knobs, dict) else {}
