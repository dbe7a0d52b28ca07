"""The exact posterior against brute-force enumeration of whole histories (poker here;
an outside game in tests/examples/test_goofspiel.py)."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import PosteriorBelief, UniformBelief, make_belief
from isz.belief.diagnostics import effective_sample_size, entropy, true_state_probability
from isz.evaluation import match
from isz.games.base import State
from tests.conftest import random_history

POKER = ["kuhn_poker", "leduc_poker"]


def skewed_policy(view):
    """Card-dependent and far from uniform: strong hands raise, weak ones fold/check."""
    game, legal = view.game, list(view.legal_actions)
    rank = view.data[0] if game.name == "kuhn_poker" else view.data[0] // 2
    p = np.zeros(game.num_actions)
    for a in legal:
        p[a] = (1.0 + 3.0 * rank) if a == game.num_actions - 1 else (3.0 - rank) * (1 + a)
    return p / p.sum()


def uniform(view):
    p = np.zeros(view.game.num_actions)
    p[list(view.legal_actions)] = 1.0 / len(view.legal_actions)
    return p


def brute_force(game, state, player, policy):
    """P(opponent card | view) by summing the full reach of every history (chance,
    both players' policies) whose view for ``player`` matches, depth by depth."""
    target = [game.new_initial_state()]
    for a in _history(game, state):
        target.append(target[-1].child(a))
    keys = [s.view(player).key for s in target]
    mass: dict[int, float] = {}

    def walk(s, depth, reach):
        if s.view(player).key != keys[depth]:
            return
        if depth == len(keys) - 1:
            card = (int(s.data[1 - player]),)
            mass[card] = mass.get(card, 0.0) + reach
            return
        cur = s.current_player()
        if cur == isz.CHANCE:
            moves = s.chance_outcomes()
        else:
            moves = [(a, policy(s.view(cur))[a]) for a in s.legal_actions()]
        for a, p in moves:
            if p > 0:
                walk(s.child(a), depth + 1, reach * p)

    walk(game.new_initial_state(), 0, 1.0)
    total = sum(mass.values())
    return {c: m / total for c, m in mass.items()}


def _history(game, state):
    """Replay order of a poker state: deals, round-1 bets, public card, round-2 bets."""
    s = state.data
    if game.name == "kuhn_poker":
        return [int(c) for c in s[:2] if c >= 0] + s[3:3 + s[2]].tolist()
    h = [int(c) for c in s[:2] if c >= 0] + s[11:11 + s[9]].tolist()
    return h + ([int(s[2])] if s[2] >= 0 else []) + s[15:15 + s[10]].tolist()


def decisions(name, count, seed):
    """``count`` decision states of ``name``, each one decision of a seeded random game
    (the last one every other time, so that most have opponent actions)."""
    game, rng, out = isz.make_game(name), np.random.default_rng(seed), []
    while len(out) < count:
        replay, found = game.new_initial_state(), []
        for a in _history(game, random_history(game, rng, game.max_game_length)):
            if replay.current_player() >= 0:
                found.append(replay.clone())
            replay.apply_action(a)
        out.append(found[-1] if len(out) % 2 else found[rng.integers(len(found))])
    return game, out


def tv(p: dict, q: dict) -> float:
    return 0.5 * sum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in set(p) | set(q))


@pytest.mark.parametrize("name", POKER)
@pytest.mark.parametrize("policy", [None, skewed_policy], ids=["uniform", "skewed"])
def test_posterior_equals_brute_force(name, policy):
    game, states = decisions(name, 8, seed=7)
    belief = make_belief("posterior", game, **({} if policy is None else {"policy": policy}))
    nonuniform = 0
    for state in states:
        p = state.current_player()
        exact = brute_force(game, state, p, policy or uniform)
        got = belief.posterior(state.view(p))
        assert set(got) == set(exact) and tv(got, exact) < 1e-12, (str(state), got, exact)
        nonuniform += max(got.values()) - min(got.values()) > 0.01
    assert nonuniform >= (3 if policy else 0)  # the skewed policy really moves the posterior


