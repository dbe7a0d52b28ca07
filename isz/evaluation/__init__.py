"""Evaluation: the arena (duplicate deals, seat rotation, scores with standard errors)
and exact exploitability on small poker games."""

from isz.evaluation.arena import match
from isz.evaluation.exploitability import agent_policy, exploitability, uniform_policy
from isz.evaluation.result import AgentResult, MatchResult
from isz.evaluation.scoring import game_scores

__all__ = ["AgentResult", "MatchResult", "agent_policy", "exploitability", "game_scores",
           "match", "uniform_policy"]
