"""The ``replay`` belief: uniform worlds weighed by a policy along their replayed
histories. On Liar's Dice (examples/, whose kernel has `history`) it agrees with the
exact posterior under the same policy; it refuses games without `history`, bad knobs
and bad policies; and it never reads the true state."""

from __future__ import annotations

import time

import numpy as np
import pytest

import isz
from isz.belief import PosteriorBelief, ReplayBelief, make_belief
from isz.belief.registry import resolve_belief
from isz.games.base import State
from isz.search.evaluator import EvaluatorPolicy
from isz.types import IszError


class _Softmax:
    """An evaluator whose priors are a fixed random linear softmax of the tensor."""

    def __init__(self, game, scale=1.5, seed=0):
        rng = np.random.default_rng(seed)
        self.w = rng.normal(size=(game.tensor_size, game.num_actions)) * scale
        self.num_players = game.num_players

    def evaluate(self, tensors, masks):
        z = np.where(masks, tensors @ self.w, -np.inf)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True), np.zeros((len(tensors), self.num_players))


def _state(game, actions):
    s = game.new_initial_state()
    for a in actions:
        s.apply_action(a)
    return s


def _opponent_die(game, worlds_or_post, viewer):
    """Law of the opponent's (single) die: from sampled worlds int64[n, S], or from a
    posterior's ``{state tuple: probability}``."""
    law = np.zeros(game.params["faces"])
    if isinstance(worlds_or_post, dict):
        for h, p in worlds_or_post.items():
            law[h[1 - viewer]] += p
        return law
    return np.bincount(worlds_or_post[:, 1 - viewer], minlength=len(law)) / len(worlds_or_post)


@pytest.mark.parametrize("actions, viewer", [
    ([1, 2, 2, 4], 0),     # after player 1's bid, player 0 to move
    ([1, 2, 2, 4], 1),     # player 1's view of the same history
    ([0, 2, 0, 3, 5], 1),  # three bids
])
def test_replay_agrees_with_the_exact_posterior(liars_dice, actions, viewer):
    """With many candidates the resampled law of the opponent's die is the posterior's
    (Liar's Dice, one die of three faces, a non-uniform policy), to within 0.015
    (about 4 SE at 20,000 draws from thousands of candidates)."""
    game = isz.make_game("liars_dice", dice=1, faces=3)
    policy = EvaluatorPolicy(_Softmax(game))
    view = _state(game, actions).view(viewer)
    exact = _opponent_die(game, PosteriorBelief(game, policy=policy).posterior(view), viewer)
    assert np.abs(exact - 1 / 3).max() > 0.1  # the policy moves the posterior
    belief = ReplayBelief(game, policy=policy, candidates=4000)
    worlds = belief.sample_many(view, 20_000, np.random.default_rng(1))
    assert np.abs(_opponent_die(game, worlds, viewer) - exact).max() < 0.015
    assert all(State(game, w.copy()).view(viewer).key == view.key for w in worlds[:50])
    assert 100 < belief.last_ess <= 4000


@pytest.mark.parametrize("actions, viewer", [
    ([0, 4, 2, 1], 0),        # round 1 raised and called; the public card to come
    ([0, 4, 2, 1, 2, 2], 1),  # public queen; player 0 raised into player 1
    ([3, 5, 1, 2, 2, 1, 1], 0),
])
def test_replay_agrees_with_the_posterior_on_leduc(actions, viewer):
    """Leduc poker (a built-in game with `history`): the replayed law of the opponent's
    card is the exact posterior's under the same non-uniform policy, within 0.015."""
    game = isz.make_game("leduc_poker")
    policy = EvaluatorPolicy(_Softmax(game, scale=1.0, seed=3))
    view = _state(game, actions).view(viewer)
    exact = PosteriorBelief(game, policy=policy).posterior(view)
    law = np.zeros(6)
    for (card,), p in exact.items():
        law[card] += p
    assert np.abs(law[law > 0] - law[law > 0].mean()).max() > 0.05  # the policy tells
    worlds = ReplayBelief(game, policy=policy, candidates=4000).sample_many(
        view, 20_000, np.random.default_rng(4))
    drawn = np.bincount(worlds[:, 1 - viewer], minlength=6) / len(worlds)
    assert np.abs(drawn - law).max() < 0.015


def test_replay_without_a_policy_is_uniform_and_with_one_reuses_its_pool(liars_dice):
    game = isz.make_game("liars_dice", dice=2, faces=6)
    view = _state(game, [0, 5, 3, 3, 7, 20]).view(0)
    worlds = ReplayBelief(game).sample_many(view, 6000, np.random.default_rng(0))
    faces = np.bincount(worlds[:, 2:4].ravel(), minlength=6) / worlds[:, 2:4].size
    assert np.abs(faces - 1 / 6).max() < 0.02
    belief = ReplayBelief(game, policy=EvaluatorPolicy(_Softmax(game)), candidates=64)
    first = belief.sample_many(view, 32, np.random.default_rng(0))
    pool = belief._pool[1]
    again = belief.sample_many(view, 32, np.random.default_rng(5))
    assert belief._pool[1] is pool  # the same view: no new replay, no new policy call
    assert {w.tobytes() for w in (*first, *again)} <= {w.tobytes() for w in pool}


