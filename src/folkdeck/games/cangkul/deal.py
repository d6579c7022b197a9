"""The data of one Cangkul or Burro deal, declared once: :class:`CangkulDeal`.

A :class:`~folkdeck.games.cangkul.state.CangkulState` keeps everything that changes in a
deal here, and nothing that changes anywhere else: the state's ``__init__`` and
``from_view`` build one, and its ``clone`` is :meth:`CangkulDeal.copy` (every container
copied; ``tests/engine/test_deal_data.py`` checks that no list is shared). Cards are the
deck's bit indices (:mod:`~folkdeck.games.cangkul.rules`); a hand is a mask.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, final

from folkdeck.cards import Card, Suit
from folkdeck.engine.build import deal_data
from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.facts import Played
from folkdeck.engine.protocol import Event, Result
from folkdeck.engine.state_base import DealCore
from folkdeck.games.cangkul.actions import DRAW, DRAW_LEFT, DRAW_RIGHT, PASS, CangkulAction
from folkdeck.games.cangkul.events import Dig
from folkdeck.games.cangkul.rules import NO_SUIT, Deck, trick_winner

if TYPE_CHECKING:
    from folkdeck.engine.view import ViewEvent
    from folkdeck.games.cangkul.observation import CangkulView

SUITS: Final = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
"""The suits by index (0-3 for S C D H)."""
JOKER_CLASS: Final = 4
"""The void class of the joker (suits are 0-3): see :attr:`CangkulDeal.void`."""


@final
@deal_data
@dataclass(slots=True)
class CangkulDeal(DealCore):
    """Everything of a deal that play changes, and how it began."""

    hands: list[int]
    """Each seat's hand (a mask)."""
    known: list[int]
    """The cards of each hand that every seat saw it take (passers' collections)."""
    piles: list[list[int]]
    """The stock: one pile, or left and right; each pile's top is its last card."""
    start_hands: tuple[int, ...]
    start_stock: tuple[int, ...]
    setup: dict[str, Any]
    unused: int
    """The pack's cards that are not in the deal (a study position may leave some out)."""
    dead: int
    """Cards of finished tricks that nobody took."""
    rng: random.Random | None
    """The knocking chance's generator (Portuguese ``stock_knock_prob``), else ``None``."""
    phase: str
    turn: int
    trick_leader: int
    plays: list[tuple[int, int]]
    """The trick's plays, ``(seat, card)``."""
    suit: int
    """The led suit (0-3), or ``NO_SUIT`` before the trick's first suited card."""
    acted: int
    """The seats (a mask) that played or passed in this trick."""
    passers: list[int]
    out: list[int]
    history: list[Event]
    void: list[int]
    """Per seat, the card classes (suits, :data:`JOKER_CLASS`) public play shows it lacks."""
    collected: list[tuple[int, int]]
    """What each passer took at the last trick's end, ``(seat, mask)``."""
    result: Result | None
    stall: int
    """Finished tricks in a row that passers took with the stock empty; -1 while a trick
    in which a player went out is in progress."""
    win: int
    """The trick's winning play so far, as ``card index << 4 | seat``."""


