"""The second outside game, Liar's Dice (examples/liars_dice.py): its conformance, its
rules (wild faces, who loses a call, rising bids), what each seat sees, its uniform
resampler, and OpenSpiel's liars_dice as its twin where OpenSpiel is installed."""

from __future__ import annotations

import numpy as np
import pytest

import isz
from isz.belief import PosteriorBelief, UniformBelief
from tests.examples.twins import assert_planner_decides_from_view


def _bid(q, f, faces=6):
    return (q - 1) * faces + (f - 1)


def _play(game, dice, actions=()):
    """Roll ``dice`` (faces 1..F, player 0's first), then make ``actions``."""
    state = game.new_initial_state()
    for f in dice:
        state.apply_action(f - 1)
    for a in actions:
        state.apply_action(a)
    return state


@pytest.mark.parametrize("dice, faces", [(1, 2), (1, 6), (2, 3), (3, 6)])
def test_conformance(liars_dice, dice, faces):
    from isz.games.testing import check_game

    check_game(isz.make_game("liars_dice", dice=dice, faces=faces), histories=30)


# dice: player 0 rolls 3 and 6, player 1 rolls 3 and 2. Sixes are wild, so a bid on
# 3 counts three dice, on 2 two, on 1 one, and a bid on 6 only the one 6.
@pytest.mark.parametrize("bids, result", [
    ([_bid(3, 3)], [1.0, -1.0]),           # 3x3 holds: the caller (player 1) loses
    ([_bid(4, 3)], [-1.0, 1.0]),           # 4x3 does not: the bidder (player 0) loses
    ([_bid(2, 2)], [1.0, -1.0]),           # a 2 and the wild 6
    ([_bid(1, 1), _bid(1, 6)], [-1.0, 1.0]),  # one 6: holds, the caller (player 0) loses
    ([_bid(1, 1), _bid(2, 6)], [1.0, -1.0]),  # a bid on 6 counts only 6s, not the 3s twice
    ([_bid(1, 1), _bid(2, 1)], [1.0, -1.0]),  # one wild 6 and no 1: the bidder loses
])
def test_a_call_counts_the_wild_face(liars_dice, bids, result):
    game = isz.make_game("liars_dice", dice=2)
    state = _play(game, [3, 6, 3, 2], bids)
    assert not state.is_terminal()
    state.apply_action(game.num_actions - 1)  # liar
    assert state.is_terminal() and state.returns() == result


def test_bids_rise_and_liar_needs_a_bid(liars_dice):
    game = isz.make_game("liars_dice", dice=2, faces=3)  # bids 0..11, liar 12
    state = _play(game, [1, 2, 3, 3])
    assert state.current_player() == 0
    assert state.legal_actions() == list(range(12))  # no liar before the first bid
    with pytest.raises(isz.IllegalActionError):
        state.apply_action(12)
    state.apply_action(_bid(2, 2, 3))  # 4
    assert state.current_player() == 1 and state.legal_actions() == [*range(5, 12), 12]
    for lower in (0, 3, 4):  # a lower or an equal bid
        with pytest.raises(isz.IllegalActionError):
            state.apply_action(lower)
    state.apply_action(_bid(3, 1, 3))  # 6: a higher quantity on a lower face
    assert state.current_player() == 0 and state.legal_actions() == [*range(7, 12), 12]
    state.apply_action(12)
    assert state.is_terminal() and state.legal_actions() == []
    assert str(state) == "dice 1 2 vs 3 3 | bids 2x2 3x1 liar"
    # one 1 and two wild 3s: 3x1 holds, the caller (player 0) loses
    assert state.returns() == [-1.0, 1.0]


def test_only_liar_after_the_top_bid(liars_dice):
    game = isz.make_game("liars_dice", dice=1, faces=4)
    top = _bid(2, 4, 4)
    state = _play(game, [1, 2], [top])
    assert state.legal_actions() == [game.num_actions - 1] == [top + 1]
    state.apply_action(top + 1)
    assert state.returns() == [-1.0, 1.0]  # no 4 among 1 and 2: the top bid was a lie


