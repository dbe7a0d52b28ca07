"""Compiled closures of different games or variants never share a symbol name.

numba names a compiled function by its qualified name and a per-process counter,
and links callees into a caller's cached object code under that name; closures
that compute different things must therefore differ in name
(`isz._numba_cache.name_by_content`), or a process that loads two cached kernels
compiled elsewhere runs one game's (or variant's) helper in the other's search.
"""

from __future__ import annotations

import subprocess
import sys

import isz
from isz.search.puct import PUCTVariant
from isz.search.puct_descend import make_descend
from isz.search.so_ismcts import SOVariant, make_so_ismcts


def _closure_names(dispatcher) -> set[str]:
    """Qualified names of a compiled function and of every closure it calls."""
    out, todo = set(), [dispatcher]
    while todo:
        d = todo.pop()
        if d.py_func.__qualname__ in out:
            continue
        out.add(d.py_func.__qualname__)
        todo += [c.cell_contents for c in d.py_func.__closure__ or ()
                 if hasattr(c.cell_contents, "py_func")]
    return out


def _helpers(names: set[str], helper: str) -> set[str]:
    return {n for n in names if f"<locals>.{helper}_" in n}


def test_each_game_and_variant_names_its_helpers_apart():
    kuhn, leduc = (isz.make_game(g).kernel for g in ("kuhn_poker", "leduc_poker"))
    built = {(g, v): _closure_names(make_descend(k, PUCTVariant(tree=v)))
             for g, k in (("kuhn", kuhn), ("leduc", leduc)) for v in ("mo", "so")}
    simulates = [_helpers(names, "simulate") for names in built.values()]
    assert all(len(s) == 1 for s in simulates)
    assert len(set.union(*simulates)) == 4
    # a helper that reads neither the game nor the variant is one function
    assert len(set.union(*(_helpers(n, "label_of") for n in built.values()))) == 2
    so = [_closure_names(make_so_ismcts(kuhn, SOVariant(smooth=s))) for s in (False, True)]
    assert _helpers(so[0], "select") != _helpers(so[1], "select")
    assert _helpers(so[0], "label_of") == _helpers(so[1], "label_of")


SNIPPET = """
import isz
from isz.search.puct import PUCTVariant
from isz.search.puct_descend import make_descend
descend = make_descend(isz.make_game("leduc_poker").kernel, PUCTVariant(tree="so"))
print(descend.py_func.__qualname__)
"""


def test_a_closure_has_the_same_name_in_every_process():
    """(so that numba's on-disk cache finds it again)"""
    runs = [subprocess.run([sys.executable, "-c", SNIPPET], capture_output=True, text=True,
                           check=True, timeout=120).stdout for _ in range(2)]
    assert runs[0] == runs[1] and "make_descend.<locals>.descend_" in runs[0]
