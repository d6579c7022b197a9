"""What a game declares about itself: a static description and typed hooks.

The split follows OpenSpiel's ``_GAME_TYPE``/``_GAME_INFO`` and its game class:

- :class:`GameInfo` is the static description, plain data that every lobby, terminal
  and arena may read without loading any of the game's code beyond its rules: the name,
  the seats, the options type and presets, the card notation, the teams, the windows,
  how a match ends, the glossary...
- :class:`GameHooks` is the game's code that the engine and the adapters call: ``make``
  (the game object from its options), ``describe_action`` and ``view_type`` (part of the
  rules, imported with them anyway), and the hooks that load much more than the rules,
  which are therefore loaded at first use: the ``bots`` (a :class:`LazyBots`) and the
  ``determinizer`` (a :class:`Lazy` of a
  :class:`~folkdeck.engine.determinize.Determinizer`), so that ``import folkdeck`` loads
  no bot and no search code.

:class:`GameSpec` is both: the static fields are its own (``spec.name``,
``spec.windows``...), the hooks are ``spec.hooks`` and read through properties
(``spec.bots``, ``spec.determinizer``, ``spec.describe_action``...).

This module gathers them; they are declared where their references point one way:
:mod:`~folkdeck.engine.gameinfo` holds what names no game object (``GameInfo``, the bots,
``Lazy``), :mod:`~folkdeck.engine.protocol` holds ``GameSpec`` and ``GameHooks`` beside the
``Game`` they make and that names them.

>>> import folkdeck
>>> spec = folkdeck.get_spec("kaphai")
>>> spec.name, spec.windows, spec.hooks.determinizer is not None
('kaphai', ('putuh',), True)
"""

from __future__ import annotations

from folkdeck.engine.gameinfo import (
    Agent,
    BotFactory,
    DescribeAction,
    GameAgent,
    GameInfo,
    Lazy,
    LazyBots,
    MatchEnd,
    no_teams,
)
from folkdeck.engine.protocol import GameHooks, GameSpec

__all__ = ["Agent", "BotFactory", "DescribeAction", "GameAgent", "GameHooks", "GameInfo", "GameSpec", "Lazy",
           "LazyBots", "MatchEnd", "no_teams"]
