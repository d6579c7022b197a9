"""The agent interface: a seat's view and its legal actions in, one action out.

:class:`Agent` (declared by the engine, :mod:`folkdeck.engine.bots`, so that a game's bot
table is typed) is anything with a ``name`` and an ``act`` method. Agents never see a
state: only :meth:`State.observe` output and the legal actions,
so no agent can reach another seat's hidden cards. Randomness comes from the
``rng`` passed in, so every bot is reproducible from its seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from folkdeck.engine.protocol import Action
from folkdeck.engine.protocol import Agent as Agent
from folkdeck.engine.view import View as Observation


class RandomAgent:
    """Uniformly random among the legal actions.

    >>> RandomAgent().act(None, ["a", "b"], random.Random(1))  # type: ignore[arg-type]
    'a'
    """

    name = "random"

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[rng.randrange(len(legal_actions))]


class FirstLegalAgent:
    """The first legal action (games list the weakest play first)."""

    name = "first"

    def act(self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random) -> Action:
        return legal_actions[0]
