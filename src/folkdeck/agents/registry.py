"""Look bots up by name for a game (``random``, ``first``, ``greedy``...)."""

from __future__ import annotations

from folkdeck.engine.bots import GameAgent
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.protocol import Game, GameSpec


def make_agent(spec: GameSpec, name: str | None = None, *, game: Game | None = None) -> GameAgent:
    """A new bot of the given name for a game (its default bot when ``name`` is None).

    With ``game``, a bot that searches (it has a ``bind`` method) is told the rules of
    the deals it will play; the rules are public, so this reveals no hidden card.

    ``learned=PATH`` is a learned bot playing the model file at ``PATH`` (a checkpoint of
    ``folkdeck train``; :func:`folkdeck.agents.learned.agent_from_file`).

    :raises InvalidConfigError: naming the unknown bot and the known ones, or a model
        file that cannot be read.

    An :class:`~folkdeck.engine.bots.Agent`, whose optional ``interrupt`` and ``bind``
    methods callers use where the bot has them.
    """
    key = name or spec.default_bot
    factory = spec.bots.get(key)
    if factory is None and key.startswith("learned="):
        return _learned_from_file(spec, key.removeprefix("learned="), game)
    if factory is None:
        raise InvalidConfigError("unknown_bot", bot=key, game=spec.name, bots=", ".join(spec.bots))
    agent = factory()
    if game is not None and hasattr(agent, "bind"):
        agent.bind(game)
    return agent


def _learned_from_file(spec: GameSpec, path: str, game: Game | None) -> GameAgent:
    from folkdeck.agents.learned import agent_from_file, model_file

    try:
        model_file(path)  # read now: a bad file is refused before any deal
    except (OSError, ValueError, KeyError) as exc:
        raise InvalidConfigError("bad_model_file", bot=f"learned={path[:200]}", error=str(exc)[:200]) from None
    agent = agent_from_file(spec, path)
    if game is not None:
        agent.bind(game)
    return agent
