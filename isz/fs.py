"""Files a run writes: checked before long work starts, written atomically.

`check_writable_dir` and `check_output_file` run before a training run or an
evaluation starts, so a folder that is a file, a read-only folder or a full
disk is reported in one line at once, not as a traceback after minutes of work.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

from isz.types import IszError

MB = 1 << 20


def _blocking_file(path: Path) -> Path | None:
    """The first existing non-folder among ``path`` and its ancestors, if any."""
    for p in (path, *path.parents):
        if p.exists():
            return None if p.is_dir() else p
    return None


def _probe(folder: Path) -> None:
    """Create ``folder`` if needed; write and remove a file in it (OSError if it cannot).

    Permission bits alone do not tell: a read-only mount refuses even root,
    and root may write where the bits say no."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, probe = tempfile.mkstemp(dir=folder, prefix=".isz-write-probe-")
    os.close(fd)
    os.unlink(probe)


def check_writable_dir(path: str | os.PathLike, what: str) -> Path:
    """Create folder ``path`` if needed and prove it writable; `IszError` naming ``what``."""
    path = Path(path)
    blocker = _blocking_file(path)
    if blocker is not None:
        where = "" if blocker == path else f" (inside {str(blocker)!r}, which is a file)"
        raise IszError(f"{what} {str(path)!r} is not a folder{where}; give a folder path")
    try:
        _probe(path)
    except OSError as e:
        raise IszError(f"{what} {str(path)!r} is not writable: {e.strerror or e}") from e
    return path


def check_output_file(path: str | os.PathLike, what: str) -> Path:
    """``path`` can be written as a file: not a folder, its folder creatable and writable."""
    path = Path(path)
    if path.is_dir():
        raise IszError(f"{what} {str(path)!r} is a folder; give a file path "
                       f"(e.g. {str(path / 'result.json')!r})")
    blocker = _blocking_file(path.parent)
    if blocker is not None:
        raise IszError(f"{what} {str(path)!r} cannot be written: {str(blocker)!r} is a file, "
                       "not a folder")
    try:
        _probe(path.parent)
    except OSError as e:
        raise IszError(f"{what} {str(path)!r} cannot be written: {e.strerror or e} "
                       f"({str(path.parent)!r})") from e
    return path


def check_free_space(path: str | os.PathLike, need_bytes: int, what: str) -> None:
    """`IszError` when the disk holding folder ``path`` has less than ``need_bytes`` free."""
    free = shutil.disk_usage(path).free
    if free < need_bytes:
        raise IszError(f"the disk of {str(path)!r} has {free / MB:.0f} MB free; {what} "
                       f"needs about {need_bytes / MB:.0f} MB: free some space or choose "
                       "another folder")


def write_atomic(path: str | os.PathLike, write: Callable[[IO], None],
                 binary: bool = False) -> Path:
    """Call ``write(f)`` on a temp file in ``path``'s folder, fsync it, then
    `os.replace` it onto ``path``: a reader never sees half a file. On any
    error the temp file is removed and the error re-raised."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if binary else "w") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):  # cleanup must not mask the real error
            os.unlink(tmp)
        raise
    return path


def remove_stale_temps(folder: str | os.PathLike) -> list[Path]:
    """Remove the temp files `write_atomic` left in ``folder`` when its process was
    killed mid-write (``kill -9`` skips its cleanup); returns what was removed.
    Call it only where no other process writes into ``folder``."""
    gone = []
    for f in Path(folder).glob(".*.tmp"):
        with contextlib.suppress(OSError):
            f.unlink()
            gone.append(f)
    return gone


def write_json_atomic(path: str | os.PathLike, payload: dict) -> Path:
    """Write ``payload`` as indented JSON to ``path`` atomically (`write_atomic`)."""
    def write(f):
        json.dump(payload, f, indent=2)
        f.write("\n")
    return write_atomic(path, write)
