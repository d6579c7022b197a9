"""The toy game's rules options: a frozen dataclass, checked when made, and its presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from folkdeck.engine.errors import InvalidConfigError


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyOptions:
    """Every option of the toy game (``folkdeck.load("toy", players=3)`` fills it).

    >>> try:
    ...     ToyOptions(hand_size=13)
    ... except InvalidConfigError as exc:
    ...     exc.reason, exc.params["limit"]
    ('toy.hand_size', 12)
    """

    players: int = 2
    hand_size: int = 3
    """Cards dealt to each seat from the 24-card pack (the rest stay face down)."""

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise InvalidConfigError("toy.players", option="players", value=self.players)
        if not 1 <= self.hand_size <= 24 // self.players:
            raise InvalidConfigError("toy.hand_size", option="hand_size", value=self.hand_size,
                                     limit=24 // self.players)


PRESETS: Final[dict[str, dict[str, object]]] = {"standard": {}, "long": {"hand_size": 6}}
