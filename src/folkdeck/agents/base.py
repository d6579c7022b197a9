"""The agent interface: a seat's view and its legal actions in, one action out.

Agents never see a state: only :meth:`State.observe` output and the legal actions,
so no agent can reach another seat's hidden cards. Randomness comes from the
``rng`` passed in, so every bot is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from folkdeck.engine.protocol import Action
from folkdeck.engine.view import View as Observation


class Agent(Protocol):
    """Anything with a ``name`` and an ``act`` method."""

    name: str

    def act(self, observation: Observation, legal_actions: Sequence[Action],
            rng: random.Random) -> Action:
        """Choose one of ``legal_actions`` (never empty)."""
        ...


runtime_checkable(Agent)  # a call, not a decorator: see folkdeck.engine.protocol (mypyc)


class RandomAgent:
    """Uniformly random among the legal actions.

    >>> RandomAgent().act(None, ["a", "b"], random.Random(1))  # type: ignore[arg-type]
    'a'
    """

    name = "random"

    def act(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[rng.randrange(len(legal_actions))]


class FirstLegalAgent:
    """The first legal action (games list the weakest play first)."""

    name = "first"

    def act(self, observation: Any, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[0]