def test_each_seat_sees_its_own_dice_and_every_bid(liars_dice):
    game = isz.make_game("liars_dice", dice=2, faces=6)
    kernel, kp = game.kernel, game.kparams
    # player 1 sees that player 0 rolled, not what
    s = game.new_initial_state()
    assert kernel.observe(s.data, kp, 4, 0) == 4 and kernel.observe(s.data, kp, 4, 1) == -1
    s.apply_action(4)
    assert s.view(1).key == _play(game, [1]).view(1).key != _play(game, []).view(1).key
    s = _play(game, [5, 2])
    assert kernel.observe(s.data, kp, 0, 0) == -1 and kernel.observe(s.data, kp, 0, 1) == 0
    # bids are public
    s = _play(game, [5, 2, 1, 1])
    assert all(kernel.observe(s.data, kp, 7, p) == 7 for p in (0, 1))
    # two worlds differing only in the opponent's dice: one view, one tensor per seat
    bids = [_bid(1, 4), _bid(2, 2)]
    a, b = _play(game, [5, 2, 1, 1], bids), _play(game, [5, 2, 6, 3], bids)
    assert a.view(0).key == b.view(0).key
    assert np.array_equal(a.view(0).tensor(), b.view(0).tensor())
    assert not np.array_equal(a.view(1).tensor(), b.view(1).tensor())
    c = _play(game, [2, 5, 1, 1], bids)  # player 0's dice reordered: its own view differs
    assert not np.array_equal(a.view(0).tensor(), c.view(0).tensor())
    assert np.array_equal(a.view(1).tensor(), c.view(1).tensor())
    # the tensor's layout: own dice, who made each bid, liar, the player one-hot
    t = a.view(1).tensor()
    assert t.shape == (5 * 2 * 6 + 3,)
    assert np.flatnonzero(t).tolist() == [0, 6, 12 + 2 * bids[0], 12 + 2 * bids[1] + 1,
                                          12 + 48 + 1 + 1]
    assert a.view(0).data == (4, 1, 2, *bids)
    assert game.describe(a.view(1)).endswith("your dice: 1 1 (6s are wild)\nbids: 1x4 2x2")


def test_redeterminize_redraws_only_the_opponents_dice(liars_dice):
    game = isz.make_game("liars_dice", dice=1, faces=3)
    state = _play(game, [2, 3], [_bid(1, 3, 3), _bid(2, 1, 3)])
    view = state.view(0)
    worlds = UniformBelief(game).sample_many(view, 3000, np.random.default_rng(0))
    assert (worlds[:, 0] == 1).all() and (worlds[:, 2:] == state.data[2:]).all()
    freq = np.bincount(worlds[:, 1], minlength=3) / len(worlds)
    assert np.abs(freq - 1 / 3).max() < 0.04  # ~4 SE at 3,000 samples
    # the exact posterior under uniform play agrees: the bids say nothing of the dice
    post = PosteriorBelief(game).posterior(view)
    assert sorted(w[1] for w in post) == [0, 1, 2]
    assert max(abs(p - 1 / 3) for p in post.values()) < 1e-12
    # a seat before the opponent has rolled: nothing to draw
    early = _play(game, [2])
    assert np.array_equal(UniformBelief(game).sample_many(early.view(0), 4,
                                                          np.random.default_rng(0))[:, 1],
                          [-1] * 4)


def test_the_posterior_reads_the_bids_through_a_policy(liars_dice):
    """Weighed by a policy that opens on the face it holds, the opponent's opening bid
    tells its die: the exact posterior (what `belief=auto` picks with a network on a game
    it can enumerate) puts its weight there, where the uniform resampler cannot."""
    game = isz.make_game("liars_dice", dice=1, faces=3)

    def honest(view):  # player 0 opens "one of my face"; anything else uniform
        p = np.zeros(game.num_actions)
        p[list(view.legal_actions)] = 1.0
        if view.player == 0 and len(view.data) == 2:  # own die, opponent's rolled count
            p[:] = 0.0
            p[_bid(1, view.data[0] + 1, 3)] = 1.0
        return p / p.sum()

    view = _play(game, [2, 3], [_bid(1, 2, 3)]).view(1)
    post = PosteriorBelief(game, policy=honest).posterior(view)  # hidden part: the state
    assert sum(p for h, p in post.items() if h[0] == 1) == pytest.approx(1.0)
    worlds = PosteriorBelief(game, policy=honest).sample_many(view, 300,
                                                             np.random.default_rng(0))
    assert (worlds[:, 0] == 1).all()  # the opened face, die 2 (index 1), every time
    uniform = UniformBelief(game).sample_many(view, 300, np.random.default_rng(0))
    assert 0.2 < (uniform[:, 0] == 1).mean() < 0.47  # a third, ~4 SE either side


@pytest.mark.slow
def test_auto_weighs_the_default_game_by_the_network(liars_dice):
    """One die each (294,883 histories) is under the posterior's enumeration cap, so a
    network planner's `belief=auto` is the exact posterior; two dice are over it, and
    the kernel's `history` makes them weighable by `replay`. Without a network `auto`
    stays knowledge-free."""
    from isz.belief.registry import resolve_belief

    assert resolve_belief("auto", isz.make_game("liars_dice"), network=True) == "posterior"
    assert resolve_belief("auto", isz.make_game("liars_dice", dice=2), network=True) \
        == "replay"
    assert resolve_belief("auto", isz.make_game("liars_dice", dice=2)) == "uniform"


