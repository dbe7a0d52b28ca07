"""``engine=so_ismcts``: the rollout SO-ISMCTS loop with the network's priors
leading its root (PUCT there, UCB below): one evaluator call a decision."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import make_belief
from isz.search.driver import Budget, so_search
from tests.search.test_expand_after import _Eval


def _true_state(seed=0):
    """Seat 0's first decision of a 3-player tricks deal: (game, state)."""
    game = isz.make_game("tricks", players=3)
    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while st.is_chance_node() or st.current_player() != 0:
        st.apply_action(st.sample_chance(rng) if st.is_chance_node()
                        else int(rng.choice(st.legal_actions())))
    return game, st


def _position(seed=0):
    game, st = _true_state(seed)
    return game, st.view(0)


def _root(game, view, **kw):
    belief = make_belief("uniform", game)
    rng = np.random.default_rng(5)
    tree = so_search(game, lambda n: belief.sample_many(view, n, rng), 0,
                     Budget(iterations=2000), c=0.7, seed=9, **kw)
    return {a: n for a, (n, _) in tree.stats(0).items()}


def test_without_a_prior_it_is_so_ismcts_bit_for_bit():
    game, view = _position()
    plain = _root(game, view)
    assert _root(game, view, root_prior=None, c_prior=1.5) == plain
    assert _root(game, view, root_prior=np.ones(game.num_actions), c_prior=0.0) == plain


def test_the_prior_leads_the_root_visits():
    """A prior on the move plain so_ismcts visits least draws visits to it; a
    prior on its favourite gives that one more still."""
    game, view = _position()
    plain = _root(game, view)
    worst, best = min(plain, key=plain.get), max(plain, key=plain.get)
    assert worst != best
    for move in (worst, best):
        prior = np.full(game.num_actions, 0.01)
        prior[move] = 1.0
        led = _root(game, view, root_prior=prior / prior.sum(), c_prior=1.5)
        assert sum(led.values()) == sum(plain.values())
        assert led[move] > plain[move]


def test_the_planner_engine_makes_one_evaluator_call_a_decision():
    game, view = _position(1)
    ev = _Eval(game)
    agent = isz.make_agent("puct_ismcts", game, iterations=300, evaluator=ev,
                           engine="so_ismcts")
    a = agent.act(view, np.random.default_rng(0))
    assert a in view.legal_actions
    assert ev.rows == 1
    assert agent.last_simulations == 300
    timed = isz.make_agent("puct_ismcts", game, iterations=None, time_budget=0.02,
                           evaluator=ev, engine="so_ismcts")
    assert timed.act(view, np.random.default_rng(0)) in view.legal_actions
    assert timed.last_simulations > 16


@pytest.mark.parametrize("knobs,match", [
    ({"engine": "so"}, "unknown engine 'so'; allowed: puct, so_ismcts"),
    ({"engine": "so_ismcts"}, "needs an evaluator"),
    ({"engine": "so_ismcts", "final": "mirror", "evaluator": "ev"},
     "final='most_visits' or 'visit_distribution', got 'mirror'"),
    ({"engine": "so_ismcts", "c": -1, "evaluator": "ev"}, "c must be a number >= 0"),
    ({"value_mix": 0.5, "evaluator": "ev"}, "value_mix=0.5 needs engine='so_ismcts'"),
    ({"engine": "so_ismcts", "value_mix": 1.5, "evaluator": "ev"}, "value_mix"),
])
def test_bad_engine_knobs_are_named(knobs, match):
    game, _ = _position()
    if knobs.get("evaluator") == "ev":
        knobs = {**knobs, "evaluator": _Eval(game)}
    with pytest.raises(isz.IszError, match=match):
        isz.make_agent("puct_ismcts", game, **knobs)


class _Recording(_Eval):
    """`_Eval` that keeps every batch it is asked."""

    def __init__(self, game):
        super().__init__(game)
        self.batches = []

    def evaluate(self, tensors, masks):
        self.batches.append(np.array(tensors))
        return super().evaluate(tensors, masks)


def test_value_mix_values_the_own_view_after_each_move_in_one_call():
    """The rows are the seat's own view after each legal move, equal to the true
    state's although they are built in a world of the belief (no hidden card
    reaches them), and they ride in the priors' call."""
    game, st = _true_state(1)
    view = st.view(0)
    ev = _Recording(game)
    agent = isz.make_agent("puct_ismcts", game, iterations=300, evaluator=ev,
                           engine="so_ismcts", value_mix=0.5)
    assert agent.act(view, np.random.default_rng(0)) in view.legal_actions
    assert len(ev.batches) == 1 and ev.rows == 1 + len(view.legal_actions)
    want = [st.child(a).view(0).tensor().ravel() for a in view.legal_actions]
    np.testing.assert_array_equal(ev.batches[0][0], view.tensor().ravel())
    np.testing.assert_array_equal(ev.batches[0][1:], np.stack(want))


def test_value_mix_skips_a_decision_whose_moves_end_the_game():
    game, st = _true_state(1)
    rng = np.random.default_rng(2)
    while True:  # the last decision of the hand: every move ends it or passes it on
        view = st.view(st.current_player())
        if all(st.child(a).current_player() < 0 for a in view.legal_actions):
            break
        st.apply_action(int(rng.choice(view.legal_actions)))
    ev = _Eval(game)
    agent = isz.make_agent("puct_ismcts", game, iterations=50, evaluator=ev,
                           engine="so_ismcts", value_mix=0.5)
    agent.act(view, np.random.default_rng(0))
    assert ev.rows == 1


def test_a_root_value_draws_visits_and_zero_mix_ignores_it():
    """Scores favouring the move plain prior-led search visits least draw visits to
    it; with ``value_mix=0`` the search is the prior-led one bit for bit."""
    game, view = _position()
    prior = np.full(game.num_actions, 1.0 / len(view.legal_actions))
    led = _root(game, view, root_prior=prior, c_prior=1.5)
    worst = min(led, key=led.get)
    score = np.full(game.num_actions, 0.2)
    score[worst] = 0.9
    assert _root(game, view, root_prior=prior, c_prior=1.5, root_value=score,
                 value_mix=0.0) == led
    mixed = _root(game, view, root_prior=prior, c_prior=1.5, root_value=score, value_mix=0.5)
    assert sum(mixed.values()) == sum(led.values())
    assert mixed[worst] > 2 * led[worst]
    assert max(mixed, key=mixed.get) == worst
