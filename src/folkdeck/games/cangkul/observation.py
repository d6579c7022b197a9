"""What one Cangkul or Burro seat sees (or a spectator, ``seat=None``): :class:`CangkulView`.

The core fields (:class:`~folkdeck.engine.view.View`) carry the hand, every seat's card
count (public), the current trick as plays (``top``: the play winning it so far), the
seats that passed in it, the order out (drop-out games), and the stock's piles.
``status`` says, as facts, what else a player must know now: a joker lead that leaves
the suit open (:class:`~folkdeck.games.cangkul.events.JokerLead`), the cards others are
known to hold because they took them as passers (``cangkul.known_cards``), the suits
others have shown they lack (``cangkul.void``) and the run of stalled tricks towards a
stalemate (``cangkul.stall_count``). ``history`` is the deal so far as this seat saw it
(its own drawn cards included, others' hidden). The fields below are typed copies for
the bots and the determinizer.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from folkdeck.cards import Card, Suit
from folkdeck.engine.view import View


class CangkulPhase(StrEnum):
    """The phases of a deal: the tricks, the end."""

    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True, kw_only=True)
class CangkulView(View):
    """A seat's view of a Cangkul, Spanish Burro or Portuguese Burro deal (every right to
    act is public: ``to_act`` is the seat on turn)."""

    phase: CangkulPhase
    direction: str
    """The table's direction, a term key (``clockwise``, ``counter-clockwise``); in either,
    seat + 1 plays next."""
    pack: str
    """The pack (``french52``, ``french53``, ``spanish48``, ``portuguese40``)."""
    ace_high: bool
    """The ace is the highest card of its suit (Cangkul, Portuguese ``pt_ace_high``)."""
    led_suit: Suit | None
    """The led suit, ``None`` before the trick's first suited card (a lead, a joker lead)."""
    trick_leader: int
    """The seat that led (or leads) the current trick."""
    collected: tuple[tuple[int, tuple[Card, ...]], ...]
    """What the passers took at the end of the last trick: ``(seat, cards)``."""
    known: tuple[tuple[Card, ...], ...]
    """Per seat, the cards publicly known to be in its hand (taken as a passer)."""
    voids: tuple[tuple[Suit, ...], ...]
    """Per seat, the suits its unseen cards (all but ``known``) are shown to lack: it dug or
    passed on that led suit and has taken no unseen card of another suit since."""
    joker_void: tuple[bool, ...]
    """Per seat, its unseen cards are shown to hold no joker (digging under
    ``joker_play="must_when_void"``)."""
    dead: tuple[Card, ...]
    """The cards out of play: finished tricks that nobody took."""
    stall: int = 0
    """Finished tricks in a row that the passers took with the stock empty."""
    stall_limit: int = 0
    """The ``stall`` count that ends the deal as a stalemate (0: no limit)."""
    stall_reset: bool = False
    """A player went out in the current trick: its end counts the stall from 0 again."""


__all__ = ["CangkulPhase", "CangkulView"]
