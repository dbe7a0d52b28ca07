"""Conformance checker every game must pass: `check_game(game)`.

First the layout: ``kernel`` is a `Kernel`, ``kparams`` a non-empty 1-d int64
array, ``initial_data()`` an int64 array of length ``state_size``. Then it
plays random histories and checks, at every node: clone independence; chance
probabilities positive and summing to 1; non-empty, sorted, in-range legal
actions at decisions; returns in [-1, 1] at terminals; a fixed tensor shape;
that own actions are observed exactly; that every uniform determinization and
`state_from_view` give the same view; that `redeterminize` reads only the view
(two states with one view + one seed -> one output). Across histories: equal
observation sequences -> equal view keys, and equal keys -> the same observations
up to their order (a view that forgets what its player observed passes only with
``coarse_views=True``; a hand kept as a set may forget the order it was dealt in);
equal keys -> equal tensors and legal actions; different keys at a player's
decision -> different tensors; no two players' views share a tensor (the network's
values are per absolute seat).
Where the kernel has the optional ``info_key``: among the worlds drawn for one
view, two worlds give a player the same key exactly when they give it one view.
Where the kernel has the optional ``history``: it lists the actions that reached the
state, and replaying a determinization's history rebuilds that world.
"""

from __future__ import annotations

import numpy as np

from isz.belief.uniform import make_batch_redeterminize
from isz.games.base import Game, State
from isz.games.kernel import Kernel
from isz.rng import new_rng
from isz.types import CHANCE, TERMINAL


class ConformanceError(AssertionError):
    """A game broke the API contract; the message says where."""


def _fail(game: Game, state: State, msg: str):
    raise ConformanceError(f"{game!r}: {msg} at state {state}")


def _redraw(game: Game, state: State, player: int, seed: int, n: int = 1) -> np.ndarray:
    out = np.empty((n, game.state_size), dtype=np.int64)
    make_batch_redeterminize(game.kernel)(state.data, game.kparams, player, new_rng(seed), out)
    return out


def _check_layout(game: Game) -> None:
    if not isinstance(getattr(game, "kernel", None), Kernel):
        raise ConformanceError(f"{game!r}: game.kernel must be an isz.games.Kernel")
    kp = getattr(game, "kparams", None)
    if not isinstance(kp, np.ndarray) or kp.dtype != np.int64 or kp.ndim != 1 or kp.size == 0:
        raise ConformanceError(f"{game!r}: kparams must be a non-empty 1-d int64 array "
                               f"(np.zeros(1, np.int64) for a game without parameters), "
                               f"got {kp!r}")
    s = game.initial_data()
    if not isinstance(s, np.ndarray) or s.dtype != np.int64 or s.shape != (game.state_size,):
        raise ConformanceError(f"{game!r}: initial_data() must be an int64 array of shape "
                               f"({game.state_size},) (state_size), got {s!r}")


def _check_node(game: Game, state: State, rng: np.random.Generator, worlds: int) -> None:
    cur = state.current_player()
    if cur == CHANCE:
        outcomes = state.chance_outcomes()
        probs = np.array([p for _, p in outcomes])
        acts = [a for a, _ in outcomes]
        if not outcomes or (probs <= 0).any() or abs(probs.sum() - 1) > 1e-9:
            _fail(game, state, f"bad chance outcomes {outcomes}")
        if len(set(acts)) != len(acts) or max(acts) >= game.max_chance_outcomes:
            _fail(game, state, f"duplicate or out-of-range chance outcomes {acts}")
    elif cur >= 0:
        legal = state.legal_actions()
        if not legal or legal != sorted(set(legal)) or legal[-1] >= game.num_actions \
                or legal[0] < 0:
            _fail(game, state, f"bad legal actions {legal}")
    elif cur == TERMINAL:
        r = state.returns()
        if len(r) != game.num_players or any(abs(x) > 1 + 1e-12 for x in r):
            _fail(game, state, f"returns {r} not one per player in [-1, 1]")
    for p in range(game.num_players):
        _check_view(game, state, p, rng, worlds)


def _check_view(game: Game, state: State, p: int, rng, worlds: int) -> None:
    view = state.view(p)
    t = view.tensor()
    if t.shape != game.tensor_shape or t.dtype != np.float32 or not np.isfinite(t).all():
        _fail(game, state, f"tensor of player {p} has shape {t.shape} dtype {t.dtype}")
    if view.current_player == p and list(view.legal_actions) != state.legal_actions():
        _fail(game, state, f"view legal actions differ for player {p}")
    built = game.state_from_view(view)
    if built.view(p).key != view.key:
        _fail(game, state, f"state_from_view gives another view for player {p}: {built}")
    seed = int(rng.integers(2**62))
    drawn = _redraw(game, state, p, seed, worlds)
    for w in drawn:
        ws = State(game, w)
        if ws.view(p).key != view.key:
            _fail(game, state, f"determinization {ws} changes player {p}'s view")
    _check_info_key(game, state, [state.data, *drawn])
    # A second state with the same view must give the same redraw for the same seed.
    other = State(game, _redraw(game, state, p, seed + 1)[0])
    if not np.array_equal(_redraw(game, other, p, seed), _redraw(game, state, p, seed)):
        _fail(game, state, f"redeterminize for player {p} reads hidden information")


