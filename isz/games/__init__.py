"""Games: rules, views and information-state tensors. Knows nothing of search.

What a game written outside the package needs: `Game`, `State`, `View`, the
`Kernel` of its compiled rules, the kernel RNG helpers (`new_rng`,
`rand_below`, `rand_float`, `shuffle_prefix`, `sample_index`, `next_u64`), the
card-mask helpers (`popcount`, `deal_from`, and `seat_draws_key` for ``info_key``) and
`register_game`. Tutorial: docs/adding_a_game.md.
"""

from isz.games import coin_guess, kuhn_poker, leduc_poker, recon, tricks  # noqa: F401  (registration)
from isz.games.base import Game, State, View
from isz.games.cards import deal_from, popcount, seat_draws_key
from isz.games.kernel import Kernel
from isz.games.registry import (
    game_names,
    import_game_module,
    make_game,
    register,
    register_game,
    register_preset,
)
from isz.rng import new_rng, next_u64, rand_below, rand_float, sample_index, shuffle_prefix

__all__ = ["Game", "Kernel", "State", "View", "deal_from", "game_names", "import_game_module",
           "make_game", "new_rng", "next_u64", "popcount", "rand_below", "rand_float",
           "register", "register_game", "register_preset", "sample_index", "seat_draws_key",
           "shuffle_prefix"]