def deal_from_view(deck: Deck, view: CangkulView, hands: Sequence[Sequence[Card]],
                   piles: Sequence[Sequence[Card]], rng: random.Random | None) -> CangkulDeal:
    """The deal of :meth:`CangkulState.from_view <folkdeck.games.cangkul.state.CangkulState.from_view>`:
    the view's public facts, the hidden cards where ``hands`` and ``piles`` (top first)
    put them, the pack's other cards out of the deal.

    :raises InvalidDealError: when the cards do not fit the view (``hands``, ``stock``).
    """
    index = deck.index
    n = view.num_players
    if len(hands) != n or len(piles) != len(view.stock):
        raise InvalidDealError("cangkul.hand_count", field="hands", given=len(hands), players=n)
    masks = _hand_masks(view, hands, index)
    stacks = _pile_stacks(view, piles, index)
    plays = [(t.seat, index[t.cards[0]]) for t in view.table]
    dead = card_mask(view.dead, index)
    in_play = _in_play_mask(dead, masks, stacks, plays)
    acted, win = _trick_progress(plays, view.passed)
    assert view.current_seat is not None
    return CangkulDeal(
        hands=masks, known=[card_mask(k, index) for k in view.known], piles=stacks,
        start_hands=tuple(masks), start_stock=tuple(i for stack in stacks for i in reversed(stack)),
        setup={"leader": view.trick_leader}, unused=deck.full & ~in_play, dead=dead, rng=rng,
        phase="play", turn=view.current_seat, trick_leader=view.trick_leader, plays=plays,
        suit=SUITS.index(view.led_suit) if view.led_suit is not None else NO_SUIT, acted=acted,
        passers=list(view.passed), out=list(view.out), history=[_event_of(e) for e in view.history],
        void=[_void_mask(suits, joker) for suits, joker in zip(view.voids, view.joker_void, strict=True)],
        collected=[(s, card_mask(cards, index)) for s, cards in view.collected], result=None,
        # The state's counter is -1 while a trick in which a player went out is in progress.
        stall=-1 if view.stall_reset else view.stall, win=win)


def _hand_masks(view: CangkulView, hands: Sequence[Sequence[Card]], index: dict[Card, int]) -> list[int]:
    """Each seat's hand as a card mask, as many cards as the view counts."""
    masks = []
    for s, cards in enumerate(hands):
        m = card_mask(cards, index)
        if m.bit_count() != view.counts[s]:
            raise InvalidDealError("cangkul.view_mismatch", field=f"hands[{s}]", seat=s)
        masks.append(m)
    return masks


def _pile_stacks(view: CangkulView, piles: Sequence[Sequence[Card]], index: dict[Card, int]) -> list[list[int]]:
    """Each stock pile as card indices, top last, as many cards as the view counts."""
    stacks = []
    for p, cards in enumerate(piles):
        if len(cards) != view.stock[p]:
            raise InvalidDealError("cangkul.view_mismatch", field="stock", seat=p)
        stacks.append([index[c] for c in reversed(cards)])  # the top is last
    return stacks


def _in_play_mask(dead: int, masks: Sequence[int], stacks: Sequence[Sequence[int]],
                  plays: Sequence[tuple[int, int]]) -> int:
    """The cards the deal uses: dead, in hands, in the stock, on the table."""
    in_play = dead
    for m in masks:
        in_play |= m
    for i in (*(i for stack in stacks for i in stack), *(i for _, i in plays)):
        in_play |= 1 << i
    return in_play


def _trick_progress(plays: Sequence[tuple[int, int]], passed: Sequence[int]) -> tuple[int, int]:
    """``(acted, win)`` as the state keeps them: the seats that played or passed to the
    trick (a bit mask), its best play so far (``card index << 4 | seat``, 0 for none)."""
    acted = 0
    for s in (*(t for t, _ in plays), *passed):
        acted |= 1 << s
    win = 0
    if plays:
        best = trick_winner(plays)
        win = next(c for t, c in plays if t == best) << 4 | best
    return acted, win


def card_mask(cards: Sequence[Card], index: dict[Card, int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << index[c]
    return m


def _void_mask(suits: Sequence[Suit], joker: bool) -> int:
    m = 1 << JOKER_CLASS if joker else 0
    for u in suits:
        m |= 1 << SUITS.index(u)
    return m


def _event_of(seen: ViewEvent) -> Event:
    """An event of a world, from the view's: the action from its fact, the facts as seen."""
    act = seen.act
    action: CangkulAction
    if isinstance(act, Played):
        action = act.cards[0]
    elif isinstance(act, Dig):
        action = DRAW if act.pile is None else (DRAW_LEFT, DRAW_RIGHT)[act.pile]
    else:
        action = PASS
    return Event(seen.seat, action, seen.facts)
