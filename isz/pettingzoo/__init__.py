"""Optional PettingZoo bridge (``pip install 'isz[pettingzoo]'``).

- `env(game, **game_kwargs)`: any registered isz game (a name, or an `isz.Game`;
  a game written outside isz once its module is imported) as a PettingZoo AEC
  environment (`IszAECEnv`, wrapped in PettingZoo's order-enforcing wrapper);
- `IszAgentPolicy(agent, env, seed=...)`: any isz agent (a loaded planner
  included) as a PettingZoo-side policy, ``action = policy(observation, name)``.

Agents are named ``player_0 .. player_{n-1}`` after the game's seats. The
observation of ``player_i`` is ``{"observation": its information-state tensor
(View.tensor(), float32, in [0, 1]), "action_mask": int8[num_actions], 1 = legal,
all zeros unless player_i is to move}``; the action space is
``Discrete(num_actions)``. Rewards come once, at the end: the game's returns (in
[-1, 1]; times ``game.utility_scale`` for natural units such as chips). Chance
(deals, draws) is played inside the environment from the generator that
``reset(seed=...)`` seeds. ``render_mode="ansi"`` (``"human"``): `render`
returns (prints) the true state as text, for a spectator (no agent gets it).

Importing this package imports neither PettingZoo nor gymnasium; `env` (and
`IszAECEnv`) without them raise `IszError` with the install command.
"""

from __future__ import annotations

import importlib

from isz.pettingzoo.policy import IszAgentPolicy
from isz.types import IszError

INSTALL_HINT = "pip install 'isz[pettingzoo]' (or: pip install pettingzoo gymnasium)"

__all__ = ["IszAECEnv", "IszAgentPolicy", "env", "raw_env", "require_pettingzoo"]


def require_pettingzoo() -> None:
    """Import PettingZoo and gymnasium; `IszError` with the install command if either
    is missing (checked on every call, so a test can hide them after a first use)."""
    for module in ("gymnasium", "pettingzoo"):
        try:
            importlib.import_module(module)
        except ImportError as e:
            raise IszError(f"PettingZoo is not installed ({e}); {INSTALL_HINT}") from None


def raw_env(game, render_mode: str | None = None, **game_kwargs):
    """The bare `IszAECEnv` of ``game`` (a name or an `isz.Game`), without wrappers."""
    require_pettingzoo()
    from isz.pettingzoo.aec import IszAECEnv

    return IszAECEnv(game, render_mode=render_mode, **game_kwargs)


def env(game, render_mode: str | None = None, **game_kwargs):
    """``game`` as a PettingZoo AEC environment (see the module docstring).

    ``game`` is a registered name (``game_kwargs`` its parameters, as for
    `isz.make_game`) or an `isz.Game`. The environment is wrapped in PettingZoo's
    ``OrderEnforcingWrapper`` (``step`` before ``reset`` raises);
    ``env.unwrapped`` is the `IszAECEnv`.
    """
    e = raw_env(game, render_mode=render_mode, **game_kwargs)
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(e)


def __getattr__(name: str):
    if name == "IszAECEnv":  # the class subclasses pettingzoo.AECEnv: defined on first use
        require_pettingzoo()
        from isz.pettingzoo.aec import IszAECEnv

        return IszAECEnv
    raise AttributeError(f"module 'isz.pettingzoo' has no attribute {name!r}")
