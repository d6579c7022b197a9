"""What every game object shares: its spec and its frozen options.

>>> from folkdeck import load
>>> game = load("kaphai", players=3)
>>> game.spec.name, game.num_players, game.options.players
('kaphai', 3, 3)
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from folkdeck.engine.protocol import GameSpec

OptionsT = TypeVar("OptionsT")


class GameBase(Generic[OptionsT]):
    """Holds a game's :class:`GameSpec` and options; subclasses deal the states."""

    def __init__(self, spec: GameSpec, options: OptionsT) -> None:
        self._spec = spec
        self._options = options

    @property
    def spec(self) -> GameSpec:
        return self._spec

    @property
    def options(self) -> OptionsT:
        return self._options

    @property
    def num_players(self) -> int:
        """The options' ``players`` (a game with a fixed table overrides this)."""
        players: Any = getattr(self._options, "players", None)
        if players is None:  # pragma: no cover - such a game overrides num_players
            raise NotImplementedError(f"{type(self).__name__} must define num_players")
        return int(players)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._options}>"
