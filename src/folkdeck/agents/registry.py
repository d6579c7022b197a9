"""Look bots up by name for a game (``random``, ``first``, ``greedy``...)."""

from __future__ import annotations

from typing import Final

from folkdeck.engine.bots import GameAgent
from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.protocol import Game, GameSpec

MODEL_FILE_BOTS: Final = ("learned=", "learned+search=")
"""The bot names that end in a model file's path (:func:`make_agent`)."""


def make_agent(spec: GameSpec, name: str | None = None, *, game: Game | None = None) -> GameAgent:
    """A new bot of the given name for a game (its default bot when ``name`` is None).

    With ``game``, a bot that searches (it has a ``bind`` method) is told the rules of
    the deals it will play; the rules are public, so this reveals no hidden card.

    ``learned=PATH`` is a learned bot playing the model file at ``PATH`` (a checkpoint of
    ``folkdeck train``; :func:`folkdeck.agents.learned.agent_from_file`), and
    ``learned+search=PATH`` the game's ``learned+search`` with that model's network
    (:class:`folkdeck.agents.learned.LearnedSearch`).

    :raises InvalidConfigError: naming the unknown bot and the known ones, or a model
        file that cannot be read.

    An :class:`~folkdeck.engine.bots.Agent`, whose optional ``interrupt`` and ``bind``
    methods callers use where the bot has them.
    """
    key = name or spec.default_bot
    factory = spec.bots.get(key)
    if factory is None and key.startswith("learned="):
        return _learned_from_file(spec, key.removeprefix("learned="), game)
    if factory is None and key.startswith("learned+search="):
        return _learned_search_from_file(spec, key.removeprefix("learned+search="), game)
    if factory is None:
        raise InvalidConfigError("unknown_bot", bot=key, game=spec.name, bots=", ".join(spec.bots))
    agent = factory()
    if game is not None and hasattr(agent, "bind"):
        agent.bind(game)
    return agent


def _read_model(path: str, bot: str) -> None:
    """Read the model file now: a bad file is refused before any deal."""
    from folkdeck.agents.learned import model_file

    try:
        model_file(path)
    except (OSError, ValueError, KeyError) as exc:
        raise InvalidConfigError("bad_model_file", bot=f"{bot}={path[:200]}", error=str(exc)[:200]) from None


def _learned_from_file(spec: GameSpec, path: str, game: Game | None) -> GameAgent:
    from folkdeck.agents.learned import agent_from_file

    _read_model(path, "learned")
    agent = agent_from_file(spec, path)
    if game is not None:
        agent.bind(game)
    return agent


def _learned_search_from_file(spec: GameSpec, path: str, game: Game | None) -> GameAgent:
    from folkdeck.agents.learned import LearnedSearch

    factory = spec.bots.get("learned+search")
    if not isinstance(factory, LearnedSearch):
        raise InvalidConfigError("unknown_bot", bot=f"learned+search={path[:200]}", game=spec.name,
                                 bots=", ".join(spec.bots))
    _read_model(path, "learned+search")
    agent = factory.of_file(spec, path)()
    bind = getattr(agent, "bind", None)
    if game is not None and bind is not None:
        bind(game)
    return agent
