"""Kap Hai rules options (docs/rules/kaphai.md §9), frozen and validated."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

from folkdeck.engine.errors import InvalidConfigError
from folkdeck.engine.protocol import Game


@dataclass(frozen=True, slots=True, kw_only=True)
class KapHaiOptions:
    """Every Kap Hai rule option, with the defaults of docs/rules/kaphai.md §9.

    >>> KapHaiOptions(players=5)
    Traceback (most recent call last):
    ...
    folkdeck.engine.errors.InvalidConfigError: option players=5: Kap Hai is for 2, 3 or 4 players
    """

    players: int = 4
    low_single_free: bool = False
    """Local rule A-1: on a single of 5 or lower, any single 3-5 may be played."""
    low_single_same_rank: bool = False
    """Local rule A-2: on a single of 5 or lower, the same rank in any suit may be played."""
    low_police_void: bool = False
    """Local rule B: a 3-4-5 of one suit is not a police."""
    allow_double_triple: bool = False
    """Two triples of consecutive ranks are a legal shape (docs/rules/kaphai.md §6)."""
    putuh_tie: Literal["rank", "shared_first"] = "rank"
    putuh_optional: bool = False
    """Putuh must be declared (an action) instead of winning automatically."""
    ask_all_seats: bool = field(default=True, metadata={"record_default": False})
    """With ``putuh_optional``: the window opens at every deal and asks every seat in turn
    (a seat without a putuh may only pass), so nobody learns who holds one. Records that do
    not name it were played without it (``record_defaults``)."""
    three_game_shed_threes: bool = True
    twos_in_pair_runs: bool = False
    throw_222_on_any_three: bool = False
    two_player_hands: Literal["first_two", "alternate"] = "first_two"
    lead_after_out: Literal["next_active", "left_of_out"] = "next_active"
    placement_points: tuple[int, ...] = (3, 2, 1, 0)

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise InvalidConfigError("kaphai.players", option="players", value=self.players)
        if len(self.placement_points) < self.players:
            raise InvalidConfigError("kaphai.placement_points", option="placement_points",
                                     value=",".join(map(str, self.placement_points)),
                                     players=self.players)


PRESETS: dict[str, dict[str, object]] = {
    "standard": {},
    "local": {"low_single_same_rank": True, "low_police_void": True, "allow_double_triple": True},
    "shared_putuh": {"putuh_tie": "shared_first"},
    "declared_putuh": {"putuh_optional": True},
}


class KapHaiGameLike(Game, Protocol):
    """The game as a deal reads it: a :class:`~folkdeck.engine.protocol.Game` with Kap Hai's
    options (:class:`~folkdeck.games.kaphai.game.KapHaiGame` is one). States and the view
    reader take this, so that they need not import the game module, which makes them."""

    @property
    def options(self) -> KapHaiOptions: ...
