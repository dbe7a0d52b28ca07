"""Agents: where search (and networks) meet the game API."""

from isz.agents import guided_so_agent, puct_agent, search_agents  # noqa: F401  (registration)
from isz.agents.base import Agent, RandomAgent
from isz.agents.guided_so_agent import GuidedSOAgent
from isz.agents.planner import load_planner
from isz.agents.puct_agent import PUCTAgent
from isz.agents.registry import (
    agent_knobs,
    agent_names,
    agent_settings,
    make_agent,
    register_agent,
)

__all__ = ["Agent", "GuidedSOAgent", "PUCTAgent", "RandomAgent", "agent_knobs", "agent_names",
           "agent_settings", "load_planner", "make_agent", "register_agent"]
