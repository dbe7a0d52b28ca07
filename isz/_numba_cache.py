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
"""

from __future__ import annotations

import hashlib
import types

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


install()