def test_a_deadline_cuts_the_pool_short_and_keeps_its_law(liars_dice):
    """A deadline already past: one chunk of `DEADLINE_CHUNK` draws is weighed, not
    ``candidates``; a deadline far ahead: the rest in one more policy call, every draw
    counted once, and the resampled law of the opponent's die is still the exact
    posterior's (the two calls draw the same law)."""
    from isz.belief.replay import DEADLINE_CHUNK

    game = isz.make_game("liars_dice", dice=1, faces=3)
    policy = EvaluatorPolicy(_Softmax(game))
    view = _state(game, [1, 2, 2, 4]).view(0)
    exact = _opponent_die(game, PosteriorBelief(game, policy=policy).posterior(view), 0)
    calls = []

    class Counting:
        def many(self, tensors, masks):
            calls.append(len(tensors))
            return policy.many(tensors, masks)

    belief = ReplayBelief(game, policy=Counting(), candidates=4000)
    belief.deadline = 0.0  # long past
    worlds, p = belief.weighed_pool(view, np.random.default_rng(0))
    assert len(calls) == 1 and len(worlds) <= DEADLINE_CHUNK and p.sum() == pytest.approx(1)
    calls.clear()
    belief.deadline = time.perf_counter() + 3600.0
    belief.reset()
    worlds, counts, _, _ = belief._weigh(view, np.random.default_rng(2), belief.deadline)
    assert len(calls) <= 2 and counts.sum() == 4000  # 3 worlds: the second call may be moot
    assert len({w.tobytes() for w in worlds}) == len(worlds)  # each world one entry
    calls.clear()
    worlds = belief.sample_many(view, 20_000, np.random.default_rng(1))
    assert len(calls) <= 2
    assert np.abs(_opponent_die(game, worlds, 0) - exact).max() < 0.015


def test_a_deadline_weighs_as_many_draws_as_the_first_chunk_says_fit(liars_dice, monkeypatch):
    """A clock that ticks 1 s a reading: each pool's first chunk takes 1 s, so a deadline
    1.5 s after it leaves room for 48 draws more (80 counted, in two policy calls) and
    one 0.5 s after it for 16, under a chunk: not worth a call, 32 counted; with 40
    candidates the 8 left are weighed."""
    import isz.belief.replay as replay

    ticks = iter(range(1000))
    monkeypatch.setattr(replay.time, "perf_counter", lambda: float(next(ticks)))
    game = isz.make_game("liars_dice", dice=1, faces=3)
    belief = ReplayBelief(game, policy=EvaluatorPolicy(_Softmax(game)), candidates=4000)
    view = _state(game, [1, 2, 2, 4]).view(0)
    _, counts, _, _ = belief._weigh(view, np.random.default_rng(0), 2.5)  # t0 = 0
    assert counts.sum() == 80
    _, counts, _, _ = belief._weigh(view, np.random.default_rng(1), 3.5)  # t0 = 2
    assert counts.sum() == replay.DEADLINE_CHUNK
    belief.candidates = 40  # the 8 left fit: weighed, though under a chunk
    _, counts, _, _ = belief._weigh(view, np.random.default_rng(2), 5.5)  # t0 = 4
    assert counts.sum() == 40


def _record_deadlines(belief) -> list:
    """The deadline ``belief`` holds at each `weighed_pool` call, appended to the list."""
    seen, weigh = [], belief.weighed_pool

    def weighed_pool(view, rng):
        seen.append(belief.deadline)
        return weigh(view, rng)

    belief.weighed_pool = weighed_pool
    return seen


@pytest.mark.parametrize("agent", ["guided_so_ismcts", "puct_ismcts"])
def test_searching_agents_set_the_pool_deadline_only_under_a_time_budget(liars_dice, agent):
    """Half the move's budget from its start under ``time_budget``; None with a fixed
    number of simulations (self-play), whose pools stay whole and deterministic."""
    game = isz.make_game("liars_dice", dice=2, faces=6)
    view = _state(game, [0, 5, 3, 3, 7]).view(1)
    evaluator = _Softmax(game)
    for budget in ({"iterations": 16}, {"time_budget": 0.02}):
        a = isz.make_agent(agent, game, evaluator=evaluator, belief="replay", **budget)
        seen = _record_deadlines(a.belief)
        t0 = time.perf_counter()
        a.act(view, np.random.default_rng(0))
        assert len(seen) == 1 and a.belief.deadline is None  # none left behind
        if "iterations" in budget:
            assert seen[0] is None
        else:
            assert t0 < seen[0] <= t0 + 0.5 * 0.02 + 1e-3


