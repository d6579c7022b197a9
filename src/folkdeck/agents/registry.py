"""Look bots up by name for a game (``random``, ``first``, ``greedy``...)."""

from __future__ import annotations

from typing import Any

from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.protocol import Game
from folkdeck.engine.spec import GameSpec


def make_agent(spec: GameSpec, name: str | None = None, *, game: Game | None = None) -> Any:
    """A new bot of the given name for a game (its default bot when ``name`` is None).

    With ``game``, a bot that searches (it has a ``bind`` method) is told the rules of
    the deals it will play; the rules are public, so this reveals no hidden card.

    :raises InvalidConfigError: naming the unknown bot and the known ones.

    Typed ``Any``: an :class:`~folkdeck.engine.spec.Agent`, whose optional ``interrupt``
    and ``bind`` methods callers use where the bot has them.
    """
    key = name or spec.default_bot
    factory = spec.bots.get(key)
    if factory is None:
        raise InvalidConfigError("unknown_bot", bot=key, game=spec.name, bots=", ".join(spec.bots))
    agent = factory()
    if game is not None and hasattr(agent, "bind"):
        agent.bind(game)
    return agent
