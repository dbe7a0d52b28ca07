"""The acting seat's other hands: every information set it could be in at a public state.

A history's *public state* (the common-knowledge set of the factored-observation
view) is the set of histories linked to it by chains of "some seat cannot tell
them apart": histories sharing any seat's view key are joined, and the joined
classes are the public states. In Leduc poker a public state is one betting
sequence and public card with every deal of the private cards; the acting seat's
information sets in it are its 5-6 possible private cards (its "hands").

`PublicStates` finds them once per game from the enumerated tree
(`isz.games.histories`, as the posterior belief does), so only games small
enough to enumerate have them. Self-play with ``all_hands`` searches every hand
of the acting seat at each decision, not only the one it holds
(`isz.selfplay.selfplay`), so that every information set of a visited public
state gets a policy target, however rarely the seat holds that hand.
"""

from __future__ import annotations

import numpy as np

from isz.games.base import Game, State, View
from isz.games.histories import enumerate_histories
from isz.types import IszError

_CACHE: dict[str, PublicStates] = {}


def _find(parent: np.ndarray, x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]  # path halving
        x = int(parent[x])
    return x


def _public_classes(game: Game, table) -> np.ndarray:
    """int64[n]: a public-state id per history row (union-find over view keys)."""
    n = len(table.player)
    parent = np.arange(n)
    first: dict[tuple, int] = {}
    for row in range(n):
        state = State(game, table.states[row])
        for p in range(game.num_players):
            other = first.setdefault((p, game.view_data(state, p)), row)
            a, b = _find(parent, row), _find(parent, other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return np.array([_find(parent, r) for r in range(n)], np.int64)


class PublicStates:
    """Decision information sets grouped by public state, for one enumerable game."""

    def __init__(self, game: Game, max_histories: int):
        try:
            table = enumerate_histories(game, max_histories)
        except IszError as e:
            raise IszError(f"selfplay.all_hands enumerates every history to find the "
                           f"public states: {e}") from e
        classes = _public_classes(game, table)
        members: dict[tuple, dict[tuple, View]] = {}  # (public id, seat) -> key -> view
        self._group: dict[tuple, tuple] = {}  # decision view key -> its (public id, seat)
        for row in np.flatnonzero(table.player >= 0):
            seat = int(table.player[row])
            view = State(game, table.states[row].copy()).view(seat)
            group = (int(classes[row]), seat)
            members.setdefault(group, {}).setdefault(view.key, view)
            self._group[view.key] = group
        self._members = {g: tuple(m.values()) for g, m in members.items()}

    def hands(self, view: View) -> tuple[View, ...]:
        """Every decision view of ``view.player`` at ``view``'s public state, ``view``'s
        own key included, in a fixed order (the enumeration's)."""
        group = self._group.get(view.key)
        if group is None:
            raise IszError(f"view {view.key!r} is not a decision of its player in "
                           f"{view.game!r}")
        return self._members[group]

    def other_hands(self, view: View) -> list[View]:
        """`hands` without ``view`` itself."""
        return [h for h in self.hands(view) if h.key != view.key]


def public_states(game: Game, max_histories: int = 200_000) -> PublicStates:
    """The `PublicStates` of ``game`` (built once per game spec)."""
    key = repr(game.spec)
    if key not in _CACHE:
        _CACHE[key] = PublicStates(game, max_histories)
    return _CACHE[key]


def hand_value(root_stats: dict[int, tuple[int, float]], policy: np.ndarray) -> float:
    """The value target of a hand's search: its root q (``2 * mean score - 1``, the
    searching seat's return in [-1, 1]) averaged under the recorded ``policy``
    (float[num_actions]) over the visited moves. Not the visit-weighted root mean,
    which with root moves visited in turn would weigh every move alike."""
    num = den = 0.0
    for a, (n, mean) in root_stats.items():
        if n:
            num += float(policy[a]) * (2.0 * mean - 1.0)
            den += float(policy[a])
    return num / den if den > 0 else 0.0
