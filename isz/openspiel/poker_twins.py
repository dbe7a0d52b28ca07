"""Kuhn and Leduc poker: OpenSpiel's ``kuhn_poker`` and ``leduc_poker``.

Both games number cards, actions and chance outcomes as OpenSpiel does and
deal in the same order, so the two histories are the same list of integers;
only isz's returns are scaled (chips / ``utility_scale``).
"""

from __future__ import annotations

from isz.games.base import Game, State
from isz.openspiel.twin import Twin, pyspiel, register_twin


class _SameHistoryTwin(Twin):
    """A twin whose actions and chance outcomes are numbered as in isz."""

    def action_to_openspiel(self, action: int) -> int:
        return int(action)

    def action_from_openspiel(self, action: int) -> int:
        return int(action)

    def isz_history(self, os_state) -> list[int]:
        return [int(a) for a in os_state.history()]


class KuhnTwin(_SameHistoryTwin):
    """``kuhn_poker`` ~ OpenSpiel ``kuhn_poker`` (2 players)."""

    def history(self, state: State) -> list[int]:
        s = state.data
        return [int(c) for c in s[:2] if c >= 0] + s[3:3 + s[2]].tolist()


class LeducTwin(_SameHistoryTwin):
    """``leduc_poker`` ~ OpenSpiel ``leduc_poker`` (2 players)."""

    def history(self, state: State) -> list[int]:
        s = state.data
        deals = [int(c) for c in s[:2] if c >= 0]
        public = [int(s[2])] if s[2] >= 0 else []
        return deals + s[11:11 + s[9]].tolist() + public + s[15:15 + s[10]].tolist()


def _named(name: str):
    return lambda game: game.name == name and game.preset is None


def _make(cls, name: str):
    def make(game: Game) -> Twin:
        return cls(game, pyspiel().load_game(name))
    return make


register_twin(_named("kuhn_poker"), _make(KuhnTwin, "kuhn_poker"))
register_twin(_named("leduc_poker"), _make(LeducTwin, "leduc_poker"))