def test_an_off_model_opponent_falls_back_to_chance(liars_dice):
    """A policy that gives the opponent's bid zero probability in every world: the
    belief does not fail mid-game, it draws by chance alone and counts the fallback."""
    game = isz.make_game("liars_dice", dice=1, faces=3)

    class Never:
        def many(self, tensors, masks):
            p = masks.astype(np.float64)
            p[:, 1] = 0.0  # never bid 1x2 (action 1)
            return p / p.sum(axis=1, keepdims=True)

    belief = ReplayBelief(game, policy=Never(), candidates=300)
    worlds = belief.sample_many(_state(game, [0, 1, 1]).view(1), 3000,
                                np.random.default_rng(0))
    assert belief.fallbacks == 1
    assert np.abs(np.bincount(worlds[:, 0], minlength=3) / 3000 - 1 / 3).max() < 0.04


def test_bad_input():
    with pytest.raises(IszError, match="needs the game's kernel to define history.*"
                                       "'kuhn_poker' does not"):
        make_belief("replay", isz.make_game("kuhn_poker"))


def test_auto_keeps_the_built_in_games_beliefs():
    """`replay` comes after `posterior` in auto's order: Leduc, which has `history` but
    is small enough to enumerate, keeps the exact posterior; no built-in game changes."""
    with_network = {"tricks": "sir", "recon": "particle", "kuhn_poker": "posterior",
                    "leduc_poker": "posterior", "coin_guess": "posterior"}
    for name, belief in with_network.items():
        game = isz.make_game(name)
        assert resolve_belief("auto", game, network=True) == belief, name
        assert resolve_belief("auto", game) == ("voids" if name == "tricks" else "uniform")


def test_bad_knobs_and_policies(liars_dice):
    game = isz.make_game("liars_dice", dice=1, faces=3)
    with pytest.raises(IszError, match="candidates"):
        ReplayBelief(game, candidates=0)
    with pytest.raises(IszError, match="policy must have many"):
        ReplayBelief(game, policy=lambda view: None)

    class Wrong:
        def many(self, tensors, masks):
            return np.ones((len(tensors), 2))

    with pytest.raises(IszError, match=r"policy.many must return float\[\d+, 7\]"):
        ReplayBelief(game, policy=Wrong()).sample_many(_state(game, [0, 1, 1]).view(1), 4,
                                                       np.random.default_rng(0))


def test_replay_weighs_hidden_moves_as_the_posterior_does(goofspiel):
    """Goofspiel's bids are hidden (only who won a round is announced): the worlds differ
    in the opponent's moves, not only in chance. Over whole worlds the replayed law is the
    exact posterior's under the same policy (total variation under 0.03 at 20,000 draws)."""
    game = isz.make_game("goofspiel", cards=3)
    policy = EvaluatorPolicy(_Softmax(game, scale=2.0, seed=1))
    state = game.new_initial_state()
    # prize 3; player 0 bids 2, player 1 bids 1 (player 0 wins); prize 1; player 0 bids 3
    for a in (2, 1, 0, None, 0, 2):
        state.apply_action(state.chance_outcomes()[0][0] if a is None else a)
    view = state.view(1)
    assert view.current_player == 1
    exact = PosteriorBelief(game, policy=policy).posterior(view)
    assert len(exact) > 1 and max(exact.values()) < 0.95
    worlds = ReplayBelief(game, policy=policy, candidates=4000).sample_many(
        view, 20_000, np.random.default_rng(2))
    keys, counts = np.unique(worlds, axis=0, return_counts=True)
    drawn = {tuple(k.tolist()): c / len(worlds) for k, c in zip(keys, counts, strict=True)}
    tv = 0.5 * sum(abs(drawn.get(h, 0.0) - exact.get(h, 0.0)) for h in {*drawn, *exact})
    assert tv < 0.03


def test_the_bench_times_both_weighing_beliefs_on_the_same_games():
    """`isz-bench`'s rows for posterior and replay on Leduc: every decision of the same
    seeded games for both, a positive mean under the max."""
    from isz.bench.belief import weighed_decision_cost

    rows = {b: weighed_decision_cost(b, games=3) for b in ("posterior", "replay")}
    for b, (mean, top) in rows.items():
        assert (mean["metric"], top["metric"]) == ("first_world_ms_mean", "first_world_ms_max")
        assert mean["belief"] == b and 0 < mean["value"] <= top["value"]
    assert rows["posterior"][0]["decisions"] == rows["replay"][0]["decisions"] >= 3
