"""The data of one Gou Ji deal in progress: :class:`GouJiDeal`, declared once.

A :class:`~folkdeck.games.gouji.state.GouJiState` keeps everything that changes during a
deal in one ``GouJiDeal`` (its attribute ``deal``); the rules (:mod:`.play`, :mod:`.modern`,
:mod:`.prelude`) read and change it and hold nothing of their own. A new deal (:func:`new_deal`) and a clone (:meth:`GouJiDeal.copy`) are made here, a world built
from a view in :func:`~folkdeck.games.gouji.observation.deal_from_view`.

>>> from folkdeck.cards import parse_cards
>>> deal = new_deal([parse_cards("9S 9H"), [], [], parse_cards("KS"), [], []], Setup(leader=0),
...                 leader=0, claims=(), naming=False)
>>> deal.counts[0][6], deal.left, deal.out
(2, [2, 0, 0, 1, 0, 0], [1, 2, 4, 5])
>>> twin = deal.copy()
>>> twin.left[0] = 0
>>> deal.left[0], twin.piles[0] is deal.piles[0]
(2, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, final

from folkdeck.cards import Card
from folkdeck.engine.build import deal_data
from folkdeck.engine.facts import Fact
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.state_base import DealCore
from folkdeck.games.gouji.dealing import SEATS, Setup
from folkdeck.games.gouji.events import Offence
from folkdeck.games.gouji.rules import HAND_ORDER, NRANKS, RANK_OF, Play

_SEATING: Final = tuple(range(SEATS))


def _seating() -> list[int]:
    return list(_SEATING)


def _no_counts() -> list[int]:
    return [0] * NRANKS


@final
@deal_data
@dataclass(slots=True, kw_only=True, eq=False)
class GouJiDeal(DealCore):
    """Everything that changes in a deal (bit sets are ints: bit ``s`` for seat ``s``)."""

    setup: Setup
    start_hands: tuple[tuple[Card, ...], ...]
    """The hands as dealt (the record's ``hands``)."""
    claims: tuple[int, ...]
    """The seats that completed two 3s of one suit while drawing, in that order."""
    piles: list[list[list[Card]]]
    """By seat and rank: the cards held, in the order they came in (see :func:`hand_cards`)."""
    counts: list[list[int]]
    """By seat: how many cards of each rank it holds."""
    left: list[int]
    """By seat: how many cards it holds."""
    leader: int
    """The seat that leads the first trick (上班 Shang Ban)."""
    phase: str = "start"
    start_all: bool = False
    """The 3s start asks every seat in turn from the first drawer (``ask_all_seats``)."""
    queue: list[int] = field(default_factory=list)
    """The seats still to answer the open window before play, in order."""
    pending: list[list[Card]] | None = None
    """A normal deal's hands as drawn from the Da La, until it names the first drawer."""
    declared: list[int] = field(default_factory=list)
    """``ask_all_seats``: the seats that declared their 3s (the earliest claim leads)."""
    declarer: int = -1
    objected: bool = False
    rev_rest: list[int] = field(default_factory=list)
    """The revolution window's seats still to be asked after an objection is settled."""
    pairs: list[tuple[int, int, int]] = field(default_factory=list)
    """The tribute still to be returned: ``(giver, receiver, cards)``."""
    tribute: list[Fact] = field(default_factory=list)
    """The tribute's facts (given, returned, skipped), for the views' ``status``."""
    played: list[Card] = field(default_factory=list)
    played_counts: list[int] = field(default_factory=_no_counts)
    history: list[Event] = field(default_factory=list)
    result: Result | None = None
    laid_open: int = 0
    """The seats whose hands are laid open (the ``open`` action)."""
    opened: int = 0
    """The seats that have opened (开点): their gouji was passed by the opposite."""
    top: Play | None = None
    top_seat: int = -1
    passed: int = 0
    mode: str = "normal"
    """The trick's mode: ``normal``, ``duel``, ``final``, ``after_burn``."""
    window: list[int] = field(default_factory=list)
    """Seats still to answer the open play-phase window (burning or re-ordering)."""
    window_kind: str = ""
    order: list[int] = field(default_factory=_seating)
    """The seats in their turn positions (changed only by ``team_reorder``)."""
    pos: list[int] = field(default_factory=_seating)
    """By seat: its turn position."""
    gouji_seat: int = -1
    xian_offer: int = -1
    xian_req: int = -1
    trick: list[tuple[int, Play | None]] = field(default_factory=list)
    table: list[tuple[int, tuple[Card, ...]]] = field(default_factory=list)
    """The cards of each play of the current trick (the views' ``table``)."""
    out: list[int] = field(default_factory=list)
    turn: int = 0
    fouls: list[int] = field(default_factory=list)
    """``strict_penalty``: offenders, in the order of their offences (first: Da La)."""
    offences: list[Offence] = field(default_factory=list)
    to_end: int = 0
    """``modern_burning``: seats that burned and must now burn to the end."""
    owe: list[int] | None = None
    """``modern_dian_gong``: the seats not opened when Tou Ke went out."""



def fill_hands(deal: GouJiDeal, hands: Sequence[Sequence[Card]]) -> None:
    """Put ``hands`` (by seat) into the deal's empty piles and counts."""
    for s, hand in enumerate(hands):
        piles, counts = deal.piles[s], deal.counts[s]
        for c in hand:
            r = RANK_OF[c]
            piles[r].append(c)
            counts[r] += 1
        deal.left[s] = len(hand)


def new_deal(hands: Sequence[Sequence[Card]], setup: Setup, *, leader: int,
             claims: Sequence[int], naming: bool) -> GouJiDeal:
    """A deal before its first window; ``naming``: the Da La names the drawer first, so
    nobody holds cards yet (docs/rules/gouji.md §11.16)."""
    deal = GouJiDeal(setup=setup, start_hands=tuple(tuple(h) for h in hands),
                     claims=tuple(claims), piles=[[[] for _ in range(NRANKS)] for _ in range(SEATS)],
                     counts=[[0] * NRANKS for _ in range(SEATS)], left=[0] * SEATS,
                     leader=leader, turn=leader)
    if naming:
        deal.pending = [list(h) for h in hands]
    else:
        fill_hands(deal, hands)
    # Nobody has gone out of a deal not dealt yet (the hands wait for the drawer's naming).
    deal.out = [] if naming else [s for s in range(SEATS) if not deal.left[s]]
    return deal


def hand_cards(deal: GouJiDeal, s: int) -> tuple[Card, ...]:
    """The hand as people read it (docs/rules/gouji.md §1.3): by rank, then ♠ ♣ ♦ ♥.
    The piles themselves keep the order the cards came in (which copy a rank-only
    set takes must not change, or old records would show other cards)."""
    # One sort of the whole hand: HAND_ORDER ranks first as the piles do, and the sort is
    # stable, so the copies of a card stay in their pile's order (15 sorts took twice as long).
    return tuple(sorted([c for pile in deal.piles[s] for c in pile], key=HAND_ORDER.__getitem__))


def rank_counts(cards: Sequence[Card]) -> list[int]:
    """Rank counts of some cards."""
    counts = [0] * NRANKS
    for c in cards:
        counts[RANK_OF[c]] += 1
    return counts


__all__ = ["GouJiDeal", "fill_hands", "hand_cards", "new_deal", "rank_counts"]
