"""What one Kap Hai seat sees (or a spectator, ``seat=None``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from folkdeck.cards import Card, format_cards


@dataclass(frozen=True, slots=True, kw_only=True)
class KapHaiObservation:
    """A seat's view: its own hand, the public table, the others' card counts.

    ``to_act`` and ``current_seat`` never tell which other seats may declare putuh."""

    seat: int | None
    num_players: int
    phase: str
    hand: tuple[Card, ...] | None
    counts: tuple[int, ...]
    top: str | None
    top_name: str | None
    top_seat: int | None
    passed: tuple[int, ...]
    to_act: tuple[int, ...]
    """In play, the seat on turn. In the putuh window (``putuh_optional``) only this seat,
    while it may still declare or pass, else nothing: listing the other seats that may
    declare would show who holds a putuh hand (``KapHaiState.view_to_act``)."""
    current_seat: int | None
    """``to_act[0]`` of this view (``None`` when it is empty, e.g. in the putuh window
    for a seat that may not declare, and for a spectator)."""
    trick: tuple[str, ...]
    history: tuple[str, ...]
    out_order: tuple[int, ...]
    three_game: bool
    shed: str
    legal_actions: tuple[str, ...]
    result: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "kaphai", "seat": self.seat, "phase": self.phase,
            "hand": format_cards(self.hand) if self.hand is not None else None,
            "counts": list(self.counts), "top": self.top, "top_name": self.top_name,
            "top_seat": self.top_seat, "passed": list(self.passed), "to_act": list(self.to_act),
            "current_seat": self.current_seat, "trick": list(self.trick),
            "history": list(self.history), "out_order": list(self.out_order),
            "three_game": self.three_game, "shed": self.shed,
            "legal_actions": list(self.legal_actions), "result": self.result,
        }

    def to_text(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        lines = [f"Kap Hai, {self.num_players} players, {who}"
                 + (" (a 3-game)" if self.three_game else "")]
        if self.shed:
            lines.append(f"3s put out: {self.shed}")
        if self.hand is not None:
            lines.append(f"Your hand ({len(self.hand)}): {format_cards(self.hand)}")
        counts = ", ".join(f"seat {s}: {c}" + (" (out)" if c == 0 else "")
                           for s, c in enumerate(self.counts))
        lines.append(f"Cards left: {counts}")
        if self.top is not None:
            lines.append(f"On the table: {self.top} ({self.top_name}) by seat {self.top_seat}")
        else:
            lines.append("On the table: nothing (a new trick)")
        if self.passed:
            lines.append("Out of this trick: " + ", ".join(f"seat {s}" for s in self.passed))
        if self.trick:
            lines.append("This trick: " + " | ".join(self.trick))
        if self.phase == "putuh":
            lines.append("Putuh window: " + ("you may declare putuh or pass" if self.seat in self.to_act
                                             else "waiting for any putuh declaration"))
        elif self.current_seat is not None:
            lines.append(f"To play: seat {self.current_seat}")
        return "\n".join(lines)
