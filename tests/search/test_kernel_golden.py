"""The compiled search kernels compute what they did before their refactor, bit for bit.

Each case runs one search variant (so_ismcts, mo_ismcts, PUCT) at a fixed position
and compares a digest of the whole tree (every node's fields, value and prior; PUCT
also its in-flight counts and expanded flags) with the digest recorded on the kernels
before they were split into variant-specific helpers. A changed digest means the
search now visits or scores something differently.

Re-record (only after a deliberate change of behaviour):
``python -m tests.search.test_kernel_golden``.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

import isz
from isz.belief import UniformBelief
from isz.search.driver import Budget, mo_search, so_search, uct_search
from isz.search.puct_driver import PUCTBatch, PUCTConfig
from tests.conftest import random_decision
from tests.search.test_expand_after import _Eval

GAMES = ["coin_guess", "kuhn_poker", "leduc_poker", "tricks", "oh_hell", "recon"]


def _game(name):
    return isz.make_game("tricks", players=3) if name == "tricks3" else isz.make_game(name)


def _position(name, steps=3, seed=0):
    """(game, state, view of the player to move, a sampler of worlds from that view)."""
    game = _game(name)
    state = random_decision(game, np.random.default_rng(seed), steps)
    view = state.view(state.current_player())
    rng = np.random.default_rng(seed + 1)
    belief = UniformBelief(game)
    return game, state, view, lambda n: belief.sample_many(view, n, rng)


def _digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:16]


def _tree_digest(tree) -> str:
    n = int(tree.count[0])
    return _digest(tree.nodes[:n], tree.value[:n], tree.prior[:n])


def _so(name, **kw):
    game, _, view, sample = _position(name)
    return _tree_digest(so_search(game, sample, view.player, Budget(iterations=300), c=0.7,
                                  seed=3, **kw))


def _so_prior(name, value_mix=0.0):
    game, _, view, sample = _position(name)
    r = np.random.default_rng(4)
    prior = r.dirichlet(np.ones(game.num_actions))
    value = r.uniform(size=game.num_actions) if value_mix else None
    return _tree_digest(so_search(game, sample, view.player, Budget(iterations=300), c=0.7,
                                  seed=3, root_prior=prior, c_prior=1.5, root_value=value,
                                  value_mix=value_mix))


def _uct(name, **kw):
    game, state, view, _ = _position(name)
    return _tree_digest(uct_search(game, state.data, view.player, Budget(iterations=300),
                                   c=0.7, seed=3, **kw))


def _mo(name, **kw):
    game, _, view, sample = _position(name)
    return _tree_digest(mo_search(game, sample, view.player, Budget(iterations=300), c=0.7,
                                  seed=3, **kw))


def _puct(name, searches=1, lanes=4, sims=120, evaluator=True, **cfg):
    """``searches`` PUCT searches in lockstep (positions of seeds 0, 1, ..)."""
    views, worlds = [], []
    for b in range(searches):
        game, _, view, sample = _position(name, steps=2 + b, seed=b)
        views.append(view)
        worlds.append(sample(sims))
    batch = PUCTBatch(game, PUCTConfig(rollouts=not evaluator, **cfg), np.stack(worlds),
                      [v.player for v in views], 7, lanes=lanes)
    batch.run(_Eval(game) if evaluator else None, sims)
    t, n = batch.tree, int(batch.tree.count[0])
    return _digest(t.nodes[:n], t.value[:n], t.prior[:n], t.pending[:n],
                   t.evaluated[:n], np.array([batch.evaluations, batch.playouts]))


CASES = {
    **{f"so/{g}": (_so, g, {}) for g in GAMES},
    "so/leduc_poker/smooth": (_so, "leduc_poker", {"smooth": (0.9, 0.1, 0.1)}),
    "so/recon/smooth": (_so, "recon", {"smooth": (0.9, 0.1, 0.1)}),
    "so/tricks/prior": (_so_prior, "tricks", {}),
    "so/oh_hell/prior": (_so_prior, "oh_hell", {}),
    "so/tricks/value_mix": (_so_prior, "tricks", {"value_mix": 0.5}),
    "uct/tricks": (_uct, "tricks", {}),
    "uct/leduc_poker": (_uct, "leduc_poker", {}),
    "uct/kuhn_poker/smooth": (_uct, "kuhn_poker", {"smooth": (0.9, 0.1, 0.1)}),
    **{f"mo/{g}": (_mo, g, {}) for g in GAMES},
    "mo/leduc_poker/no_split": (_mo, "leduc_poker", {"split": False}),
    "mo/tricks/no_split": (_mo, "tricks", {"split": False}),
    "mo/kuhn_poker/smooth": (_mo, "kuhn_poker", {"smooth": (0.9, 0.1, 0.1)}),
    **{f"puct/{g}/{t}": (_puct, g, {"tree": t})
       for g in ("kuhn_poker", "leduc_poker", "tricks3", "recon") for t in ("mo", "so")},
    "puct/tricks3/mo/rollouts": (_puct, "tricks3", {"evaluator": False}),
    "puct/tricks3/so/rollouts": (_puct, "tricks3", {"evaluator": False, "tree": "so"}),
    "puct/leduc_poker/mo/prior": (_puct, "leduc_poker", {"opponents": "prior"}),
    "puct/tricks3/mo/prior": (_puct, "tricks3", {"opponents": "prior"}),
    "puct/leduc_poker/mo/evaluate_uniform": (_puct, "leduc_poker", {
        "opponents": "evaluate", "root_selection": "uniform"}),
    "puct/tricks3/so/actor": (_puct, "tricks3", {"tree": "so", "value_view": "actor"}),
    "puct/tricks3/mo/own_mix": (_puct, "tricks3", {"value_view": "own", "leaf_mix": 0.5}),
    "puct/tricks3/so/own_mix": (_puct, "tricks3", {"tree": "so", "value_view": "own",
                                                   "leaf_mix": 0.5}),
    "puct/tricks3/mo/after4": (_puct, "tricks3", {"expand_after": 4}),
    "puct/tricks3/so/after4": (_puct, "tricks3", {"tree": "so", "expand_after": 4}),
    "puct/tricks3/mo/after4_search": (_puct, "tricks3", {"expand_after": 4,
                                                         "below_threshold": "search"}),
    "puct/tricks3/so/after4_search": (_puct, "tricks3", {"tree": "so", "expand_after": 4,
                                                         "below_threshold": "search"}),
    "puct/tricks3/mo/noise_batch": (_puct, "tricks3", {"searches": 3, "lanes": 2,
                                                       "dirichlet_eps": 0.25}),
    "puct/leduc_poker/so/batch": (_puct, "leduc_poker", {"searches": 4, "lanes": 1,
                                                        "tree": "so"}),
}

# digests recorded on the kernels before their refactor (one flat loop each)
RECORDED = {
    'mo/coin_guess': '800dd941b5429044',
    'mo/kuhn_poker': '9f781b2ecea127a8',
    'mo/kuhn_poker/smooth': '105a83f6ea48dd0f',
    'mo/leduc_poker': 'e23627fa1b65b0e4',
    'mo/leduc_poker/no_split': 'ba7e42a9df96c698',
    'mo/oh_hell': '1cb77e6daaf1c3e2',
    'mo/recon': '295e73e20cbbb10a',
    'mo/tricks': '980761c447c43de7',
    'mo/tricks/no_split': '241106a28d126ea9',
    'puct/kuhn_poker/mo': '96098f11a57cf1df',
    'puct/kuhn_poker/so': '565464e8ae9c5a40',
    'puct/leduc_poker/mo': 'ae32a4216ec54a98',
    'puct/leduc_poker/mo/evaluate_uniform': '3faeba9d2286a406',
    'puct/leduc_poker/mo/prior': '022490145d078c87',
    'puct/leduc_poker/so': '4e9d7c94a17b23e9',
    'puct/leduc_poker/so/batch': 'facde02f03f30ac1',
    'puct/recon/mo': 'fac0dd1361284799',
    'puct/recon/so': '675452f5735c8f97',
    'puct/tricks3/mo': '56d5f8fc7f1d5c0b',
    'puct/tricks3/mo/after4': '8eff81179711c156',
    'puct/tricks3/mo/after4_search': 'ce7e466114a3318b',
    'puct/tricks3/mo/noise_batch': '6a40649cc5d60096',
    'puct/tricks3/mo/own_mix': '4f16e231c2d6e195',
    'puct/tricks3/mo/prior': '5589a459632c9fba',
    'puct/tricks3/mo/rollouts': 'fa0400c29b27cf70',
    'puct/tricks3/so': '8cf5091a4b5b368b',
    'puct/tricks3/so/actor': 'a1eb3a9ba2feacfc',
    'puct/tricks3/so/after4': '62104625d2f4cd0c',
    'puct/tricks3/so/after4_search': 'c944b5a757e844b6',
    'puct/tricks3/so/own_mix': '972c77cf500fd682',
    'puct/tricks3/so/rollouts': 'a9318057989428f4',
    'so/coin_guess': '800dd941b5429044',
    'so/kuhn_poker': '8499c473ae2d9f47',
    'so/leduc_poker': '36e6001a4be73d7b',
    'so/leduc_poker/smooth': '34bb0299e9bc70c0',
    'so/oh_hell': '0256876e8ac26b31',
    'so/oh_hell/prior': 'e878b08402a4d74b',
    'so/recon': '0cc27fc94f98db04',
    'so/recon/smooth': '386d983a4c5ce4e1',
    'so/tricks': '64e77d0bda1867c4',
    'so/tricks/prior': '4b707007389fd29e',
    'so/tricks/value_mix': '099f3bae2b019e41',
    'uct/kuhn_poker/smooth': '20aa5e0b123b8491',
    'uct/leduc_poker': '4b6532ae469e104c',
    'uct/tricks': 'e919c00850f80200',
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_kernels_compute_what_they_did(case):
    fn, name, kw = CASES[case]
    assert fn(name, **kw) == RECORDED[case]


if __name__ == "__main__":
    for case in sorted(CASES):
        fn, name, kw = CASES[case]
        print(f"    {case!r}: {fn(name, **kw)!r},", flush=True)
