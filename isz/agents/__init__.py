"""Agents: where search (and later networks) meet the game API."""

from isz.agents import search_agents  # noqa: F401  (registration)
from isz.agents.base import Agent, RandomAgent
from isz.agents.registry import agent_knobs, agent_names, make_agent, register_agent

__all__ = ["Agent", "RandomAgent", "agent_knobs", "agent_names", "make_agent", "register_agent"]
