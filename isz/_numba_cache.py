"""Make numba's on-disk cache hit for isz's per-game closures (start-up: ~20 s -> ~2 s).

Search kernels are compiled per game by factories that close over the game's
`Kernel` functions (`isz.search.playout.make_playout`, `isz.search.puct.make_puct`,
...). numba's cache (``cache=True``) keys a closure by a pickle of its closure
cells; a cell holding a numba dispatcher pickles that dispatcher's ``uuid``,
which numba draws at random in every process. So the key changed on every run:
each run recompiled every search kernel (about 20 s on a 2-core machine before
the first self-play step) and added yet another entry to ``__pycache__``.

`install` gives every dispatcher a uuid derived from what it computes instead
(module, qualified name, bytecode and, recursively, its closure cells), so the
same code closing over the same functions gets the same key in every process.
Two dispatchers with the same derived uuid compute the same thing, so numba's
uuid memo (used only to de-duplicate unpickled dispatchers) may hand out either.
If numba's internals change shape, `install` leaves numba untouched.

`name_by_content` gives a factory's closure a qualified name that carries the
same digest: numba names a compiled function by its qualified name and a counter
of the process that compiled it, and links each callee into its caller's cached
object code under that name as a weak symbol. Two cached callers compiled by two
processes whose counters met (``make_descend.<locals>.simulate`` of Kuhn's ``mo``
and of Leduc's ``so`` search, say) would, once loaded into one process, both call
the callee loaded first: another game's or variant's code, a wrong result or a
crash.

`use_source_keyed_dir` keeps the cache from going stale: numba stamps a cached
function with its own file only, so a kernel that calls a compiled helper from
another file (`isz.rng.rand_below`, a game's rules) kept running the helper's old
machine code after that file changed. The cache therefore lives in a folder named by
a digest of every compiled source of isz and numba's version: ``$ISZ_CACHE_DIR``
(default ``$XDG_CACHE_HOME/isz``, i.e. ``~/.cache/isz``) ``/numba-<digest>``.
Changed code gets a fresh folder; the few most recently used folders are kept, and
any other not used for a week is removed. A ``NUMBA_CACHE_DIR`` set by the user is
left alone.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
import types
from pathlib import Path

import numpy as np


def _digest(obj, seen: frozenset = frozenset()) -> str:
    """A string that is the same in every process for equal code and closure data."""
    from numba.core.dispatcher import Dispatcher

    if isinstance(obj, Dispatcher):
        obj = obj.py_func
    if isinstance(obj, types.FunctionType):
        if id(obj) in seen:  # a closure that refers to itself
            return f"<recursive {obj.__qualname__}>"
        seen = seen | {id(obj)}
        code = obj.__code__
        parts = [obj.__module__, obj.__qualname__, code.co_code.hex(), repr(code.co_names)]
        for cell in obj.__closure__ or ():
            try:
                parts.append(_digest(cell.cell_contents, seen))
            except ValueError:  # an empty cell
                parts.append("<empty>")
    elif isinstance(obj, np.ndarray):
        parts = [str(obj.dtype), repr(obj.shape), obj.tobytes().hex()]
    elif isinstance(obj, (tuple, list)):
        parts = [type(obj).__name__, *(_digest(x, seen) for x in obj)]
    elif hasattr(obj, "__dataclass_fields__"):
        parts = [type(obj).__qualname__,
                 *(_digest(getattr(obj, f), seen) for f in obj.__dataclass_fields__)]
    else:
        parts = [type(obj).__qualname__, repr(obj)]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


def install() -> None:
    """Replace numba's random per-process dispatcher uuid by `_digest` (idempotent)."""
    try:
        from numba.core.dispatcher import _MemoMixin
    except ImportError:
        return
    if getattr(_MemoMixin, "_isz_stable_uuid", False) or \
            not isinstance(_MemoMixin.__dict__.get("_uuid"), property):
        return

    def _uuid(self):
        u = self._MemoMixin__uuid
        if u is None:
            u = "isz-" + _digest(self)
            self._set_uuid(u)
        return u

    _MemoMixin._uuid = property(_uuid, doc=_MemoMixin._uuid.__doc__)
    _MemoMixin._isz_stable_uuid = True


# what compiled code is built from: a change in any of these may change a kernel
COMPILED_SOURCES = ("games", "search", "belief", "rng.py", "types.py", "_numba_cache.py")
KEEP_DIRS = 8  # cache folders of other source versions always kept (branches, worktrees)
KEEP_DAYS = 7  # beyond those, a folder unused this long is removed


def source_digest(package: Path, numba_version: str) -> str:
    """sha256 (16 hex digits) of numba's version and every ``*.py`` of
    `COMPILED_SOURCES` under ``package`` (paths and bytes, in sorted order)."""
    h = hashlib.sha256(numba_version.encode())
    for name in COMPILED_SOURCES:
        root = package / name
        for f in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            if f.is_file():
                h.update(f.relative_to(package).as_posix().encode() + b"\x00")
                h.update(f.read_bytes() + b"\x00")
    return h.hexdigest()[:16]


def cache_root() -> Path:
    """Where isz keeps its numba caches: ``$ISZ_CACHE_DIR`` or ``$XDG_CACHE_HOME/isz``."""
    if os.environ.get("ISZ_CACHE_DIR"):
        return Path(os.environ["ISZ_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "isz"


def prune(root: Path, current: Path, keep: int = KEEP_DIRS, days: float = KEEP_DAYS) -> None:
    """Remove the ``numba-*`` folders besides ``current`` that are neither among the
    ``keep`` most recently used nor used in the last ``days`` days."""
    others = [d for d in root.glob("numba-*") if d.is_dir() and d != current]
    others.sort(key=lambda d: d.stat().st_mtime, reverse=True)
    cutoff = time.time() - days * 86400
    for d in others[keep:]:
        if d.stat().st_mtime < cutoff:
            shutil.rmtree(d, ignore_errors=True)


def use_source_keyed_dir() -> None:
    """Point numba's cache at ``cache_root()/numba-<source_digest>`` (once a process;
    untouched when the user set ``NUMBA_CACHE_DIR`` or the folder cannot be made)."""
    from numba import __version__
    from numba.core import config

    if os.environ.get("NUMBA_CACHE_DIR") or config.CACHE_DIR:
        return
    root = cache_root()
    folder = root / f"numba-{source_digest(Path(__file__).parent, __version__)}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)  # most recently used
        prune(root, folder)
    except OSError:
        return  # numba falls back to the __pycache__ next to each source
    config.CACHE_DIR = str(folder)


def name_by_content(fn):
    """Suffix the qualified name of ``fn`` (a closure a factory makes, before numba
    compiles it) with `_digest` of what it computes, so that closures that compute
    different things never share a compiled symbol (see the module docstring);
    returns ``fn``."""
    fn.__qualname__ = f"{fn.__qualname__}_{_digest(fn)[:16]}"
    return fn


use_source_keyed_dir()
install()
