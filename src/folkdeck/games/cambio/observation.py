"""What one Cambio seat sees (or a spectator, ``seat=None``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from folkdeck.cards import Card, format_cards
from folkdeck.games.cambio.rules import FOOL, KIND, PACK_TABLES, PackTable


@dataclass(frozen=True, slots=True, kw_only=True)
class CambioObservation:
    """A seat's view: its own card, the open discards, chips and pot, and what the
    rules have shown of others' cards (``shown``: refusals) or what the seat can
    follow itself (``known``: the cards it gave away in exchanges, and where they are)."""

    seat: int | None
    num_players: int
    pack: str
    """The ``pack`` option: ``"40"`` or ``"nifty44"`` (notes §3.1)."""
    phase: str
    dealer: int
    deal: int
    game_number: int
    chips: tuple[int, ...]
    pot: int
    card: Card | None
    card_from_stock: bool
    """The card was taken from the stock this deal (a FOOL then counts above the OWL)."""
    card_origin: int | None
    """The seat first dealt this seat's card (``None``: the stock); public, since every
    exchange is announced."""
    dealt_card: Card | None
    """The card this seat was dealt (the CAT blames the seat first dealt a card)."""
    in_deal: tuple[int, ...]
    active: tuple[int, ...]
    disqualified: tuple[tuple[int, str], ...]
    declared: tuple[tuple[int, str], ...]
    to_act: tuple[int, ...]
    """The seat on turn, then this seat itself when it holds an active OWL out of turn
    (it may call cucco). Other OWL holders are never listed, since that would show who
    holds an OWL; a spectator sees the seat on turn only (``CambioState.view_to_act``)."""
    current_seat: int | None
    stock_count: int
    discards: tuple[Card, ...]
    """The face-up discards (all of them under ``open_discards``)."""
    discard_count: int
    shown: tuple[tuple[int, str], ...]
    known: tuple[tuple[int, str], ...]
    loser_pays: int | None
    """Chips a loser of this deal pays, ``None``: losers are eliminated."""
    history: tuple[str, ...]
    legal_actions: tuple[str, ...]
    result: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "cambio", "seat": self.seat, "pack": self.pack, "phase": self.phase, "dealer": self.dealer,
            "deal": self.deal, "game_number": self.game_number, "chips": list(self.chips),
            "pot": self.pot, "card": str(self.card) if self.card is not None else None,
            "card_from_stock": self.card_from_stock, "card_origin": self.card_origin,
            "dealt_card": str(self.dealt_card) if self.dealt_card is not None else None,
            "in_deal": list(self.in_deal), "active": list(self.active),
            "disqualified": {str(s): r for s, r in self.disqualified},
            "declared": {str(s): d for s, d in self.declared}, "to_act": list(self.to_act),
            "current_seat": self.current_seat, "stock_count": self.stock_count,
            "discards": format_cards(self.discards), "discard_count": self.discard_count,
            "shown": {str(s): c for s, c in self.shown}, "known": {str(s): c for s, c in self.known},
            "loser_pays": self.loser_pays, "history": list(self.history),
            "legal_actions": list(self.legal_actions), "result": self.result,
        }

    @property
    def pack_table(self) -> PackTable:
        """The pack's kinds and card order."""
        return PACK_TABLES[self.pack]

    def order_key(self, card: Card) -> int:
        """A sort key: the card's place in this pack's order, bottom first."""
        return self.pack_table.values[KIND[card]]

    def unseen(self) -> tuple[Card, ...]:
        """The cards this seat has not seen: the pack less the discards, its own card and the
        cards shown or known (the counting of seed 002 "カウンティング")."""
        from folkdeck.cards import parse_card

        left = Counter(self.pack_table.pack.cards)
        left.subtract(self.discards)
        if self.card is not None:
            left[self.card] -= 1
        for _, c in (*self.shown, *self.known):
            left[parse_card(c)] -= 1
        return tuple(c for c in sorted(left, key=self.order_key) for _ in range(max(left[c], 0)))

    def to_text(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        stake = (f"losers pay {self.loser_pays}" if self.loser_pays is not None
                 else "losers are eliminated")
        pack = "" if self.pack == "40" else " (Nifty 44-card pack)"
        lines = [f"Cambio{pack}, {self.num_players} players, {who}; game {self.game_number}, deal "
                 f"{self.deal} ({stake}); dealer: seat {self.dealer}"]
        lines.append("Chips: " + ", ".join(
            f"seat {s}: {c}" + ("" if s in self.in_deal else " (out)") for s, c in enumerate(self.chips))
            + f"; pot {self.pot}")
        if self.card is not None:
            extra = (f" (from the stock: counts {self.pack_table.stock_fool})"
                     if self.card_from_stock and KIND[self.card] == FOOL else "")
            lines.append(f"Your card: {self.card}{extra}")
        elif self.seat is not None and self.seat in self.in_deal:
            lines.append("Your card: none (disqualified)")
        lines.append(f"Stock: {self.stock_count} cards; discards ({self.discard_count}): "
                     + (format_cards(sorted(self.discards, key=self.order_key)) or "none")
                     + ("" if len(self.discards) == self.discard_count else " (the rest face down)"))
        if self.seat is not None and self.phase == "exchange" and len(self.discards) == self.discard_count:
            lines.append("Unseen (hands and stock): " + (format_cards(self.unseen()) or "none"))
        if self.shown:
            lines.append("Shown: " + ", ".join(f"seat {s} holds {c}" for s, c in self.shown))
        if self.known:
            lines.append("You know: " + ", ".join(f"seat {s} holds {c}" for s, c in self.known))
        if self.disqualified:
            lines.append("Disqualified: " + "; ".join(f"seat {s} ({r})" for s, r in self.disqualified))
        if self.declared:
            lines.append("Said: " + ", ".join(f"seat {s} {d}" for s, d in self.declared))
        if self.current_seat is not None:
            lines.append(f"To speak: seat {self.current_seat}"
                         + (" (you may call cucco)" if self.seat in self.to_act[1:] else ""))
        if self.result is not None:
            shown = self.result.get("showdown", {})
            if shown:
                lines.append("Showdown: " + ", ".join(f"seat {s} {c}" for s, c in shown.items()))
            lines.append("Losers: " + (", ".join(f"seat {s}" for s in self.result["losers"]) or "none"))
        return "\n".join(lines)
