"""``guided_so_ismcts``: the rollout SO-ISMCTS loop with the network's priors
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


def test_guided_so_ismcts_makes_one_evaluator_call_a_decision():
    game, view = _position(1)
    ev = _Eval(game)
    agent = isz.make_agent("guided_so_ismcts", game, iterations=300, evaluator=ev)
    a = agent.act(view, np.random.default_rng(0))
    assert a in view.legal_actions
    assert ev.rows == 1
    assert agent.last_simulations == 300
    timed = isz.make_agent("guided_so_ismcts", game, time_budget=0.02, evaluator=ev)
    assert timed.iterations is None
    assert timed.act(view, np.random.default_rng(0)) in view.legal_actions
    assert timed.last_simulations > 16


def test_it_is_the_old_puct_engine_so_ismcts_bit_for_bit():
    """Its root statistics are those of `so_search` with the evaluator's priors for
    the view, ``c`` below and ``c_puct`` at the root, seeded as the agent seeds it
    (what ``puct_ismcts engine=so_ismcts`` ran)."""
    from isz.search.evaluator import make_search_belief
    from isz.types import seed_from

    game, view = _position(2)
    ev = _Eval(game)
    agent = isz.make_agent("guided_so_ismcts", game, iterations=500, evaluator=ev, c=0.6,
                           c_puct=2.0, belief="uniform")
    agent.policy(view, np.random.default_rng(4))
    mask = np.zeros((1, game.num_actions), np.bool_)
    mask[0, list(view.legal_actions)] = True
    priors, _ = ev.evaluate(view.tensor().reshape(1, -1), mask)
    rng = np.random.default_rng(4)
    belief = make_search_belief("uniform", game, ev)
    tree = so_search(game, lambda n: belief.sample_many(view, n, rng), 0,
                     Budget(iterations=500), c=0.6, seed=seed_from(rng),
                     root_prior=priors[0], c_prior=2.0)
    assert agent.last_stats == tree.stats(0)


def test_without_an_evaluator_the_priors_are_uniform():
    game, view = _position(3)
    agent = isz.make_agent("guided_so_ismcts", game, iterations=400, belief="uniform")
    agent.policy(view, np.random.default_rng(1))
    rng = np.random.default_rng(1)
    belief = make_belief("uniform", game)
    from isz.types import seed_from

    prior = np.zeros(game.num_actions)
    prior[list(view.legal_actions)] = 1 / len(view.legal_actions)
    tree = so_search(game, lambda n: belief.sample_many(view, n, rng), 0,
                     Budget(iterations=400), c=0.7, seed=seed_from(rng), root_prior=prior,
                     c_prior=1.5)
    assert agent.last_stats == tree.stats(0)


@pytest.mark.parametrize("knobs,match", [
    ({"final": "mirror"}, "unknown final-move rule 'mirror'; allowed: most_visits, "
                          "visit_distribution"),
    ({"c": -1}, r"c \(exploration constant\) must be a number >= 0"),
    ({"c_puct": -1}, "c_puct must be a number >= 0"),
    ({"value_mix": 0.5, "evaluator": None}, "value_mix > 0 needs an evaluator"),
    ({"value_mix": 1.5}, r"value_mix must be a number in \[0, 1\]"),
    ({"fpu": 0.5}, "unknown knob.*fpu for agent 'guided_so_ismcts'"),
    ({"engine": "so_ismcts"}, "unknown knob.*engine"),
    ({"evaluator": "ev-like"}, "evaluator must be an Evaluator"),
])
def test_bad_settings_are_named(knobs, match):
    game, _ = _position()
    knobs = {"evaluator": _Eval(game), **knobs}
    with pytest.raises(isz.IszError, match=match):
        isz.make_agent("guided_so_ismcts", game, **knobs)


def test_puct_ismcts_takes_no_engine_or_rollout_settings():
    game, _ = _position()
    for knobs in ({"engine": "so_ismcts"}, {"c": 0.7}, {"value_mix": 0.5}):
        with pytest.raises(isz.IszError, match="unknown knob.*for agent 'puct_ismcts'"):
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
    agent = isz.make_agent("guided_so_ismcts", game, iterations=300, evaluator=ev,
                           value_mix=0.5)
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
    # voids: sir would weigh the opponent's plays with rows of its own in this count
    agent = isz.make_agent("guided_so_ismcts", game, iterations=50, evaluator=ev,
                           value_mix=0.5, belief="voids")
    agent.act(view, np.random.default_rng(0))
    assert ev.rows == 1  # the priors' row alone: no value rows for moves that end it


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


def test_without_a_prior_the_root_value_mixes_into_ucb():
    """``c_prior=0`` with a root value: so_ismcts's UCB root on the mixed mean. Scores
    favouring the move plain so_ismcts visits least draw it the most visits; with
    ``value_mix=0`` (or no prior term and no value) it is so_ismcts bit for bit."""
    game, view = _position()
    plain = _root(game, view)
    worst = min(plain, key=plain.get)
    score = np.full(game.num_actions, 0.2)
    score[worst] = 0.9
    ones = np.ones(game.num_actions)
    assert _root(game, view, root_prior=ones, c_prior=0.0, root_value=score,
                 value_mix=0.0) == plain
    mixed = _root(game, view, root_prior=ones, c_prior=0.0, root_value=score,
                  value_mix=0.5)
    assert sum(mixed.values()) == sum(plain.values())
    assert max(mixed, key=mixed.get) == worst
    assert mixed[worst] > 2 * plain[worst]


def test_a_leaf_registered_in_leaves_scores_the_worlds_below_the_tree():
    """``leaf`` picks how so_search scores the world below its tree: ``playout``
    explicitly is the default bit for bit; a leaf added to `LEAVES` is used (one that
    scores every world as a win for seat 0 makes every root move look equally good,
    so the visits spread evenly); an unknown name is refused naming the allowed."""
    from isz.search import playout
    from isz.search.jit import helper
    from isz.types import IszError

    def seat0_wins(kernel):
        @helper
        def leaf(s, params, me, rng, b, k):
            for i in range(b.scores.shape[0]):
                b.scores[i] = 1.0 if i == 0 else 0.0
        return leaf

    game, view = _position()
    assert _root(game, view, leaf="playout") == _root(game, view)
    playout.LEAVES["seat0_wins"] = seat0_wins
    try:
        visits = np.array(list(_root(game, view, leaf="seat0_wins").values()))
        agent = isz.make_agent("so_ismcts", game, iterations=50, leaf="seat0_wins")
        assert agent.knobs["leaf"] == "seat0_wins"
    finally:
        playout.LEAVES.pop("seat0_wins")
    assert visits.max() - visits.min() <= 1  # every move scores 1: UCB visits them in turn
    with pytest.raises(IszError, match="leaf must be one of playout, policy, got 'seat0_wins'"):
        isz.make_agent("so_ismcts", game, leaf="seat0_wins")
