"""What one seat sees of a trick deal (:mod:`tests.toy_game.kit`): the core
:class:`~folkdeck.engine.view.View` (the hand, the counts, the trick on the table and its
``top``) and the two fields every such game shares.

>>> view = TrickView(game="demo", seat=None, num_players=2, phase="play", hand=None, counts=(3, 3),
...                  to_act=(0,), current_seat=0, tricks=(0, 0), setup={"leader": 0})
>>> view.to_dict()["tricks"], view.to_dict()["setup"]
([0, 0], {'leader': 0})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from folkdeck.engine.view import View


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickView(View):
    """A seat's (or a spectator's) view of a trick deal."""

    tricks: tuple[int, ...]
    """Tricks won so far by each seat."""
    setup: Mapping[str, int]
    """The deal's setup (who led the first trick...), as the record holds it."""


__all__ = ["TrickView"]
