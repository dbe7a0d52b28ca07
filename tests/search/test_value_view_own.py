"""Leaf values. ``value_view = "own"``: only own-view entries (the actor's and the
searcher's), the other seats share a zero sum; other entries are ignored.
``leaf_mix``: the network's value mixed with a random playout from the leaf."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import make_belief
from isz.search.puct_driver import PUCTBatch, PUCTConfig


def _seat_offset(game) -> int:
    """Where the observer's absolute seat one-hot sits in the tensor: the one block
    that reads ``p`` in seat p's view at every decision of a few random games."""
    rng, tens = np.random.default_rng(5), []
    for _ in range(5):
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(st.sample_chance(rng))
                continue
            tens.append([st.view(p).tensor().reshape(-1) for p in range(game.num_players)])
            st.apply_action(int(rng.choice(st.legal_actions())))
    n = game.num_players
    found = [o for o in range(game.tensor_size - n + 1)
             if all(t[o + p] == 1 and t[o:o + n].sum() == 1 for ts in tens
                    for p, t in enumerate(ts))]
    assert len(found) == 1, found
    return found[0]


class _Eval:
    """Uniform priors; the row's own entry a fixed function of the tensor, the other
    entries zero or (``noise``) pseudo-random values of the tensor."""

    def __init__(self, n: int, offset: int, noise: bool, sign: float = 1.0):
        self.n, self.offset, self.noise, self.sign = n, offset, noise, sign

    def evaluate(self, tensors, masks):
        m = masks.astype(np.float32)
        v = np.zeros((len(tensors), self.n), np.float32)
        for i, t in enumerate(tensors):
            me = int(np.argmax(t[self.offset:self.offset + self.n]))
            h = np.random.default_rng(abs(hash(t.tobytes())) % 2**32)
            if self.noise:
                v[i] = h.uniform(-1, 1, self.n)
            v[i, me] = 0.5 * self.sign * np.sin(t.sum())
        return m / m.sum(axis=1, keepdims=True), v


def _search(view_mode: str, noise: bool, moves_min: int = 3, sims: int = 200,
            leaf_mix: float = 0.0, sign: float = 1.0):
    game = isz.make_game("tricks", players=3)  # all 12 cards dealt: opponents' trees grow
    st = game.new_initial_state()
    rng = np.random.default_rng(0)
    moves = 0
    while st.is_chance_node() or st.current_player() != 0 or moves < moves_min:
        if st.is_chance_node():
            st.apply_action(st.sample_chance(rng))
        else:
            st.apply_action(int(rng.choice(st.legal_actions())))
            moves += 1
    view = st.view(0)
    worlds = make_belief("uniform", game).sample_many(view, sims, np.random.default_rng(1))
    cfg = PUCTConfig(value_view=view_mode, leaf_mix=leaf_mix)
    batch = PUCTBatch(game, cfg, worlds[None], [0], 7, lanes=4)
    batch.run(_Eval(game.num_players, _seat_offset(game), noise, sign), sims)
    n = int(batch.tree.count[0])
    return batch.root_stats(0), batch.tree.value[:n].copy()


def test_own_view_ignores_the_other_entries():
    (stats_a, val_a), (stats_b, val_b) = _search("own", False), _search("own", True)
    assert stats_a == stats_b
    np.testing.assert_array_equal(val_a, val_b)


def test_searcher_view_uses_them():
    (_, val_a), (_, val_b) = _search("searcher", False), _search("searcher", True)
    assert not np.array_equal(val_a, val_b)


def test_unknown_value_view_is_named():
    game = isz.make_game("kuhn_poker")
    with pytest.raises(isz.IszError, match="value_view.*searcher, actor, own"):
        isz.make_agent("puct_ismcts", game, value_view="mine")


def test_leaf_mix_one_ignores_the_network_values():
    (_, a), (_, b) = _search("actor", True, leaf_mix=1.0), _search("actor", False, sign=-1.0,
                                                                     leaf_mix=1.0)
    np.testing.assert_array_equal(a, b)


def test_leaf_mix_half_uses_both():
    (_, a), (_, b) = _search("actor", True, leaf_mix=0.5), _search("actor", False, sign=-1.0,
                                                                     leaf_mix=0.5)
    assert not np.array_equal(a, b)
    (_, c), (_, d) = _search("actor", True, leaf_mix=0.5), _search("actor", True, leaf_mix=1.0)
    assert not np.array_equal(c, d)


def test_leaf_mix_zero_is_the_plain_search():
    (sa, a), (sb, b) = _search("own", True), _search("own", True, leaf_mix=0.0)
    assert sa == sb
    np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("bad", [-0.5, 1.5, "all", True])
def test_bad_leaf_mix_is_named(bad):
    game = isz.make_game("kuhn_poker")
    with pytest.raises(isz.IszError, match=r"leaf_mix must be a number in \[0, 1\]"):
        isz.make_agent("puct_ismcts", game, leaf_mix=bad)

