"""What one Cangkul or Burro seat sees (or a spectator, ``seat=None``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from folkdeck.cards import Card, format_cards


@dataclass(frozen=True, slots=True, kw_only=True)
class CangkulObservation:
    """A seat's view: its own hand, the table, the others' card counts, the public log.

    ``log`` is the public history as ``(seat, verb, arg)``: ``lead``/``play`` a card,
    ``draw``/``pass`` on the led suit's letter (the drawn card itself stays hidden),
    ``take`` the cards a passer collected, ``knock`` how many stock cards were taken,
    ``out`` (arg ``"0"``). Agents read voids and collections from it.
    """

    title: str
    seat: int | None
    num_players: int
    phase: str
    direction: str
    hand: tuple[Card, ...] | None
    counts: tuple[int, ...]
    stock: tuple[int, ...]
    led_suit: str | None
    led_suit_letter: str | None
    trick_leader: int
    trick: tuple[tuple[int, str], ...]
    passers: tuple[int, ...]
    collected: tuple[tuple[int, str], ...]
    """What the passers took at the end of the last trick: ``(seat, cards)``."""
    known: tuple[str, ...]
    """Per seat, the cards publicly known to be in its hand (taken as a passer)."""
    out: tuple[int, ...]
    dead: int
    current_seat: int | None
    log: tuple[tuple[int, str, str], ...]
    history: tuple[str, ...]
    legal_actions: tuple[str, ...]
    card_names: tuple[tuple[str, str], ...]
    result: dict[str, Any] | None
    stall: int = 0
    """Finished tricks in a row that the passers took with the stock empty (no card left play)."""
    stall_limit: int = 0
    """The ``stall`` count that ends the deal as a stalemate (0: no limit)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.title, "seat": self.seat, "phase": self.phase, "direction": self.direction,
            "hand": format_cards(self.hand) if self.hand is not None else None,
            "counts": list(self.counts), "stock": list(self.stock), "led_suit": self.led_suit,
            "led_suit_letter": self.led_suit_letter, "trick_leader": self.trick_leader,
            "trick": [f"{s}: {c}" for s, c in self.trick], "passers": list(self.passers),
            "collected": [f"{s}: {c}" for s, c in self.collected], "known": list(self.known),
            "out": list(self.out), "dead": self.dead, "current_seat": self.current_seat,
            "log": [list(e) for e in self.log], "history": list(self.history),
            "legal_actions": list(self.legal_actions), "result": self.result,
            "stall": self.stall, "stall_limit": self.stall_limit,
        }

    def to_text(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        lines = [f"{self.title}, {self.num_players} players ({self.direction}: seat + 1 plays next), {who}"]
        if self.hand is not None:
            lines.append(f"Your hand ({len(self.hand)}): {format_cards(self.hand)}")
        counts = ", ".join(f"seat {s}: {c}" + (" (out)" if s in self.out and not c else "")
                           for s, c in enumerate(self.counts))
        lines.append(f"Cards held: {counts}")
        if len(self.stock) == 2:
            lines.append(f"Stock: left pile {self.stock[0]}, right pile {self.stock[1]}")
        else:
            lines.append(f"Stock: {self.stock[0]} cards")
        names = dict(self.card_names)
        if self.trick:
            plays = " | ".join(f"{s}: {c}" + (f" ({names[c]})" if names.get(c, c) != c else "")
                               for s, c in self.trick)
            lines.append(f"Seat {self.trick_leader} led; led suit: {self.led_suit or 'not set yet'}")
            lines.append(f"This trick: {plays}")
        elif self.phase == "play":
            lines.append(f"Seat {self.trick_leader} leads a new trick")
        if self.passers:
            lines.append("Passed: " + ", ".join(f"seat {s}" for s in self.passers))
        if self.collected:
            lines.append("Last trick collected: " + "; ".join(f"seat {s} took {c}" for s, c in self.collected))
        if any(self.known):
            lines.append("Known in hands: " + "; ".join(f"seat {s}: {k}" for s, k in enumerate(self.known) if k))
        if self.stall and self.stall_limit:
            lines.append(f"Tricks in a row taken by passers: {self.stall} "
                         f"(a stalemate at {self.stall_limit})")
        if self.current_seat is not None:
            lines.append(f"To play: seat {self.current_seat}")
        elif self.result is not None:
            lines.append(f"Deal over: {self.result}")
        return "\n".join(lines)