@pytest.mark.parametrize("name", POKER)
def test_samples_match_posterior(name):
    game, states = decisions(name, 3, seed=11)
    belief = make_belief("posterior", game, policy=skewed_policy)
    for state in states:
        view = state.view(state.current_player())
        worlds = belief.sample_many(view, 20_000, np.random.default_rng(3))
        cards, counts = np.unique(worlds[:, 1 - view.player], return_counts=True)
        freq = {(c,): f for c, f in zip(cards.tolist(), counts / len(worlds), strict=True)}
        assert tv(freq, belief.posterior(view)) < 0.02
        for w in worlds[:500]:  # the checker loop: every world has the view's key
            assert State(game, w).view(view.player).key == view.key


@pytest.mark.parametrize("name", POKER)
def test_every_sample_has_the_view_key(name):
    game, states = decisions(name, 12, seed=5)
    for state in states:
        for player in range(2):
            view = state.view(player)
            for w in PosteriorBelief(game).sample_many(view, 50, np.random.default_rng(0)):
                assert State(game, w).view(player).key == view.key


def test_before_the_deal_nothing_is_hidden():
    game = isz.make_game("kuhn_poker")
    s = game.new_initial_state().child(2)
    assert PosteriorBelief(game).posterior(s.view(0)) == {(): 1.0}
    assert true_state_probability(PosteriorBelief(game), s.view(0), s) == 1.0


def test_off_model_opponent_falls_back_to_chance():
    game = isz.make_game("kuhn_poker")
    never_bets = lambda view: np.array([1.0, 0.0])  # noqa: E731
    s = game.new_initial_state()
    for a in (0, 1, 1):  # J to the opponent, Q to me; the opponent bets
        s.apply_action(a)
    belief = make_belief("posterior", game, policy=never_bets)
    assert belief.posterior(s.view(1)) == {(0,): 0.5, (2,): 0.5} and belief.fallbacks == 1


@pytest.mark.parametrize("knobs, word", [({"policy": 3}, "callable"), ({"particles": 5}, "policy")])
def test_bad_knobs(knobs, word):
    with pytest.raises(isz.IszError, match=word):
        make_belief("posterior", isz.make_game("kuhn_poker"), **knobs)


def test_too_large_a_game_is_refused_with_the_cap():
    with pytest.raises(isz.IszError, match="posterior.*'recon' has more than 1000 histories"):
        make_belief("posterior", isz.make_game("recon"), max_histories=1000)
    with pytest.raises(isz.IszError, match="max_histories must be"):
        make_belief("posterior", isz.make_game("kuhn_poker"), max_histories=0)


def test_bad_policy_output_is_named():
    game, states = decisions("kuhn_poker", 1, seed=1)
    belief = make_belief("posterior", game, policy=lambda v: np.array([0.5]))
    with pytest.raises(isz.IszError, match="probabilities"):
        belief.posterior(states[0].view(states[0].current_player()))


@pytest.mark.parametrize("name", POKER)
def test_agent_with_posterior_does_not_leak(name):
    game, states = decisions(name, 6, seed=9)
    for state in states:
        p = state.current_player()
        view = state.view(p)
        twin = next((State(game, w.copy()) for w in UniformBelief(game).sample_many(
            view, 32, np.random.default_rng(0)) if not np.array_equal(w, state.data)), state)
        acts = [isz.make_agent("so_ismcts", game, belief=make_belief(
                    "posterior", game, policy=skewed_policy), iterations=200)
                .act(s.view(p), np.random.default_rng(4)) for s in (state, twin)]
        assert acts[0] == acts[1] and acts[0] in view.legal_actions
    agent = isz.make_agent("so_ismcts", game, belief="posterior", iterations=200)
    assert agent.act(view, np.random.default_rng(0)) in view.legal_actions


