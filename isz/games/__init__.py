"""Games: rules, views and information-state tensors. Knows nothing of search."""

from isz.games import coin_guess, kuhn_poker, leduc_poker, recon, tricks  # noqa: F401  (registration)
from isz.games.base import Game, State, View
from isz.games.registry import game_names, make_game, register, register_preset

__all__ = ["Game", "State", "View", "game_names", "make_game", "register", "register_preset"]
