"""How the search kernels' factory-made functions are compiled: `helper` and `entry`.

A kernel is built per game and variant by a factory (`make_so_ismcts`,
`make_descend`, ...) as small closures that take the tree, the scratch and the
lane buffers as one NamedTuple each. numba passes a NamedTuple of arrays to a
compiled call as its flattened fields (about a hundred machine words for the
scratch and the tree) and counts a reference to every array it receives, an
atomic operation each: called as separate functions, the helpers made a search
several times slower than the one flat loop they replace. So:

- a `helper` is inlined into its caller by numba (``inline="always"``): the
  entry point it serves compiles into one function, as the flat loop did;
- an `entry` (the function a Python driver calls: ``run``, ``descend``,
  ``expand``) runs without numba's reference counting (``_nrt=False``): it and
  the helpers inlined into it allocate nothing (no ``np.zeros``, no slice copy,
  see `isz.search.playout.load_world`); the arrays belong to the driver. The game's
  rule functions it calls keep reference counting of their own (`isz.games.kernel`):
  numba would otherwise compile a callee first typed here without it too;
- an entry takes its structures as plain tuples (the driver passes
  ``tuple(tree.arrays)``) and names them first thing (``t = TreeArrays(*tree)``):
  numba resolves the type of a NamedTuple argument at every call in about 6 µs, of
  a plain tuple as fast as of separate arrays, and a PUCT wave makes two calls.

Both are named by what they compute (`isz._numba_cache.name_by_content`), so the
closures of two games or variants never share a compiled symbol, and both are
cached on disk like every kernel.
"""

from __future__ import annotations

import numba as nb

from isz._numba_cache import name_by_content


def helper(fn):
    """Compile ``fn``, a factory's closure, to be inlined into the kernel calling it."""
    return nb.njit(cache=True, inline="always")(name_by_content(fn))


def entry(fn):
    """Compile ``fn``, a factory's kernel entry point, without reference counting."""
    return nb.njit(cache=True, _nrt=False)(name_by_content(fn))