@pytest.mark.parametrize("params, words", [
    ({"dice": 4}, r"dice must be an integer in \[1, 3\], got 4"),
    ({"dice": 0}, r"dice must be an integer in \[1, 3\], got 0"),
    ({"dice": True}, r"dice must be an integer in \[1, 3\], got True"),
    ({"faces": 7}, r"faces must be an integer in \[2, 6\], got 7"),
    ({"faces": 1}, r"faces must be an integer in \[2, 6\], got 1"),
    ({"faces": 2.0}, r"faces must be an integer in \[2, 6\], got 2.0"),
    ({"sides": 6}, r"unknown parameter\(s\) sides"),
])
def test_bad_parameters(liars_dice, params, words):
    with pytest.raises(isz.IszError, match=words):
        isz.make_game("liars_dice", **params)


def _walk_twins(game, os_game, state, os_state, infosets):
    """Every history below ``state``, in lockstep with OpenSpiel's."""
    cur = state.current_player()
    if cur == isz.TERMINAL:
        assert os_state.is_terminal() and state.returns() == os_state.returns()
        return
    if cur == isz.CHANCE:
        assert os_state.is_chance_node()
        ours, theirs = state.chance_outcomes(), os_state.chance_outcomes()
        assert [a for a, _ in ours] == [a for a, _ in theirs]
        assert [p for _, p in ours] == pytest.approx([p for _, p in theirs], abs=1e-12)
        moves = [a for a, _ in ours]
    else:
        assert os_state.current_player() == cur
        assert state.legal_actions() == os_state.legal_actions()
        infosets.add((state.view(cur).key, os_state.information_state_string(cur)))
        moves = state.legal_actions()
    for a in moves:
        _walk_twins(game, os_game, state.child(a), os_state.child(a), infosets)


def test_openspiel_twin(liars_dice):
    """OpenSpiel's liars_dice, history for history: turns, legal actions (the same ids),
    chance, returns, and the information-state partition at every decision (up to the
    order of a seat's own dice)."""
    pyspiel = pytest.importorskip("pyspiel")
    for dice, faces in ((1, 3), (2, 2)):
        game = isz.make_game("liars_dice", dice=dice, faces=faces)
        os_game = pyspiel.load_game("liars_dice", {"numdice": dice, "dice_sides": faces})
        infosets: set = set()
        _walk_twins(game, os_game, game.new_initial_state(), os_game.new_initial_state(),
                    infosets)
        # OpenSpiel's string lists the own dice sorted, an isz view in the order they
        # were rolled (the observations): the same partition once the dice are sorted
        keys = {k for k, _ in infosets}
        assert len(keys) == len(infosets)  # a key meets one string
        canon = {((p, (*sorted(d[:dice]), *d[dice:])), s) for (p, d), s in infosets}
        assert len(canon) == len({k for k, _ in canon}) == len({s for _, s in canon})
        assert (len(keys) > len(canon)) == (dice > 1)


@pytest.mark.parametrize("dice, belief", [(1, "posterior"), (2, "replay")])
def test_the_network_planner_decides_from_the_view(liars_dice, tmp_path, dice, belief):
    """The default recipe's planner on this game: guided_so_ismcts whose worlds come from
    the exact posterior weighed by its network (one die), or from uniform worlds weighed
    by it along their replayed histories (two dice: over the posterior's cap). Two true
    states that share the deciding seat's view (the opponent's dice differ) give one
    action, for 5 such pairs."""
    pytest.importorskip("torch")
    game = isz.make_game("liars_dice", dice=dice, faces=3)
    assert_planner_decides_from_view(game, tmp_path / "ld.pt",
                                     lambda rng: _bidding(game, dice, rng), belief)


def _bidding(game, dice, rng, deals=40):
    """States after the rolls and a few rising bids (terminal ones included)."""
    for _ in range(deals):
        state = _play(game, [int(rng.integers(1, 4)) for _ in range(2 * dice)])
        for _ in range(int(rng.integers(0, 3))):  # a few rising bids
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions()[:-1] or [0])))
        yield state


def test_the_checker_catches_a_history_that_is_not_the_play(liars_dice):
    """`check_game` holds `Kernel.history` to the actions played: one that forgets the
    bids is refused."""
    import dataclasses

    import numba as nb

    from isz.games.testing import ConformanceError, check_game

    @nb.njit(cache=False)
    def rolls_only(s, params, out):
        for i in range(2 * params[0]):
            out[i] = s[i]
        return 2 * params[0] if s[2 * params[0] - 1] >= 0 else 0

    game = isz.make_game("liars_dice", dice=1, faces=3)
    check_game(game, histories=5)
    game.kernel = dataclasses.replace(game.kernel, history=rolls_only)
    with pytest.raises(ConformanceError, match="kernel history gives"):
        check_game(game, histories=5)
