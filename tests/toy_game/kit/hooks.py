"""A trick game's spec hooks (:func:`trick_hooks`): the game's ``make`` and bots, and the
kit's action fact, view type and determinizer, the determinizer loaded at first use (so
that a game's import loads no search code).

>>> from tests.toy_game.kit.example import EXAMPLE_SPEC
>>> hooks = EXAMPLE_SPEC.hooks
>>> hooks.view_type.__name__, hooks.determinizer is not None and hooks.determinizer.loaded
('TrickView', False)
>>> hooks.determinizer.get()
Determinization(TrickGame, TrickView)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from folkdeck.engine.protocol import Determinizer, GameHooks, Lazy, LazyBots
from tests.toy_game.kit.game import TrickGame
from tests.toy_game.kit.state import describe_play
from tests.toy_game.kit.view import TrickView


def _determinizer() -> Determinizer:
    from tests.toy_game.kit.worlds import DETERMINIZER

    return DETERMINIZER


def trick_hooks(make: Callable[[Any], TrickGame], bots: LazyBots) -> GameHooks:
    """A trick game's :class:`GameHooks`: its ``make`` and ``bots``, and the kit's action
    fact, view type and determinizer (loaded at first use)."""
    return GameHooks(make=make, describe_action=describe_play, view_type=TrickView, bots=bots,
                     determinizer=Lazy(_determinizer))


__all__ = ["trick_hooks"]
