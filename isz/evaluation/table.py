"""A person at the table: play a game against isz agents in a terminal.

`play_session(cfg, ask, say)` runs ``cfg.games`` games with the person at
seat ``cfg.seat`` and agents elsewhere. The person is shown only their view
(`Game.describe_view`: own cards and the public history) and the legal
moves, and answers with a move's letter or name; bad input is asked again
with the reason. Agents' moves are announced when the person can observe
them (`Kernel.observe`). After each game: every card (`Game.describe`), the
result, and each agent decision explained by the agent's policy over the
legal moves (``agent.policy(view, rng)`` on the decision's own generator,
where the agent has one). Deals and agents' generators follow
`isz.evaluation.play` (chance: ``(seed, game)``; decisions: ``(seed, game,
0, seat, k)``), so a session is reproducible from its seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from isz.agents.base import Agent
from isz.evaluation.play import chance_rng, decision_rng
from isz.evaluation.scoring import game_scores
from isz.games.base import Game, State, View

Ask = Callable[[str], str]  # prompt -> the person's line; EOFError when input ends
Say = Callable[[str], None]
QUIT = ("q", "quit", "exit")


class Quit(Exception):
    """The person asked to leave (``q`` or end of input)."""


@dataclass
class Decision:
    """One agent decision, kept to explain it after the game."""

    seat: int
    view: View
    action: int
    policy: np.ndarray | None


def label(i: int) -> str:
    """The key a person types for the ``i``-th listed move: a..z, then aa, ab, ..."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[i] if i < 26 else label(i // 26 - 1) + letters[i % 26]


def parse_move(text: str, view: View) -> tuple[int | None, str]:
    """``(action, "")`` for a move's name, its listed letter, or the last word of
    exactly one move's name (``8`` for ``bid 8``); else ``(None, reason)``."""
    game, legal = view.game, list(view.legal_actions)
    names = [game.action_to_string(a, view.player).lower() for a in legal]
    t = " ".join(text.strip().lower().split())
    if not t:
        return None, "empty input"
    if t in names:
        return legal[names.index(t)], ""
    keys = [label(i) for i in range(len(legal))]
    if t in keys:
        return legal[keys.index(t)], ""
    ends = [a for a, n in zip(legal, names, strict=True) if n.split()[-1] == t]
    if len(ends) == 1:
        return ends[0], ""
    return None, f"{text.strip()!r} is not a legal move here; type its letter or its name"


def moves_line(view: View) -> str:
    return "  ".join(f"[{label(i)}] {view.game.action_to_string(a, view.player)}"
                     for i, a in enumerate(view.legal_actions))


def ask_move(view: View, ask: Ask, say: Say) -> int:
    """The person's move at ``view``, asked until it is legal."""
    say(view.game.describe_view(view))
    say("your moves: " + moves_line(view))
    while True:
        try:
            text = ask("your move (letter or name, q to quit)> ")
        except EOFError:
            raise Quit from None
        if text.strip().lower() in QUIT:
            raise Quit
        action, reason = parse_move(text, view)
        if action is not None:
            return action
        say(f"not accepted: {reason}. Legal: " + moves_line(view))


def _agent_move(agent: Agent, state: State, rng_of: Callable[[], np.random.Generator],
                explain: bool) -> tuple[int, View, np.ndarray | None]:
    view = state.view(state.current_player())
    policy = None
    if explain and callable(getattr(agent, "policy", None)):
        policy = np.asarray(agent.policy(view, rng_of()), dtype=np.float64)
    return int(agent.act(view, rng_of())), view, policy


def play_game(game: Game, agents: dict[int, Agent], seat: int, seed: int, index: int,
              ask: Ask, say: Say, explain: bool = True) -> tuple[State, list[Decision]]:
    """One game; ``agents`` maps every other seat to its agent. Returns the final
    state and the agents' decisions."""
    for agent in agents.values():
        agent.reset()
    chance, state, log = chance_rng(seed, index), game.new_initial_state(), []
    counts = dict.fromkeys(agents, 0)
    while not state.is_terminal():
        cur = state.current_player()
        if state.is_chance_node():
            state.apply_action(state.sample_chance(chance))
            continue
        if cur == seat:
            action = ask_move(state.view(seat), ask, say)
            say(f"P{seat} (you): {game.action_to_string(action, seat)}")
            state.apply_action(action)
            continue
        k, counts[cur] = counts[cur], counts[cur] + 1
        action, view, policy = _agent_move(
            agents[cur], state, lambda c=cur, k=k: decision_rng(seed, index, 0, c, k), explain)
        seen = game.kernel.observe(state.data, game.kparams, action, seat) >= 0
        name = game.action_to_string(action, cur) if seen else "(a move hidden from you)"
        say(f"P{cur} ({agents[cur].name}): {name}")
        log.append(Decision(cur, view, action, policy))
        state.apply_action(action)
    return state, log


def explain_decisions(log: list[Decision], agents: dict[int, Agent], say: Say,
                      top: int = 5) -> None:
    """Each agent move with the agent's policy over the legal moves (most likely first)."""
    say("how the agents decided (policy over the legal moves):")
    for d in log:
        g, who = d.view.game, f"P{d.seat} ({agents[d.seat].name})"
        line = f"  {who} played {g.action_to_string(d.action, d.seat)}"
        if d.policy is not None:
            legal = sorted(d.view.legal_actions, key=lambda a: -d.policy[a])
            shown = ", ".join(f"{g.action_to_string(a, d.seat)} {d.policy[a]:.2f}"
                              for a in legal[:top])
            line += f": {shown}" + (f" (+{len(legal) - top} more)" if len(legal) > top else "")
        say(line)


def report(state: State, seat: int, say: Say) -> tuple[float, float]:
    """Show the final position and result; return (your score, your utility)."""
    game = state.game
    returns = state.returns()
    scores = game_scores(returns)
    util = [r * game.utility_scale for r in returns]
    say("game over.\n" + game.describe_view(state.view(seat)))  # the whole play, as you saw it
    say("every card:\n" + game.describe(state))
    say("result: " + ", ".join(f"P{p}{' (you)' if p == seat else ''} {u:+g}"
                               for p, u in enumerate(util)))
    word = {1.0: "a win", 0.0: "a loss"}.get(float(scores[seat]), f"score {scores[seat]:g}")
    say(f"you: {util[seat]:+g} ({word}; score {scores[seat]:g} of 1)")
    return float(scores[seat]), util[seat]
