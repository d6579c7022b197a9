"""The data of one Cambio deal, declared once: :class:`CambioDeal`.

A :class:`~folkdeck.games.cambio.state.CambioState` keeps everything that changes in a
deal here, and nothing that changes anywhere else: the state's ``__init__`` and
``from_view`` build one, and its ``clone`` is :meth:`CambioDeal.copy` (every container
copied; ``tests/engine/test_deal_data.py`` checks that no list is shared). Cards are
kinds (``int`` 0-21, :mod:`~folkdeck.games.cambio.rules`); ``-1`` is no card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final, final

from folkdeck.engine.build import deal_data
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.state_base import DealCore
from folkdeck.games.cambio.actions import CambioAction
from folkdeck.games.cambio.rules import STOCK

UP: Final = -1
DOWN: Final = 0
"""Who sees a discard (:attr:`CambioDeal.open`): a mask of seats; ``UP`` everyone, ``DOWN`` nobody."""


@final
@deal_data
@dataclass(slots=True)
class CambioDeal(DealCore):
    """Everything of a deal that play changes, and how it began."""

    setup: dict[str, Any]
    """The deal's setup: ``dealer``, ``deal``, ``game``, ``chips`` (a list), ``pot``..."""
    kind: list[int]
    """The kind each seat holds (-1: none)."""
    origin: list[int]
    """The seat first dealt each seat's card (``STOCK``: the stock)."""
    start: tuple[int, ...]
    start_stock: tuple[int, ...]
    start_bits: int | None
    in_deal: tuple[bool, ...]
    """The seats dealt a card (the others are eliminated from the session)."""
    order: tuple[int, ...]
    """The deal's turn order, the dealer's right first (:func:`~folkdeck.games.cambio.rules.seating`)."""
    index: tuple[int, ...]
    """Each seat's place in ``order`` (-1: not in the deal)."""
    active: list[bool]
    pos: int
    turn: int
    stock: list[int]
    """The stock, top last."""
    bits: int | None
    """A lazily shuffled stock's remaining shuffle (:func:`~folkdeck.games.cambio.rules.unfold`)."""
    discards: list[int]
    open: list[int]
    """Who sees each discard: ``UP``, ``DOWN`` or a mask of seats."""
    dq: dict[int, str]
    """The disqualified seats and why."""
    declared: dict[int, CambioAction]
    history: list[Event]
    phase: str
    known: dict[int, dict[int, int]]
    """What each viewer knows of others' cards (the cards it gave away): viewer -> {seat: kind}."""
    shown: list[bool]
    """The seats whose card is public (a refusal, a pass-on showed it)."""
    rng: random.Random | None
    """The reshuffle's generator, made when the stock first runs out."""
    ended_by: str
    losers: list[int]
    showdown: dict[int, int]
    result: Result | None
    """The result, made when first asked for once the deal is over."""

    def next_target(self, seat: int) -> int:
        """The next active seat to the right of ``seat`` in this deal, else the stock
        (``STOCK``): whom a request of ``seat`` goes to (docs/rules/cambio.md §5)."""
        order = self.order
        active = self.active
        for i in range(self.index[seat] + 1, len(order)):
            if active[order[i]]:
                return order[i]
        return STOCK

    def advance(self) -> bool:
        """Pass the turn to the next active seat in the order; ``False`` when every active
        seat has had its turn (the showdown, docs/rules/cambio.md §4.2, §4.4)."""
        order = self.order
        active = self.active
        for i in range(self.pos + 1, len(order)):
            if active[order[i]]:
                self.pos = i
                self.turn = order[i]
                return True
        return False
