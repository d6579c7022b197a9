"""Agents (bots). Game-specific ones live in ``folkdeck.games.<game>.agents``."""

from folkdeck.agents.base import Agent, FirstLegalAgent, RandomAgent
from folkdeck.agents.registry import make_agent

__all__ = ["Agent", "FirstLegalAgent", "RandomAgent", "make_agent"]
