"""Game, State and View: the Python face of a game's compiled rules.

`State` wraps a flat ``int64`` array and validates what users do with it;
`View` is the immutable record of what one player has observed, the only thing
an agent is ever handed. Concrete games subclass `Game` and supply a `Kernel`
(`isz.games.kernel`), a view record and a construction of one state from a
view (the template that uniform resampling starts from).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from isz.games.kernel import Kernel
from isz.types import CHANCE, TERMINAL, IllegalActionError, IszError


@dataclass(frozen=True, eq=False)
class View:
    """Everything ``player`` has observed at some point of a game.

    Attributes:
        game: the game (for names and shapes only; it holds no state).
        player: the observing seat.
        current_player: seat to move, CHANCE or TERMINAL (public in isz games).
        legal_actions: the legal actions when ``player`` is to move, else ().
        data: the game-specific information-state record (a hashable tuple of
            ints, layout in the game's module docstring).
        key: ``(player, data)``; equal exactly for histories the player
            cannot tell apart.
    """

    game: Game
    player: int
    current_player: int
    legal_actions: tuple[int, ...]
    data: tuple
    _tensor: np.ndarray = field(repr=False)

    @property
    def key(self) -> tuple:
        return (self.player, self.data)

    def tensor(self) -> np.ndarray:
        """The information-state tensor, float32, shape ``game.tensor_shape``."""
        return self._tensor

    def __eq__(self, other) -> bool:
        return isinstance(other, View) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


class State:
    """One history of a game; a thin checked wrapper over the kernel state array."""

    __slots__ = ("game", "data")

    def __init__(self, game: Game, data: np.ndarray):
        self.game = game
        self.data = data

    # -- queries -------------------------------------------------------
    def current_player(self) -> int:
        return int(self.game.kernel.current_player(self.data, self.game.kparams))

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def legal_actions(self) -> list[int]:
        """Legal actions of the player to move ([] at chance nodes and terminals)."""
        if self.current_player() < 0:
            return []
        g = self.game
        buf = np.empty(g.num_actions, dtype=np.int64)
        n = g.kernel.legal_actions(self.data, g.kparams, buf)
        return buf[:n].tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """[(outcome, probability)] at a chance node, [] elsewhere."""
        if not self.is_chance_node():
            return []
        g = self.game
        acts = np.empty(g.max_chance_outcomes, dtype=np.int64)
        probs = np.empty(g.max_chance_outcomes, dtype=np.float64)
        n = g.kernel.chance_outcomes(self.data, g.kparams, acts, probs)
        return list(zip(acts[:n].tolist(), probs[:n].tolist(), strict=True))

    def sample_chance(self, rng: np.random.Generator) -> int:
        """A chance outcome of this chance node drawn with its probability (not applied)."""
        outcomes = self.chance_outcomes()
        cum = np.cumsum([p for _, p in outcomes])
        i = int(np.searchsorted(cum, rng.random() * cum[-1], side="right"))
        return outcomes[min(i, len(outcomes) - 1)][0]

    def returns(self) -> list[float]:
        """One float per player in [-1, 1]; all zeros before the end."""
        g = self.game
        out = np.zeros(g.num_players, dtype=np.float64)
        if self.is_terminal():
            g.kernel.returns(self.data, g.kparams, out)
        return out.tolist()

    def view(self, player: int) -> View:
        """What ``player`` has observed so far (see `View`)."""
        g = self.game
        if not 0 <= player < g.num_players:
            raise IszError(f"player {player!r} out of range 0..{g.num_players - 1}")
        cur = self.current_player()
        legal = tuple(self.legal_actions()) if cur == player else ()
        tensor = np.zeros(g.tensor_size, dtype=np.float32)
        g.kernel.info_tensor(self.data, g.kparams, player, tensor)
        tensor = tensor.reshape(g.tensor_shape)
        tensor.flags.writeable = False
        return View(g, player, cur, legal, g.view_data(self, player), tensor)

    # -- changes -------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply a legal action (or chance outcome); IllegalActionError otherwise."""
        cur = self.current_player()
        if cur == TERMINAL:
            raise IllegalActionError(f"cannot apply action {action!r}: the game is over")
        if cur == CHANCE:
            allowed = [a for a, _ in self.chance_outcomes()]
        else:
            allowed = self.legal_actions()
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
                or int(action) not in allowed:
            names = ", ".join(f"{a} ({self.game.action_to_string(a, cur)})" for a in allowed)
            who = "chance" if cur == CHANCE else f"player {cur}"
            raise IllegalActionError(
                f"illegal action {action!r} for {who}; legal: {names}")
        self.game.kernel.apply_action(self.data, self.game.kparams, int(action))

    def child(self, action: int) -> State:
        s = self.clone()
        s.apply_action(action)
        return s

    def clone(self) -> State:
        return State(self.game, self.data.copy())

    def __str__(self) -> str:
        return self.game.describe(self)

    def __repr__(self) -> str:
        return f"<{self.game.name} state: {self}>"


class Game:
    """Base class of isz games. Subclasses set the class/instance attributes below.

    Attributes:
        name: registry name.
        params: the user-facing parameters this instance was made with.
        num_players, num_actions (player action space), max_chance_outcomes.
        state_size: length of the kernel state array.
        tensor_shape: shape of `View.tensor()`.
        max_game_length: upper bound on the number of actions (chance included).
        utility_scale: ``returns() * utility_scale`` is the game's natural
            utility (chips in poker); 1 where returns are already natural.
        kernel, kparams: compiled rules and their int64 configuration array.
        preset: the registry preset this instance is ("oh_hell"; set by `make_game`),
            else None.
    """

    name: ClassVar[str] = "?"
    preset: str | None = None
    PARAMS: ClassVar[dict[str, Any]] = {}

    num_players: int
    num_actions: int
    max_chance_outcomes: int
    state_size: int
    tensor_shape: tuple[int, ...]
    max_game_length: int
    utility_scale: float = 1.0
    kernel: Kernel
    kparams: np.ndarray

    def __init__(self, **params):
        unknown = sorted(set(params) - set(self.PARAMS))
        if unknown:
            raise IszError(
                f"unknown parameter(s) {', '.join(unknown)} for game {self.name!r}; "
                f"allowed: {', '.join(self.PARAMS) or '(none)'}")
        self.params = {**self.PARAMS, **params}

    @property
    def tensor_size(self) -> int:
        return int(np.prod(self.tensor_shape))

    @property
    def spec(self) -> dict:
        """JSON-able identity: what a checkpoint records to refuse another game."""
        return {"name": self.name, "params": dict(self.params)}

    @property
    def label(self) -> str:
        """The name a user gives this game: its preset ("oh_hell"), else its name ("tricks")."""
        return self.preset or self.name

    def new_initial_state(self) -> State:
        return State(self, self.initial_data())

    # -- to implement --------------------------------------------------
    def initial_data(self) -> np.ndarray:
        """The kernel state array of the initial history."""
        raise NotImplementedError

    def view_data(self, state: State, player: int) -> tuple:
        """The hashable information-state record of ``player`` at ``state``."""
        raise NotImplementedError

    def state_from_view(self, view: View) -> State:
        """One full state consistent with ``view``, built from the view alone.

        Deterministic (no randomness): uniform samplers reshuffle its hidden
        part with `Kernel.redeterminize`.
        """
        raise NotImplementedError

    def action_to_string(self, action: int, player: int) -> str:
        return str(action)

    def outcome_stats(self, state: State) -> dict[str, list[float]]:
        """Per-seat figures of a finished game that the arena averages per agent
        beside the score (e.g. raw points); none by default."""
        return {}

    def describe(self, state: State | View) -> str:
        """Human-readable ``state``; a `View` is described by `view_header` and
        `describe_view`.

        Subclasses override this for states; `__init_subclass__` wraps every
        override so that it too accepts a view (instead of indexing the view's
        record as if it were the state array)."""
        return np.array2string(state.data)

    def view_header(self, view: View) -> str:
        """One line: whose view this is, who is to move, the legal actions (if any)."""
        legal = ", ".join(f"{a} ({self.action_to_string(a, view.player)})"
                          for a in view.legal_actions)
        return (f"{self.name} as seen by player {view.player}: {_who(view.current_player)} "
                f"to move" + (f"; legal: {legal}" if legal else ""))

    def describe_view(self, view: View) -> str:
        """What ``view.player`` knows, for a person at the table (`scripts/play.py`).
        Games override this with their own private information and the public
        history, nothing hidden from the player; the fallback is the raw view record."""
        return f"observed {view.data}"

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "describe" in cls.__dict__:
            cls.describe = _accepting_views(cls.__dict__["describe"])

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.name}({args})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and self.spec == other.spec

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.params.items()))))


def _who(player: int) -> str:
    return {CHANCE: "chance", TERMINAL: "nobody (the game is over)"}.get(player,
                                                                         f"player {player}")


def _accepting_views(describe):
    """Wrap a game's ``describe(state)`` to take a `View` too (and refuse anything else)."""

    @functools.wraps(describe)
    def wrapper(self: Game, state) -> str:
        if isinstance(state, View):
            if state.game != self:
                raise IszError(f"describe: a view of {state.game!r}, not of {self!r}")
            return self.view_header(state) + "\n" + self.describe_view(state)
        if not isinstance(state, State):
            raise IszError(f"describe takes a State or a View, got {type(state).__name__}")
        return describe(self, state)

    return wrapper


# the base too: a game without its own describe still describes views
Game.describe = _accepting_views(Game.describe)
