"""A rollout search's leaf is a hook chosen when the kernel is built (`LEAVES`)."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief
from isz.rng import new_rng
from isz.search import playout
from isz.search.jit import helper
from isz.search.playout import Scratch
from isz.search.so_ismcts import SOKnobs, SOVariant, make_so_ismcts
from isz.search.tree import Tree
from tests.conftest import random_decision


def _flat_leaf(kernel):
    """Every player scores ``k.c / 2`` wherever the tree is left (reads the knobs)."""

    @helper
    def flat_leaf(s, params, me, rng, b, k):
        for i in range(b.scores.shape[0]):
            b.scores[i] = 0.5 * k.c

    return flat_leaf


def test_the_leaf_named_in_the_variant_scores_every_simulation(monkeypatch):
    monkeypatch.setitem(playout.LEAVES, "flat", _flat_leaf)
    game = isz.make_game("leduc_poker")
    state = random_decision(game, np.random.default_rng(0), 2)
    view = state.view(state.current_player())
    worlds = UniformBelief(game).sample_many(view, 200, np.random.default_rng(1))
    none = np.zeros(game.num_actions)
    tree = Tree(202)
    run = make_so_ismcts(game.kernel, SOVariant(leaf="flat"))
    stop = run(worlds, game.kparams, view.player, 0, 200, tuple(tree.arrays),
               tuple(Scratch.of(game)), new_rng(2),
               tuple(SOKnobs(0.5, (0.0, 0.0, 0.0), 0.0, none, none, 0.0, none)))
    assert stop == 200
    stats = tree.stats(0)
    assert sum(n for n, _ in stats.values()) == 200
    assert all(mean == pytest.approx(0.25) for _, mean in stats.values())


def test_an_unknown_leaf_is_named():
    with pytest.raises(isz.IszError, match="unknown leaf 'value'; allowed: playout, policy"):
        make_so_ismcts(isz.make_game("kuhn_poker").kernel, SOVariant(leaf="value"))
