"""What one Gou Ji seat sees (or a spectator, ``seat=None``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from folkdeck.cards import Card, format_cards
from folkdeck.games.gouji.rules import RANK_WORDS

_MODES = {"normal": "", "duel": "gouji duel", "final": "gouji: last answer",
          "after_burn": "after a burn"}


@dataclass(frozen=True, slots=True, kw_only=True)
class GouJiObservation:
    """A seat's view: own hand, the public table, counts the rules make public,
    hands shown to this seat (open hands; teammates' at ≤ 10 cards)."""

    seat: int | None
    phase: str
    hand: tuple[Card, ...] | None
    counts: tuple[int | None, ...]
    shown: dict[int, tuple[Card, ...]]
    top: str | None
    top_seat: int | None
    mode: str
    gouji_seat: int | None
    passed: tuple[int, ...]
    to_act: tuple[int, ...]
    """The seats of the state's ``to_act`` whose right is public, plus this seat if it
    is in ``to_act`` (``GouJiState.view_to_act``). Public: the seat on turn in play,
    tribute, objection, withdrawal and drawer turns, re-order windows, the 先让让
    requester (the trick shows it may ask) and ``strict_penalty``'s false-claim seat.
    Hidden, since they depend on hidden cards (notes §2.1-§2.2): who is asked to declare
    two 3s (``start``), to call revolution or to burn (烧牌); with ``strict_penalty``
    every seat is asked there, so those windows are public. A view may thus be empty
    while the deal goes on: the game waits for a seat this viewer may not name."""
    current_seat: int | None
    """``to_act[0]`` of this view, ``None`` when it is empty."""
    trick: tuple[str, ...]
    history: tuple[str, ...]
    """The last events (at most ``RECENT``), as this seat may see them."""
    played: tuple[int, ...]
    """How many cards of each rank (3 … RJ) have been played this deal."""
    out_order: tuple[int, ...]
    leader: int
    tribute: tuple[str, ...]
    private: tuple[str, ...]
    xian_request: int | None
    opened: tuple[int, ...]
    """``modern_kai_dian``: the seats that have opened (开点)."""
    legal_actions: tuple[str, ...]
    result: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "gouji", "seat": self.seat, "phase": self.phase,
            "hand": format_cards(self.hand) if self.hand is not None else None,
            "counts": list(self.counts),
            "shown": {str(s): format_cards(c) for s, c in self.shown.items()},
            "top": self.top, "top_seat": self.top_seat, "mode": self.mode,
            "gouji_seat": self.gouji_seat, "passed": list(self.passed),
            "to_act": list(self.to_act), "current_seat": self.current_seat,
            "trick": list(self.trick), "history": list(self.history),
            "played": dict(zip(RANK_WORDS, self.played, strict=True)),
            "out_order": list(self.out_order), "leader": self.leader,
            "tribute": list(self.tribute), "private": list(self.private),
            "xian_request": self.xian_request, "opened": list(self.opened), "legal_actions": list(self.legal_actions),
            "result": self.result,
            "teams": [[0, 2, 4], [1, 3, 5]],
            "opposite": None if self.seat is None else (self.seat + 3) % 6,
        }

    def to_text(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        lines = [f"Gou Ji, {who}, phase {self.phase}"]
        if self.seat is not None:
            mates = [(self.seat + 2) % 6, (self.seat + 4) % 6]
            lines.append(f"Teammates: seats {mates[0]} and {mates[1]}; "
                         f"your opposite (对门): seat {(self.seat + 3) % 6}")
        if self.hand is not None:
            lines.append(f"Your hand ({len(self.hand)}): {format_cards(self.hand)}")
        for s, cards in sorted(self.shown.items()):
            lines.append(f"Seat {s} shows: {format_cards(cards)}")
        counts = ", ".join(
            f"seat {s}: " + ("out" if c == 0 else "?" if c is None else str(c))
            + self._mark(s) for s, c in enumerate(self.counts))
        lines.append(f"Cards left: {counts}")
        lines += [f"Tribute: {t}" for t in self.tribute]
        lines += [f"(private) {t}" for t in self.private]
        if self.top is not None:
            mode = _MODES.get(self.mode, "")
            lines.append(f"On the table: {self.top} by seat {self.top_seat}"
                         + (f" ({mode})" if mode else ""))
        elif self.phase == "play":
            lines.append("On the table: nothing (a new trick)")
        if self.passed:
            lines.append("Passed this trick: " + ", ".join(f"seat {s}" for s in self.passed))
        if self.trick:
            lines.append("This trick: " + " | ".join(self.trick))
        if self.xian_request is not None:
            lines.append(f"Seat {self.xian_request} asks you to pass (先让让)")
        if self.current_seat is not None:
            lines.append(f"To act: seat {self.current_seat}")
        return "\n".join(lines)

    def _mark(self, s: int) -> str:
        if self.seat is None:
            return ""
        if s == self.seat:
            return " (you)"
        if (s - self.seat) % 2 == 0:
            return " (team)"
        return " (opposite)" if (s - self.seat) % 6 == 3 else ""