def test_diagnostics_through_the_arena_hook():
    game = isz.make_game("leduc_poker")
    agents = [isz.make_agent("so_ismcts", game, belief="posterior", iterations=50),
              isz.make_agent("random", game)]
    probs = []
    match(game, agents, deals=3, seed=0, progress=False,
          on_decision=lambda state, seat, view, agent: probs.append(
              true_state_probability(agent.belief, view, state)) if hasattr(
              agent, "belief") else None)
    # uniform policy: the true card has 1/4 or 1/5 of the mass (public card seen or not)
    assert probs and all(np.isclose(q, 0.25) or np.isclose(q, 0.2) for q in probs)
    s = game.new_initial_state()
    for a in (0, 3, 1, 1):  # Js vs Qh, check, check: the public card is still to come
        s.apply_action(a)
    sampled = true_state_probability(UniformBelief(game), s.view(0), s, samples=4000)
    assert abs(sampled - 0.2) < 0.03  # uniform over 5 unseen cards, estimated by sampling


def test_sample_statistics():
    assert effective_sample_size([1, 1, 1, 1]) == 4.0
    assert effective_sample_size([1, 0, 0, 0]) == 1.0 and effective_sample_size([0, 0]) == 0.0
    assert np.isclose(entropy([0.5, 0.5]), np.log(2)) and entropy({3: 1.0}) == 0.0
    with pytest.raises(isz.IszError, match="weights"):
        effective_sample_size([1, -1])
    with pytest.raises(isz.IszError, match="probs"):
        entropy([0.0, 0.0])


@pytest.mark.parametrize("name", POKER)
def test_stratified_counts_and_unbiased_slots(name):
    """Every card appears n * p times up to one, and each slot is still drawn by p."""
    game, states = decisions(name, 3, seed=11)
    belief = make_belief("posterior", game, policy=skewed_policy)
    for state in states:
        view = state.view(state.current_player())
        post = belief.posterior(view)
        for n in (1, 7, 64):
            worlds = belief.sample_many(view, n, np.random.default_rng(n))
            cards = [(c,) for c in worlds[:, 1 - view.player].tolist()]
            for c, p in post.items():
                assert abs(cards.count(c) - n * p) < 1.0 + 1e-9, (c, p, n)
        first = [(int(belief.sample_many(view, 3, np.random.default_rng(s))[0, 1 - view.player]),)
                 for s in range(6000)]
        freq = {c: first.count(c) / len(first) for c in set(first)}
        assert tv(freq, post) < 0.03


def test_search_belief_weighs_histories_by_the_evaluator():
    from isz.search.evaluator import make_search_belief

    class BetsWithKingOnly:
        """Kuhn: bet (action 1) with the king only, else pass; value 0."""

        def evaluate(self, tensors, masks):
            king = tensors[:, 2] == 1.0
            p = np.stack([~king, king], axis=1).astype(np.float32)
            return p * masks, np.zeros((len(tensors), 2), np.float32)

    game = isz.make_game("kuhn_poker")
    s = game.new_initial_state()
    s.apply_action(2)  # player 0: king
    s.apply_action(1)  # player 1: queen
    s.apply_action(1)  # player 0 bets
    view = s.view(1)
    assert make_search_belief("posterior", game, BetsWithKingOnly()).posterior(view) \
        == pytest.approx({(0,): 0.0, (2,): 1.0})
    assert make_search_belief("posterior", game, BetsWithKingOnly(), "uniform") \
        .posterior(view) == pytest.approx({(0,): 0.5, (2,): 0.5})
    # beliefs without a policy knob ignore the evaluator
    assert make_search_belief("uniform", game, BetsWithKingOnly()).name == "uniform"
    with pytest.raises(isz.IszError, match="belief policy 'net'.*network, uniform"):
        make_search_belief("posterior", game, BetsWithKingOnly(), "net")
