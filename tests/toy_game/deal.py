"""The data of one toy deal, declared once: :class:`ToyDeal` (everything play changes).

The state's ``clone`` is :meth:`ToyDeal.copy`, which copies every container, so a clone
shares nothing mutable with its original (the convention of
:mod:`folkdeck.engine.state_base`).
"""

from __future__ import annotations

from dataclasses import dataclass

from folkdeck.cards import Card
from folkdeck.engine.protocol import Event, Result


@dataclass(slots=True)
class ToyDeal:
    """One deal: how it began and where it stands."""

    start: tuple[tuple[Card, ...], ...]
    """Each seat's dealt hand (the record's ``hands``)."""
    undealt: tuple[Card, ...]
    """The cards left face down."""
    leader: int
    """The seat that led the first trick (the record's ``setup.leader``)."""
    hands: list[list[Card]]
    trick: list[tuple[int, Card]]
    """The current trick's plays, in order."""
    won: list[Card]
    """The cards of the finished tricks."""
    tricks: list[int]
    """Tricks won by each seat."""
    turn: int
    phase: str
    history: list[Event]
    result: Result | None = None

    def copy(self) -> ToyDeal:
        """A copy sharing no container with this deal."""
        return ToyDeal(self.start, self.undealt, self.leader, [list(h) for h in self.hands],
                       list(self.trick), list(self.won), list(self.tricks), self.turn, self.phase,
                       list(self.history), self.result)
