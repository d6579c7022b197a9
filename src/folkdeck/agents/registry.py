"""Look bots up by name for a game (``random``, ``first``, ``greedy``...)."""

from __future__ import annotations

from typing import Any

from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.protocol import GameSpec


def make_agent(spec: GameSpec, name: str | None = None) -> Any:
    """A new bot of the given name for a game (its default bot when ``name`` is None).

    :raises InvalidConfigError: naming the unknown bot and the known ones.
    """
    key = name or spec.default_bot
    factory = spec.bots.get(key)
    if factory is None:
        raise InvalidConfigError(
            f"unknown bot {key!r} for {spec.name} (bots are: {', '.join(spec.bots)})", bot=key)
    return factory()
