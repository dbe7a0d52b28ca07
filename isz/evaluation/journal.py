"""The journal of a match: every finished deal, written as it finishes.

A JSON-lines file: a header ``{"isz_match_journal": 1, "key": ..., "settings":
...}`` (`MatchSpec.key` and `MatchSpec.settings`), then one line per finished
deal with its `DealOutcome` arrays. A match started again with the same
settings reads the finished deals back and plays only the others; the
aggregate is the same as an uninterrupted match's, deal by deal (floats are
written with ``repr``, which reads back exactly).

Each line is flushed to the operating system as soon as it is written, so a
``kill -9`` or Ctrl-C loses nothing that finished; ``os.fsync`` (which also
survives a machine crash) runs at most every `SYNC_EVERY_S` seconds and on
close, so a match of thousands of millisecond deals is not slowed by it. A
line cut short by a crash mid-write is dropped when the journal is opened again.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from isz.evaluation.play import DealOutcome
from isz.fs import write_atomic
from isz.types import IszError

HEADER = "isz_match_journal"
SYNC_EVERY_S = 1.0


def journal_for(output: str | Path, key: str) -> Path:
    """The journal of the match with ``key`` whose result goes to ``output``
    (``results/x.json`` -> ``results/x.deals-<key>.jsonl``)."""
    output = Path(output)
    return output.with_name(f"{output.stem}.deals-{key}.jsonl")


@contextlib.contextmanager
def resumable(output: str | Path, key: str, resume: bool = True) -> Iterator[Path]:
    """``with resumable(output, spec.key()) as journal:`` the journal of that match
    next to ``output``, removed when the block ends without an error (the block
    saves the result first); after an error or a kill it stays for the next run.
    ``resume=False``: an old journal of the same match is removed first (start over)."""
    path = journal_for(output, key)
    if not resume:
        path.unlink(missing_ok=True)
    yield path
    path.unlink(missing_ok=True)


def outcome_to_json(deal: int, out: DealOutcome) -> str:
    return json.dumps({"deal": deal, "scores": out.scores.tolist(),
                       "utilities": out.utilities.tolist(), "work": out.work.tolist(),
                       "stats": {k: v.tolist() for k, v in out.stats.items()}})


def outcome_from_json(line: str) -> tuple[int, DealOutcome]:
    d = json.loads(line)
    arr = lambda x: np.asarray(x, dtype=np.float64)  # noqa: E731
    return int(d["deal"]), DealOutcome(arr(d["scores"]), arr(d["utilities"]), arr(d["work"]),
                                       {k: arr(v) for k, v in d["stats"].items()})


class DealJournal:
    """Open (or create) the journal at ``path`` for the match ``key``.

    ``done``: deal -> `DealOutcome` of the deals already in it. A journal written
    by another match (another key) is refused with an IszError, never reused.
    """

    def __init__(self, path: str | Path, key: str, settings: dict | None = None):
        self.path, self.key = Path(path), key
        self.done: dict[int, DealOutcome] = {}
        if self.path.exists():
            self._read()
        else:
            head = json.dumps({HEADER: 1, "key": key, "settings": settings or {}}) + "\n"
            write_atomic(self.path, lambda f: f.write(head))
        self.file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (closed by close)
        self.synced = time.monotonic()

    def _read(self) -> None:
        raw = self.path.read_bytes()
        parts = raw.splitlines(keepends=True)
        try:
            head = json.loads(parts[0]) if parts and parts[0].endswith(b"\n") else None
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get(HEADER) != 1:
            raise IszError(f"{str(self.path)!r} is not a match journal; move it away")
        if head.get("key") != self.key:
            raise IszError(f"match journal {str(self.path)!r} belongs to another match "
                           f"(key {head.get('key')!r}, this one {self.key!r}); move it away")
        good = len(parts[0])
        for part in parts[1:]:
            if not part.endswith(b"\n"):
                break  # cut short by a crash mid-write: dropped (that deal is played again)
            if part.strip():
                try:
                    deal, out = outcome_from_json(part.decode())
                except (ValueError, KeyError, TypeError):
                    break
                self.done.setdefault(deal, out)
            good += len(part)
        if good < len(raw):
            with open(self.path, "r+b") as f:
                f.truncate(good)

    def add(self, deal: int, out: DealOutcome) -> None:
        """Append one finished deal (flushed at once, fsynced every `SYNC_EVERY_S`)."""
        self.file.write(outcome_to_json(deal, out) + "\n")
        self.file.flush()
        self.done.setdefault(deal, out)
        if time.monotonic() - self.synced >= SYNC_EVERY_S:
            os.fsync(self.file.fileno())
            self.synced = time.monotonic()

    def close(self) -> None:
        if not self.file.closed:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()

    def __enter__(self) -> DealJournal:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
