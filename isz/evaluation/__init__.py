"""Evaluation: the arena (duplicate deals, seat rotation, scores with standard errors)."""

from isz.evaluation.arena import match
from isz.evaluation.result import AgentResult, MatchResult
from isz.evaluation.scoring import game_scores

__all__ = ["AgentResult", "MatchResult", "game_scores", "match"]
