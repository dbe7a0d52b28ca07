"""isz games against their OpenSpiel twins: the same rules, history for history.

Kuhn and Leduc: every history of the game, walked in lockstep in both.
Oh Hell (the preset and a small variant): random deals played in both. At
every node: the player to move, legal actions and chance outcomes with their
probabilities; at terminals the returns; at decisions the information-state
partition (two histories share an isz view key iff they share OpenSpiel's
information state string for the player to move).
"""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import VoidsBelief
from isz.games.tricks import points
from isz.openspiel import openspiel_twin
from isz.types import CHANCE, TERMINAL

pytest.importorskip("pyspiel")

SMALL_OH_HELL = dict(players=3, suits=4, ranks=4, hand_size=3, trump="card", bidding=True,
                     dealer="chance", hook=True)


class Partition:
    """Pairs (isz view key, OpenSpiel information state string) seen so far."""

    def __init__(self):
        self.pairs: set[tuple] = set()

    def add(self, state, os_state) -> None:
        p = state.current_player()
        self.pairs.add((state.view(p).key, os_state.information_state_string(p)))

    def check(self) -> None:
        keys = {k for k, _ in self.pairs}
        strings = {s for _, s in self.pairs}
        # a bijection: each key meets one string and each string one key
        assert len(keys) == len(strings) == len(self.pairs)


def _compare_node(twin, state, os_state) -> None:
    cur = state.current_player()
    if cur == TERMINAL:
        assert os_state.is_terminal()
        assert state.returns() == pytest.approx(twin.returns(os_state), abs=1e-12)
    elif cur == CHANCE:
        assert os_state.is_chance_node()
        mapped = sorted((twin.chance_from_openspiel(os_state, a), p)
                        for a, p in os_state.chance_outcomes())
        ours = sorted(state.chance_outcomes())
        assert [a for a, _ in mapped] == [a for a, _ in ours]
        assert [p for _, p in mapped] == pytest.approx([p for _, p in ours], abs=1e-12)
    else:
        assert os_state.current_player() == cur
        assert sorted(twin.action_from_openspiel(a) for a in os_state.legal_actions()) \
            == state.legal_actions()


@pytest.mark.parametrize("name, histories", [("kuhn_poker", 58), ("leduc_poker", 9457)])
def test_every_history_of_the_poker_games(name, histories):
    game = isz.make_game(name)
    twin = openspiel_twin(game)
    part, seen = Partition(), 0
    stack = [(game.new_initial_state(), twin.openspiel_game.new_initial_state())]
    while stack:
        state, os_state = stack.pop()
        seen += 1
        _compare_node(twin, state, os_state)
        assert twin.history(state) == os_state.history()
        assert np.array_equal(twin.isz_state(os_state).data, state.data)
        if state.is_terminal():
            continue
        if state.current_player() >= 0:
            part.add(state, os_state)
        for a in state.legal_actions() or [a for a, _ in state.chance_outcomes()]:
            os_a = twin.action_to_openspiel(a) if state.current_player() >= 0 else a
            stack.append((state.child(a), os_state.child(os_a)))
    assert seen == histories
    part.check()


def _play_oh_hell(game, twin, rng, part: Partition) -> None:
    """One random game: compare wherever the history has a twin (not mid-round of the
    deal), step OpenSpiel in lockstep after the deal, add partition pairs."""
    beliefs = VoidsBelief(game)
    state, os_state = game.new_initial_state(), None
    while True:
        try:
            fresh = twin.openspiel_state(state)
        except isz.IszError:
            assert 0 < state.data[3] < game.num_players * game.hand_size  # mid-deal only
            fresh = None
        if fresh is not None:
            if os_state is not None:
                assert os_state.history() == fresh.history()
            os_state = fresh
            _compare_node(twin, state, os_state)
            assert np.array_equal(twin.isz_state(os_state).data, state.data)
        if state.is_terminal():
            assert points(state) == [int(x) for x in os_state.returns()]
            return
        cur = state.current_player()
        if cur >= 0:
            part.add(state, os_state)
            # other worlds: the same view for cur, and views of the others for contrast
            for p in range(game.num_players):
                world = beliefs.sample(state.view(p), rng)
                part.add(world, twin.openspiel_state(world))
            a = state.legal_actions()[rng.integers(len(state.legal_actions()))]
            os_state.apply_action(twin.action_to_openspiel(a))
        else:
            a = state.sample_chance(rng)
            os_state = None if state.data[0] == 1 else os_state  # deal: rebuilt from hands
            if os_state is not None:
                os_state.apply_action(twin.history(state.child(a))[-1])
        state.apply_action(a)


@pytest.mark.parametrize("params, games", [({}, 6), (SMALL_OH_HELL, 25)])
def test_random_oh_hell_games(params, games):
    game = isz.make_game("oh_hell") if not params else isz.make_game("tricks", **params)
    twin = openspiel_twin(game)
    rng = np.random.default_rng(7)
    part = Partition()
    for _ in range(games):
        _play_oh_hell(game, twin, rng, part)
    part.check()
    assert len(part.pairs) > games * game.num_players * game.hand_size


@pytest.mark.slow
def test_a_thousand_oh_hell_games():
    game = isz.make_game("oh_hell")
    twin = openspiel_twin(game)
    rng = np.random.default_rng(11)
    part = Partition()
    for _ in range(1000):
        _play_oh_hell(game, twin, rng, part)
    part.check()


def test_card_names_agree_in_the_preset():
    game = isz.make_game("oh_hell")
    twin = openspiel_twin(game)
    os_state = twin.openspiel_game.new_initial_state()
    os_state.apply_action(10)
    os_state.apply_action(0)
    for card in range(52):
        assert os_state.action_to_string(twin.card_to_openspiel(card)) == game.card_name(card)


def test_games_without_a_twin_are_refused():
    for name, params in [("tricks", {}), ("coin_guess", {}), ("tricks", {**SMALL_OH_HELL,
                                                                        "hook": False})]:
        with pytest.raises(isz.IszError, match="no OpenSpiel twin"):
            openspiel_twin(isz.make_game(name, **params))
