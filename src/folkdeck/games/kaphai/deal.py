"""The data of one Kap Hai deal, declared once: :class:`KapHaiDeal`.

A :class:`~folkdeck.games.kaphai.state.KapHaiState` keeps everything that changes in a
deal here, and nothing that changes anywhere else: the state's ``__init__`` and
``from_view`` build one, and its ``clone`` is :meth:`KapHaiDeal.copy` (every container
copied; ``tests/engine/test_deal_data.py`` checks that no list is shared). Cards are bits
of a mask (:mod:`~folkdeck.games.kaphai.rules`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import final

from folkdeck.engine.build import deal_data
from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.state_base import DealCore
from folkdeck.games.kaphai.moves import MoveTable
from folkdeck.games.kaphai.observation import KapHaiPhase, KapHaiView
from folkdeck.games.kaphai.rules import Combo
from folkdeck.games.kaphai.viewread import ViewReading


@final
@deal_data
@dataclass(slots=True)
class PutuhWindow:
    """The declaration window: who may declare (and the pattern each holds), who did,
    who has answered; ``order`` the seats asked in turn (``ask_all_seats``), ``None``
    when only the holders decide."""

    eligible: dict[int, tuple[int, int]]
    declared: list[int]
    answered: set[int]
    order: tuple[int, ...] | None = None


@final
@deal_data
@dataclass(slots=True)
class KapHaiDeal(DealCore):
    """Everything of a deal that play changes, and how it began."""

    start: tuple[int, ...]
    """Each seat's dealt hand."""
    undealt: int
    """The cards out of play (2-3 players)."""
    three_game: bool
    leader: int
    """The first lead's seat."""
    hands: list[int]
    shed: int
    """The 3s put out at the start of a 3-game (``three_game_shed_threes``)."""
    played: int
    phase: str
    turn: int
    lead_single: bool
    """The next lead must be a single (a 3-game's first)."""
    top: Combo | None
    """The play winning the trick, ``None`` before its lead."""
    top_seat: int
    passed: int
    """The seats (a mask) out of this trick."""
    out: list[int]
    """The seats out, in order of going out."""
    trick: list[tuple[int, Combo, bool]]
    """The plays of the trick: ``(seat, play, thrown)``."""
    history: list[Event]
    putuh: PutuhWindow | None
    result: Result | None
    tables: list[MoveTable | None]
    """Per seat, the move table of its hand, or a table of a hand it has played from since
    (``KapHaiState._combos``): derived from ``hands`` as play needs it, replaced, never
    changed, so a copy shares the tables themselves."""


def deal_from_view(view: KapHaiView, seen: ViewReading, hands: Sequence[int], undealt: int) -> KapHaiDeal:
    """The deal of :meth:`KapHaiState.from_view <folkdeck.games.kaphai.state.KapHaiState.from_view>`:
    the view's public facts (read once per view as ``seen``) with ``hands``.

    :raises InvalidDealError: for hands that do not match the view (``hands[s]``).
    """
    n = view.num_players
    if len(hands) != n:
        raise InvalidDealError("kaphai.hands_count", field="hands", count=len(hands), players=n)
    for s in range(n):
        if (hands[s] != seen.own if s == seen.seat else
                hands[s].bit_count() != view.counts[s] or hands[s] & seen.fixed & ~seen.known[s]):
            raise InvalidDealError("kaphai.view_hand", field=f"hands[{s}]", seat=s)
    return KapHaiDeal(
        start=tuple(h | p for h, p in zip(hands, seen.gone_by, strict=True)), undealt=undealt,
        three_game=view.three_game, leader=view.leader, hands=list(hands), shed=seen.shed, played=seen.played,
        phase=KapHaiPhase.PLAY, turn=seen.turn, lead_single=view.lead_single, top=seen.top,
        top_seat=view.top.seat if view.top is not None else -1, passed=seen.passed, out=list(view.out),
        trick=list(seen.trick), history=list(seen.events), putuh=None, result=None,
        tables=[seen.own_table if s == seen.seat else None for s in range(n)])