def _check_info_key(game: Game, state: State, worlds: list[np.ndarray]) -> None:
    """Worlds of one view share the public history: there ``info_key`` must tell a
    player's views apart, no more and no less (MO trees branch on it)."""
    info_key = game.kernel.info_key
    if info_key is None:
        return
    for o in range(game.num_players):
        by_key: dict[int, tuple] = {}
        by_view: dict[tuple, int] = {}
        for w in worlds:
            k, v = int(info_key(w, game.kparams, o)), State(game, w).view(o).key
            if by_key.setdefault(k, v) != v or by_view.setdefault(v, k) != k:
                _fail(game, state, f"info_key of player {o} does not follow its view: "
                                   f"key {k} in a world {State(game, w)}")


def _replayed(game: Game, data: np.ndarray) -> tuple[list[int], np.ndarray]:
    """(``history(data)``, the state array reached by replaying it from the start)."""
    out = np.full(game.max_game_length, -1, np.int64)
    n = int(game.kernel.history(data, game.kparams, out))
    s = game.initial_data()
    for a in out[:n]:
        game.kernel.apply_action(s, game.kparams, int(a))
    return out[:n].tolist(), s


def _check_history(game: Game, state: State, actions: list[int], rng) -> None:
    if game.kernel.history is None:
        return
    listed = _replayed(game, state.data)[0]
    if listed != actions:
        _fail(game, state, f"kernel history gives {listed}, not the actions played {actions}")
    for p in range(game.num_players):
        world = _redraw(game, state, p, int(rng.integers(2**62)))[0]
        if not np.array_equal(_replayed(game, world)[1], world):
            _fail(game, state, f"replaying the history of player {p}'s determinization "
                               f"{State(game, world)} does not rebuild it")


def _step(game: Game, state: State, rng, tokens: list[list[int]]) -> int:
    cur = state.current_player()
    if cur == CHANCE:
        a = state.sample_chance(rng)
    else:
        legal = state.legal_actions()
        a = legal[rng.integers(len(legal))]
    for p in range(game.num_players):
        tok = int(game.kernel.observe(state.data, game.kparams, a, p))
        if p == cur and tok != a:
            _fail(game, state, f"player {p} does not observe its own action {a} (got {tok})")
        tokens[p].append(tok)
    before = state.data.copy()
    clone = state.clone()
    clone.apply_action(a)
    if not np.array_equal(state.data, before):
        _fail(game, state, "applying an action to a clone changed the original")
    state.apply_action(a)
    if not np.array_equal(state.data, clone.data):
        _fail(game, state, "apply_action is not deterministic")
    return int(a)


def check_game(game: Game, histories: int = 40, seed: int = 0, worlds: int = 4,
               coarse_views: bool = False) -> None:
    """Raise `ConformanceError` on the first broken rule (see module docstring).

    ``coarse_views``: allow a view to hide something its player observed, e.g. how
    many moves the opponent made, where every move gives every player an ``observe``
    token. No leak, but the searches branch on the tokens below the root, so they
    plan as if the player learned it later.
    """
    _check_layout(game)
    rng = np.random.default_rng(seed)
    by_tokens: dict[tuple, tuple] = {}
    tokens_of: dict[tuple, tuple] | None = None if coarse_views else {}
    by_key: dict[tuple, tuple] = {}
    by_tensor: dict[tuple, bytes] = {}
    seat_of: dict[bytes, int] = {}
    for _ in range(histories):
        state = game.new_initial_state()
        tokens: list[list[int]] = [[] for _ in range(game.num_players)]
        actions: list[int] = []
        for length in range(game.max_game_length + 2):
            _check_node(game, state, rng, worlds)
            _check_history(game, state, actions, rng)
            _check_key_relations(game, state, tokens, by_tokens, by_key, by_tensor, tokens_of)
            _check_tensor_names_seat(game, state, seat_of)
            if state.is_terminal():
                break
            if length > game.max_game_length:
                _fail(game, state, f"longer than max_game_length={game.max_game_length}")
            actions.append(_step(game, state, rng, tokens))


def _check_key_relations(game, state, tokens, by_tokens, by_key, by_tensor,
                         tokens_of) -> None:
    for p in range(game.num_players):
        view = state.view(p)
        tk = (p, tuple(tokens[p]))
        if by_tokens.setdefault(tk, view.key) != view.key:
            _fail(game, state, f"player {p}: same observations, different view keys")
        # as multisets: a hand kept as a set forgets only the order it was dealt in
        seen = tuple(sorted(tokens[p]))
        if tokens_of is not None and tokens_of.setdefault((p, view.key), seen) != seen:
            _fail(game, state, f"player {p}: one view after observing {list(seen)} and "
                               f"{list(tokens_of[p, view.key])} (sorted): the view forgets "
                               "something the player observed (record it; or, if the game "
                               "hides it on purpose, check_game(..., coarse_views=True))")
        facts = (view.current_player, view.legal_actions, view.tensor().tobytes())
        if by_key.setdefault(view.key, facts) != facts:
            _fail(game, state, f"player {p}: same view key, different tensor/legal/turn")
        if view.current_player == p:
            t = (p, view.tensor().tobytes())
            if by_tensor.setdefault(t, view.key) != view.key:
                _fail(game, state, f"player {p}: different view keys share one tensor")


def _check_tensor_names_seat(game, state, seat_of: dict[bytes, int]) -> None:
    """A tensor must say whose view it is: the value head answers per absolute seat,
    so two players' views may never share a tensor (a fully relative encoding with a
    dealer drawn by chance would: the network could not tell its own value)."""
    for p in range(game.num_players):
        t = state.view(p).tensor().tobytes()
        q = seat_of.setdefault(t, p)
        if q != p:
            _fail(game, state, f"players {q} and {p} have views with the same tensor: the "
                               "tensor must identify the observer's seat (e.g. a one-hot)")
