"""A hint for a person at the table: what a good bot would play here, and why, as data.

:func:`advise` asks the game's ``pimc`` search bot (``folkdeck.agents.search``) for the
value of every action it considers: the mean return of the seat over sampled deals that
agree with everything the seat has seen, each action tried on the same deals. The answer
is an :class:`Advice` (the action, how it was found, the values best first), which the
browser and the terminal put into words from the message catalog (``hint.*``); nothing
here makes a sentence. Where the position cannot be searched (a window before the cards
are seen, a game without a determinizer), the advice is the game's own quick bot's choice,
without values.

>>> import random, folkdeck
>>> game = folkdeck.load("kaphai")
>>> state = game.new_state(seed=4)
>>> seat = state.current_seat
>>> advice = advise(game, state.observe(seat), state.legal_actions(seat), random.Random(1), rollouts=40)
>>> advice.action in [str(a) for a in state.legal_actions(seat)], advice.by in ("search", "bot")
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from folkdeck.agents.registry import make_agent
from folkdeck.engine.protocol import Action, Game

HINT_BOT = "pimc"
"""The bot that gives hints (every game has it: :func:`folkdeck.agents.search.search_bots`)."""
HINT_ROLLOUTS = 240
"""Rollouts of one hint: about a second of one core in the slowest game."""


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One action's mean return for the seat over ``worlds`` sampled deals."""

    action: str
    value: float
    worlds: int

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "value": round(self.value, 4), "worlds": self.worlds}


@dataclass(frozen=True, slots=True)
class Advice:
    """``action``: what to play; ``by``: ``"search"`` (with ``values``, best first) or
    ``"bot"`` (the game's quick bot's choice: the position could not be searched)."""

    action: str
    by: str
    values: tuple[ActionValue, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "by": self.by, "values": [v.to_dict() for v in self.values]}


def advise(game: Game, observation: Any, legal: Sequence[Action], rng: random.Random, *,
           rollouts: int = HINT_ROLLOUTS, time_limit: float | None = None) -> Advice:
    """The advice for the observing seat among ``legal`` (which must not be empty)."""
    if not legal:
        raise ValueError("no legal action to advise on")
    spec = game.spec
    agent = make_agent(spec, HINT_BOT, game=game)
    agent.rollouts = rollouts
    agent.time_limit = time_limit
    values = agent.action_values(observation, legal, rng)
    if values:
        return Advice(action=str(values[0][0]), by="search",
                      values=tuple(ActionValue(str(a), v, n) for a, v, n in values))
    quick = make_agent(spec, spec.default_bot, game=game)
    return Advice(action=str(quick.act(observation, list(legal), rng)), by="bot")


__all__ = ["HINT_BOT", "HINT_ROLLOUTS", "ActionValue", "Advice", "advise"]
