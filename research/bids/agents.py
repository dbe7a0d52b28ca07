"""``bid_shift``: a checkpoint's planner whose bids are moved by a fixed number.

The planner searches every decision as it would; at a bid it plays its chosen bid
plus ``shift`` where that is legal (in range, and not the bid the hook rule forbids
the last bidder), else its own bid. Its card play then aims at the bid it made. A
probe of one lever: in its own self-play the preset's planner ends with more tricks
than it bid in 45% of bids and fewer in 15% (`research.bids.outcomes`).

    python -m research.bids.match --game oh_hell --time 0.02 --deals 500 --seed 31 \\
        --planner p0=CKPT --baseline bid_shift,checkpoint=CKPT,shift=1 \\
        --baseline so_ismcts,belief=voids --output F.json
"""

from __future__ import annotations

import numpy as np

from isz.agents.base import Agent
from isz.agents.planner import load_planner
from isz.agents.registry import register_agent
from isz.games.base import Game, View
from isz.types import IszError


class BidShift(Agent):
    """The planner of ``checkpoint`` (``knobs`` on top of its recorded settings) with
    its bids moved by ``shift`` (int; 0 is the planner itself)."""

    name = "bid_shift"

    def __init__(self, game: Game, checkpoint: str | None = None, shift: int = 1,
                 **knobs):
        super().__init__(game)
        if not checkpoint:
            raise IszError(f"{self.name} needs checkpoint=PATH (a trained planner)")
        if not isinstance(shift, int) or isinstance(shift, bool):
            raise IszError(f"{self.name}: shift must be an int, got {shift!r}")
        if not getattr(game, "params", {}).get("bidding"):
            raise IszError(f"{self.name} needs a trick game with bidding, got {game!r}")
        self.inner = load_planner(checkpoint, game, **knobs)
        self.shift = shift
        self.last_simulations = 0

    def act(self, view: View, rng: np.random.Generator) -> int:
        self.check_view(view)
        action = int(self.inner.act(view, rng))
        self.last_simulations = getattr(self.inner, "last_simulations", 0)
        c = self.game.num_cards
        moved = action + self.shift
        if action >= c and moved >= c and moved in view.legal_actions:
            return moved
        return action

    def reset(self) -> None:
        self.inner.reset()

    def describe(self) -> str:
        return f"bid_shift({self.inner.describe()}, shift={self.shift:+d})"


def register() -> None:
    """Register ``bid_shift`` with isz's agent registry (matches' workers fork after it,
    so they know it too)."""
    register_agent(BidShift.name, BidShift, {"checkpoint": None, "shift": 1})
    register_agent(BidModel.name, BidModel,
                   {"checkpoint": None, "model": None, "rule": "ret", "margin": 0.0})


class BidModel(BidShift):
    """The planner of ``checkpoint`` whose bids a `research.bids.model.BidNet`
    (``model``, a saved net) picks among the planner's bid and its two neighbours:
    the legal one of highest ``rule`` (``"ret"``: the expected return; ``"exact"``:
    the chance of taking exactly the bid); the planner's own bid unless another beats
    it by more than ``margin``. The net reads the view only (`research.bids.features`)."""

    name = "bid_model"

    def __init__(self, game: Game, checkpoint: str | None = None, model: str | None = None,
                 rule: str = "ret", margin: float = 0.0, **knobs):
        super().__init__(game, checkpoint, 0, **knobs)
        from research.bids.model import load

        if rule not in ("ret", "exact"):
            raise IszError(f"bid_model: rule must be 'ret' or 'exact', got {rule!r}")
        if not model:
            raise IszError("bid_model needs model=PATH (research.bids.model --output)")
        self.net, self.rule, self.margin = load(model, game), rule, float(margin)

    def act(self, view: View, rng: np.random.Generator) -> int:
        from research.bids.features import features, neighbour_bids
        from research.bids.model import pick

        self.check_view(view)
        action = int(self.inner.act(view, rng))
        self.last_simulations = getattr(self.inner, "last_simulations", 0)
        c = self.game.num_cards
        if action < c:
            return action
        bids = neighbour_bids(action - c, view.legal_actions, c)
        return c + pick(self.net, features(view), bids, self.game, self.rule, self.margin)

    def describe(self) -> str:
        return f"bid_model({self.inner.describe()}, rule={self.rule}, margin={self.margin})"
