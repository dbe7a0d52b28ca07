"""The public surface for games written outside the package: registration, kernel
checks, module import, and the exports a game module needs."""

from __future__ import annotations

import dataclasses

import numba as nb
import numpy as np
import pytest

import isz
from isz.games import Kernel, import_game_module
from isz.games.kuhn_poker import KERNEL as KUHN
from isz.games.kuhn_poker import KuhnPoker
from isz.games.registry import _GAMES
from isz.games.testing import ConformanceError, check_game


@pytest.fixture
def scratch():
    """Names registered by a test are removed after it."""
    before = set(_GAMES)
    yield
    for name in set(_GAMES) - before:
        del _GAMES[name]


def _game_class(name: str, base=KuhnPoker):
    return type(f"G_{name}", (base,), {"name": name, "__module__": "tests.somewhere"})


def test_register_game_refuses_a_taken_name_unless_replace(scratch):
    first = isz.register_game(_game_class("scratch_game"))
    assert isz.make_game("scratch_game").__class__ is first
    second = _game_class("scratch_game")
    second.__qualname__ = "Other"
    with pytest.raises(isz.IszError, match=r"'scratch_game' is already registered "
                                           r"\(tests.somewhere.G_scratch_game\).*replace=True"):
        isz.register_game(second)
    assert isz.register_game(replace=True)(second) is second
    assert isz.make_game("scratch_game").__class__ is second
    assert isz.register_game(second) is second  # its module imported again: accepted
    with pytest.raises(isz.IszError, match=r"'kuhn_poker' is already registered"):
        isz.register_game(_game_class("kuhn_poker"))
    with pytest.raises(isz.IszError, match=r"'oh_hell' is already registered \(preset of"):
        isz.register_game(_game_class("oh_hell"))


@pytest.mark.parametrize("bad, word", [(int, "subclass of isz.Game"),
                                       (_game_class("has space"), "must be a word")])
def test_register_game_bad_classes(bad, word):
    with pytest.raises(isz.IszError, match=word):
        isz.register_game(bad)


def test_kernel_refuses_a_plain_python_function():
    def legal_actions(s, params, out):
        return 0

    with pytest.raises(isz.IszError, match=r"kernel function legal_actions "
                                           r"\(.*legal_actions\) is not numba-compiled"):
        dataclasses.replace(KUHN, legal_actions=legal_actions)
    assert isinstance(dataclasses.replace(KUHN, legal_actions=nb.njit(legal_actions)), Kernel)


def _allocating_chance_outcomes():
    """Kuhn's deal written the way a newcomer might: a helper returns a fresh array."""
    @nb.njit
    def dealt(s):
        seen = np.zeros(3, dtype=np.int64)
        if s[0] >= 0:
            seen[s[0]] = 1
        return seen

    @nb.njit
    def chance_outcomes(s, params, out_a, out_p):
        seen = dealt(s)
        n = 0
        for c in range(3):
            if seen[c] == 0:
                out_a[n] = c
                n += 1
        for i in range(n):
            out_p[i] = 1.0 / n
        return n
    return chance_outcomes


@pytest.mark.parametrize("in_a_kernel", [True, False])
def test_a_rule_function_may_allocate_though_first_typed_in_a_search_entry(in_a_kernel):
    """A search entry point compiles without numba's reference counting
    (`isz.search.jit.entry`) and a callee takes its caller's setting unless it has its
    own: Kernel gives every rule function its own, so the first compile of one from
    inside a search (a cold kernel cache) may allocate. Fresh dispatchers each run: no
    cache can have typed them first."""
    fn = _allocating_chance_outcomes()
    if in_a_kernel:
        fn = dataclasses.replace(KUHN, chance_outcomes=fn).chance_outcomes

    @nb.njit(_nrt=False)  # how isz.search.jit.entry compiles, less the disk cache
    def entry(s, params, out_a, out_p):
        return fn(s, params, out_a, out_p)

    s, params = np.array([1, -1, 0, -1, -1, -1]), np.zeros(1, dtype=np.int64)
    out_a, out_p = np.zeros(3, dtype=np.int64), np.zeros(3)
    if not in_a_kernel:  # the failure Kernel prevents, so the test can tell
        with pytest.raises(nb.core.errors.TypingError, match="Only accept returning"):
            entry(s, params, out_a, out_p)
        return
    assert entry(s, params, out_a, out_p) == 2
    assert list(out_a[:2]) == [0, 2] and list(out_p[:2]) == [0.5, 0.5]


@pytest.mark.parametrize("module, words", [
    ("no_such_package.game", "cannot import game module 'no_such_package.game'"),
    ("examples/goofspiel.py", "dotted module name"),
    ("__main__", "script run as __main__"),
])
def test_import_game_module_errors(module, words):
    with pytest.raises(isz.IszError, match=words):
        import_game_module(module)


def test_exports_for_a_game_module():
    from isz.belief import register_belief
    from isz.games import new_rng, rand_below, rand_float, sample_index, shuffle_prefix

    rng = new_rng(7)
    assert 0 <= rand_below(rng, 5) < 5 and 0.0 <= rand_float(rng) < 1.0
    arr = np.arange(6)
    shuffle_prefix(rng, arr, 6)
    assert sorted(arr) == list(range(6))
    assert sample_index(rng, np.array([0.0, 1.0]), 2) == 1
    with pytest.raises(isz.IszError, match="belief name 'uniform' is already registered"):
        register_belief("uniform", lambda game: None)


def test_check_game_states_the_layout_rules():
    game = isz.make_game("kuhn_poker")
    game.kparams = np.zeros(0, np.int64)
    with pytest.raises(ConformanceError, match="kparams must be a non-empty 1-d int64"):
        check_game(game)
    game.kparams = np.zeros(1, np.int32)
    with pytest.raises(ConformanceError, match="kparams must be"):
        check_game(game)


def test_a_preset_rebuilt_from_its_checkpoint_spec_keeps_its_name():
    """A checkpoint records the base game and all its parameters; rebuilt, it is the preset."""
    oh_hell = isz.make_game("oh_hell")
    rebuilt = isz.make_game(oh_hell.spec["name"], **oh_hell.spec["params"])
    assert oh_hell.spec["name"] == "tricks" and rebuilt.preset == "oh_hell"
    other = isz.make_game("tricks", **{**oh_hell.spec["params"], "hand_size": 9})
    assert getattr(other, "preset", None) is None
    assert getattr(isz.make_game("tricks"), "preset", None) is None
