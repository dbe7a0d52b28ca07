"""A ladder's tables on disk: one `play_match` journal per table, kept as its cache.

Each table's deals are journalled in ``<ladder>/tables/<table>.<key>.jsonl``
(``key``: `MatchSpec.key`, which covers the game, the seed, every seat's agent
and knobs, and the checkpoints' contents). The journal is never removed: it is
the record the ratings are fitted from, so running the ladder again plays only
what is missing (nothing, or the deals a larger ``deals`` adds), and a table
whose checkpoint training has since removed still counts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from isz.evaluation.arena import play_match
from isz.evaluation.journal import HEADER, DealJournal
from isz.evaluation.ladder_schedule import table_name
from isz.evaluation.play import DealOutcome
from isz.evaluation.result import MatchResult
from isz.evaluation.spec import MatchSpec, build_game
from isz.games.base import Game


@dataclass(frozen=True)
class Table:
    """A table's games as far as they are played.

    players: the player at each position (`MatchResult.agents` order).
    result: its `MatchResult` (``resumed``: deals read from the journal).
    scores: float64 ``[deals, rotations, positions]``, every game's scores.
    played: deals this call played (0: all from the journal).
    journal: the journal file.
    """

    players: tuple[str, ...]
    result: MatchResult
    scores: np.ndarray
    played: int
    journal: Path

    @property
    def name(self) -> str:
        return table_name(self.players)


def journal_path(folder: Path, spec: MatchSpec, key: str) -> Path:
    """Where the table of ``spec`` keeps its deals."""
    return folder / f"{table_name(tuple(s.name for s in spec.seats))}.{key}.jsonl"


def play_table(spec: MatchSpec, folder: Path, backend, progress=False) -> Table:
    """The table of ``spec``: its deals read from its journal, the missing ones played
    on ``backend`` (`play_match`) and journalled."""
    key = spec.key()
    path = journal_path(folder, spec, key)
    done = _read(path, key) if path.exists() else {}
    names = tuple(s.name for s in spec.seats)
    game = build_game(spec)
    if all(d in done for d in range(spec.deals)):
        outcomes = {d: done[d] for d in range(spec.deals)}
        return Table(names, result_of(game, names, outcomes, spec.seed), _scores(outcomes),
                     0, path)
    folder.mkdir(parents=True, exist_ok=True)
    result = play_match(spec, backend, journal=path, progress=progress)
    outcomes = {d: o for d, o in _read(path, key).items() if d < spec.deals}
    return Table(names, result, _scores(outcomes), spec.deals - result.resumed, path)


def _read(path: Path, key: str) -> dict[int, DealOutcome]:
    with DealJournal(path, key) as book:
        return dict(book.done)


def _scores(outcomes: dict[int, DealOutcome]) -> np.ndarray:
    return np.stack([outcomes[d].scores for d in sorted(outcomes)])


def result_of(game: Game, names: tuple[str, ...], outcomes: dict[int, DealOutcome],
              seed: int) -> MatchResult:
    """The `MatchResult` of journalled ``outcomes`` (no deal played: ``resumed`` all)."""
    rows = [outcomes[d] for d in sorted(outcomes)]
    stats = {k: np.stack([r.stats[k] for r in rows]) for k in rows[0].stats}
    return MatchResult.from_deals(
        game, list(names), np.stack([r.scores for r in rows]),
        np.stack([r.utilities for r in rows]), seed=seed, workers=0, wall_time_s=0.0,
        work=np.sum([r.work for r in rows], axis=0), stats=stats, resumed=len(rows),
        backend="journal")


def header(path: Path) -> dict | None:
    """The header of a journal (its ``key`` and ``settings``), or None."""
    try:
        with open(path, encoding="utf-8") as f:
            head = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    return head if isinstance(head, dict) and head.get(HEADER) == 1 else None


def old_tables(folder: Path, keep, game: Game, deals: int, seed: int,
               skip: set[Path] = frozenset()) -> list[Table]:
    """Tables journalled in ``folder`` earlier that ``keep(settings)`` accepts (e.g.
    those of checkpoints training has removed since), with their first ``deals``
    deals (fewer where fewer were played); the journals ``skip`` are left out."""
    out = []
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else ():
        head = None if path in skip else header(path)
        if head is None or not keep(head.get("settings") or {}):
            continue
        done = {d: o for d, o in _read(path, head["key"]).items() if d < deals}
        if not done:
            continue
        names = tuple(s["label"] for s in head["settings"]["seats"])
        out.append(Table(names, result_of(game, names, done, seed), _scores(done), 0, path))
    return out
