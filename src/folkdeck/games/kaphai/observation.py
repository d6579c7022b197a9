"""What one Kap Hai seat sees (or a spectator, ``seat=None``): :class:`KapHaiView`.

The core fields (:class:`~folkdeck.engine.view.View`) carry the hand, every seat's card
count (public in Kap Hai), the current trick as plays (a thrown 2-2-2 labelled
``thrown``), the play to beat, who passed and who is out. ``status`` says what else a
player must know now, as facts: how a 3-game started (:class:`~folkdeck.games.kaphai.
events.ThreeGame`, :class:`~folkdeck.games.kaphai.events.ThreesPutOut`), an open putuh
window, and after a putuh who declared what. The fields below are typed copies for the
bots and the determinizer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from folkdeck.cards import Card
from folkdeck.engine.view import View


class KapHaiPhase(StrEnum):
    """The phases of a deal: the putuh window (``putuh_optional``), the tricks, the end."""

    PUTUH = "putuh"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True, kw_only=True)
class KapHaiView(View):
    """A seat's view of a Kap Hai deal.

    ``to_act`` never tells which other seats may declare putuh: in the putuh window that
    asks only the holders (``ask_all_seats`` off) it lists only this seat, while it may
    still declare or pass, else nothing; with ``ask_all_seats`` every seat is asked in
    turn, so the seat asked is public."""

    phase: KapHaiPhase
    three_game: bool
    """A 3-game: the first lead is a single (docs/rules/kaphai.md §2.1)."""
    shed: tuple[Card, ...]
    """The 3s put out (or only shown) at the start of a 3-game."""
    played: tuple[Card, ...]
    """Every card played so far (thrown 2s included), in Kap Hai order."""
    top_combo: str | None
    """The term key of the play to beat (``pair``, ``pae_kare``...), ``None`` on a lead."""
    lead_single: bool
    """The lead to come must be a single card (the first lead of a 3-game)."""
    leader: int
    """The seat that led (or leads) the deal's first trick."""


__all__ = ["KapHaiPhase", "KapHaiView"]
