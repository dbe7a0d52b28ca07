"""Optional OpenSpiel bridge (``pip install 'isz[openspiel]'``).

- `openspiel_twin(game)`: the OpenSpiel game of an isz game (kuhn_poker,
  leduc_poker, oh_hell) with the action and history maps between them;
- agents ``openspiel_ismcts`` and ``openspiel_mcts`` (`isz.make_agent`):
  OpenSpiel's C++ bots as arena opponents, fed only the acting seat's view;
- `to_tabular_policy(agent, game)`: an isz agent as an OpenSpiel
  ``TabularPolicy``, for OpenSpiel's exploitability, best-response and CFR tools.

Importing this package does not import OpenSpiel (the agents are registered
either way); using the bridge without OpenSpiel raises `IszError` with the
install command.
"""

from isz.openspiel import bots  # noqa: F401  (registers the agents)
from isz.openspiel.policy import to_tabular_policy
from isz.openspiel.twin import Twin, openspiel_twin, pyspiel

__all__ = ["Twin", "openspiel_twin", "pyspiel", "to_tabular_policy"]
