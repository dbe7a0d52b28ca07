"""The tutorial's outside game: its rules, its conformance, the exact posterior on it,
and that agents keep to its views."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import isz
from isz.belief import PosteriorBelief, UniformBelief
from isz.games.base import State
from isz.games.testing import ConformanceError, check_game
from tests.examples.twins import assert_same_action_on_twins

ROOT = Path(__file__).resolve().parents[2]


def _decision(game, rng, after: int):
    """A random history played to its first decision after ``after`` steps."""
    state = game.new_initial_state()
    while state.current_player() < 0 or len(_steps(state)) <= after:
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def _steps(state):
    return [x for x in state.data if x >= 0]  # every step fills one slot


def _play(game, actions):
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


@pytest.mark.parametrize("cards", [2, 3, 4])
def test_conformance(goofspiel, cards):
    check_game(isz.make_game("goofspiel", cards=cards), histories=30)


def test_rules_and_what_each_player_sees(goofspiel):
    game = isz.make_game("goofspiel", cards=3)
    # prize 3; bids 2 vs 3: player 1 wins; prize 1; bids 1 vs 1: tie (discarded)
    s = _play(game, [2, 1])
    assert s.current_player() == 1 and s.legal_actions() == [0, 1, 2]
    assert s.view(1).data[-1] == 1  # player 1 counts the bid it has not seen
    assert s.view(1).data == _play(game, [2, 0]).view(1).data  # ...whatever it was
    s.apply_action(2)
    assert s.chance_outcomes() == [(3 + 1, 1.0)]  # the announcement: player 1 won
    s.apply_action(4)
    for a in (0, 0, 0, 3 + 2):  # prize 1, bids 1 vs 1, tie
        s.apply_action(a)
    assert s.legal_actions() == [] and s.chance_outcomes() == [(1, 1.0)]  # prize 2 is left
    for a in (1, 2, 1, 3 + 0):  # prize 2, bids 3 vs 2: player 0 wins 2 points
        s.apply_action(a)
    assert s.is_terminal() and s.returns() == [-1.0, 1.0]  # 2 points to 3
    assert str(s) == "prizes 3 1 2 | bids 2 1 3 vs 3 1 2 | won 1 = 0"
    assert game.outcome_stats(s) == {"points": [2.0, 3.0]}


def test_bad_parameters(goofspiel):
    with pytest.raises(isz.IszError, match=r"cards must be an integer in \[2, 6\], got 7"):
        isz.make_game("goofspiel", cards=7)


def _skewed(view):
    """Card-dependent: bid high on a high prize, low on a low one."""
    game, legal = view.game, list(view.legal_actions)
    n = game.num_actions
    r = sum(1 for c in view.data[2 * n:3 * n] if c >= 0)
    prize = view.data[r]
    p = np.zeros(n)
    for a in legal:
        p[a] = 1.0 + 4.0 * (a == prize) + a * prize
    return p / p.sum()


def _brute_force(game, policy):
    """{view key: {world: probability}} over the whole tree, every seat's policy
    (own included) in the reach: no perfect-recall shortcut."""
    mass: dict = {}

    def walk(state, reach):
        for p in range(game.num_players):
            worlds = mass.setdefault(state.view(p).key, {})
            worlds[tuple(state.data)] = worlds.get(tuple(state.data), 0.0) + reach
        cur = state.current_player()
        if cur == isz.TERMINAL:
            return
        moves = state.chance_outcomes() if cur == isz.CHANCE else \
            [(a, policy(state.view(cur))[a]) for a in state.legal_actions()]
        for a, q in moves:
            if q > 0:
                walk(state.child(a), reach * q)

    walk(game.new_initial_state(), 1.0)
    return {k: {w: m / sum(ws.values()) for w, m in ws.items()} for k, ws in mass.items()}


def test_exact_posterior_equals_brute_force(goofspiel):
    game = isz.make_game("goofspiel", cards=3)
    exact = _brute_force(game, _skewed)
    belief = PosteriorBelief(game, policy=_skewed)
    rng, skewed = np.random.default_rng(0), 0
    for _ in range(40):
        state = _decision(game, rng, int(rng.integers(0, 10)))
        view = state.view(state.current_player())
        got = belief.posterior(view)
        want = exact[view.key]
        assert set(got) == set(want)
        assert max(abs(got[w] - want[w]) for w in want) < 1e-12
        skewed += len(want) > 1 and max(want.values()) - min(want.values()) > 0.05
    assert skewed >= 5  # the policy really moves the posterior away from uniform


def test_uniform_determinizations_are_the_uniform_posterior(goofspiel):
    """The game's own redeterminize is uniform over the consistent hidden bids: the
    generic posterior under a uniform opponent says the same."""
    game = isz.make_game("goofspiel", cards=3)
    s = _play(game, [2, 1, 2, 4, 0, 0])  # prize 3: 2 vs 3 (player 1 wins); prize 1: a bid
    view = s.view(1)
    post = PosteriorBelief(game).posterior(view)
    assert len(post) == 2 * 2  # player 0 bid 1 or 2 in round one, then one of its 2 others
    worlds = UniformBelief(game).sample_many(view, 4000, np.random.default_rng(0))
    freq: dict = {}
    for w in worlds:
        freq[tuple(w)] = freq.get(tuple(w), 0) + 1 / len(worlds)
    assert set(freq) == set(post)
    assert max(abs(freq[w] - post[w]) for w in post) < 0.03  # ~4 SE at 4,000 samples


def test_same_view_same_action(goofspiel):
    """Two true states that share the deciding player's view: one action (5 such pairs),
    for the planner searching worlds of the exact posterior."""
    agent, knobs = "puct_ismcts", {"iterations": 30, "belief": "posterior"}
    game = isz.make_game("goofspiel", cards=3)
    rng = np.random.default_rng(3)
    states = (_decision(game, rng, int(rng.integers(3, 9))) for _ in range(30))
    assert_same_action_on_twins(game, states, lambda: isz.make_agent(agent, game, **knobs), rng)


def test_checkpoint_records_the_module_and_a_fresh_process_loads_it(goofspiel, tmp_path):
    import torch

    from isz.nn.checkpoint import load_checkpoint, save_checkpoint
    from isz.nn.model import ModelConfig, build_model

    def save(game, name):
        return save_checkpoint(tmp_path / name, model=build_model(game, ModelConfig(8, 0)),
                               game=game, model_cfg=ModelConfig(8, 0))

    path = save(isz.make_game("goofspiel", cards=3), "g.pt")
    assert load_checkpoint(path)["game_module"] == "examples.goofspiel"
    assert load_checkpoint(save(isz.make_game("kuhn_poker"), "k.pt"))["game_module"] is None
    code = (f"import isz; p = isz.load_planner({str(path)!r}, iterations=4); "
            "print(p.game, 'goofspiel' in isz.game_names())")
    ok = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                        text=True, timeout=300)  # examples/ is importable from the checkout
    assert ok.returncode == 0 and ok.stdout.split() == ["goofspiel(cards=3)", "True"], ok.stderr
    # a module this environment cannot import: one clear error, nothing run
    ckpt = torch.load(path, weights_only=True)
    ckpt["game"]["name"], ckpt["game_module"] = "goofspiel_elsewhere", "elsewhere.goofspiel"
    torch.save(ckpt, tmp_path / "elsewhere.pt")
    with pytest.raises(isz.IszError, match="cannot import game module 'elsewhere.goofspiel'"):
        isz.load_planner(str(tmp_path / "elsewhere.pt"))


def test_check_game_catches_each_unwritten_rule(goofspiel):
    """The tutorial's three rules, each broken on purpose, and the error each gives."""

    class NoCount(goofspiel.Goofspiel):  # rule 1: the opponent's bids are not counted
        def view_data(self, state, player):
            return super().view_data(state, player)[:-1] + (0,)

    class NoMark(goofspiel.Goofspiel):  # rule 2: hidden bids left unmarked
        def state_from_view(self, view):
            n, d, p = self.num_actions, view.data, view.player
            s = self.initial_data()
            s[:n], s[n + n * p:2 * n + n * p], s[3 * n:] = d[:n], d[n:2 * n], d[2 * n:3 * n]
            return State(self, s)

    broken_kparams = goofspiel.Goofspiel(cards=3)  # rule 3
    broken_kparams.kparams = np.zeros(0, np.int64)
    for game, words in ((NoCount(cards=3), "the view forgets something the player observed"),
                        (NoMark(cards=3), "state_from_view gives another view"),
                        (broken_kparams, "kparams must be a non-empty 1-d int64 array")):
        with pytest.raises(ConformanceError, match=words):
            check_game(game)
