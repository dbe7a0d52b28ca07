"""Agents: where search (and networks) meet the game API."""

from isz.agents import puct_agent, search_agents  # noqa: F401  (registration)
from isz.agents.base import Agent, RandomAgent
from isz.agents.puct_agent import load_planner
from isz.agents.registry import agent_knobs, agent_names, make_agent, register_agent

__all__ = ["Agent", "RandomAgent", "agent_knobs", "agent_names", "load_planner", "make_agent",
           "register_agent"]
