"""Evaluation: the arena (duplicate deals, seat rotation, scores with standard errors),
matches by name on a local pool or on Ray (`play_match`), and exact exploitability
on small poker games."""

from isz.evaluation.arena import make_backend, match, play_match
from isz.evaluation.exploitability import agent_policy, exploitability, uniform_policy
from isz.evaluation.journal import DealJournal, journal_for, resumable
from isz.evaluation.pool import LocalPool
from isz.evaluation.result import AgentResult, MatchResult
from isz.evaluation.scoring import game_scores
from isz.evaluation.spec import PLANNER, MatchSpec, SeatSpec

__all__ = ["PLANNER", "AgentResult", "DealJournal", "LocalPool", "MatchResult", "MatchSpec",
           "SeatSpec", "agent_policy", "exploitability", "game_scores", "journal_for",
           "make_backend", "match", "play_match", "resumable", "uniform_policy"]
