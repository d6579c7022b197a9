"""Cangkul's and the Burros' own facts, and their actions described as facts
(``docs/events.md``, Cangkul and Burro).

The shared vocabulary (:mod:`folkdeck.engine.facts`) says most of a deal: ``played``
(a card), ``passed`` (the explicit pass that declines the joker), ``drew`` (a card dug
from the stock and kept: the card is private to the drawer), ``cards_taken`` (passers
take the trick's cards, in Cangkul), ``trick_won``, ``went_out`` and ``deal_ended``
(its ``reason`` a term key: ``out``, ``last_holder``, ``stalemate``). The facts below are
the game's own; their codes start with ``cangkul.`` for all three games:

* :class:`Dig` (the action ``draw``/``draw left``/``draw right`` itself);
* :class:`DrewAndPlayed`: a drawn card of the led suit, played at once (public);
* :class:`Knocked`: the stock was knocked over (Portuguese ``stock_knock_prob``);
* :class:`CannotFollow`: an automatic pass (void in the led suit, the stock empty);
* :class:`LastHolder`, :class:`Stalemate`, :class:`FewestCards`, :class:`MostCards`:
  how a deal ends;
* view status: :class:`JokerLead`, :class:`KnownCards`, :class:`Void`, :class:`StallCount`;
* between deals: :class:`PointsScored`, :class:`Penalty`, :class:`MatchLost`.

Suits are term keys (``spades``... rendered ``espadas`` in a Burro); cards are
:class:`~folkdeck.cards.Card` values, rendered in the game's display notation.

>>> from folkdeck.cards import parse_card
>>> from folkdeck.engine.facts import fact_from_dict
>>> fact = DrewAndPlayed(seat=2, card=parse_card("QC"))
>>> fact_from_dict(fact.to_dict()) == fact
True
>>> from folkdeck.i18n import Renderer
>>> Renderer("en", game="burro_es", notation="spanish").fact(fact)
'Seat 2 draws 11 of bastos and plays it'
>>> from folkdeck.games.cangkul.actions import DRAW_LEFT
>>> describe_action(1, parse_card("KH")), describe_action(0, DRAW_LEFT)
(Played(seat=1, cards=(Card.parse('KH'),), combo=''), Dig(seat=0, pile=0))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from folkdeck.cards import Card
from folkdeck.engine.facts import Fact, Passed, Played
from folkdeck.games.cangkul.actions import Draw, Pass

SUIT_TERMS = ("spades", "clubs", "diamonds", "hearts")
"""The term key of suits 0-3 (S C D H): ``term.<game>.<key>`` names the pack's suit."""


# --- actions and what follows them -------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Dig(Fact, type="cangkul.dig"):
    """``seat`` draws from the stock (``pile``: 0 left, 1 right, ``None`` the one pile):
    the action; what came of it follows as ``drew``, ``cangkul.drew_and_played`` or
    ``cangkul.knocked``."""

    seat: int
    pile: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DrewAndPlayed(Fact, type="cangkul.drew_and_played"):
    """``seat`` drew ``card``, of the led suit, and played it at once (docs/rules/cangkul.md §2.3: the drawn
    card of the led suit is played)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class Knocked(Fact, type="cangkul.knocked"):
    """``seat`` knocked the stock over and took all ``count`` cards (docs/rules/cangkul.md §5.2);
    ``cards`` (private to the knocker) are those cards."""

    private: ClassVar[tuple[str, ...]] = ("cards",)
    seat: int
    count: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CannotFollow(Fact, type="cangkul.cannot_follow"):
    """``seat`` holds no card of the led ``suit`` (a term key) and the stock is empty:
    it passes (automatically)."""

    seat: int
    suit: str


@dataclass(frozen=True, slots=True, kw_only=True)
class LastHolder(Fact, type="cangkul.last_holder"):
    """``seat`` is the last still holding cards and loses the deal (drop-out, the Burros)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Stalemate(Fact, type="cangkul.stalemate"):
    """No card has left play for ``tricks`` tricks: the deal ends (``stall_limit``)."""

    tricks: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FewestCards(Fact, type="cangkul.fewest_cards"):
    """At a stalemate, ``seats`` hold the fewest cards (``cards`` each) and win (share the
    win when more than one)."""

    seats: tuple[int, ...]
    cards: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MostCards(Fact, type="cangkul.most_cards"):
    """At a drop-out stalemate, ``seats`` hold the most cards (``cards`` each) and lose
    (share the loss when more than one)."""

    seats: tuple[int, ...]
    cards: int


# --- view status ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class JokerLead(Fact, type="cangkul.joker_lead"):
    """``seat`` led the joker: the next card played sets the led suit (docs/rules/cangkul.md §3.2)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class KnownCards(Fact, type="cangkul.known_cards"):
    """``seat`` holds ``cards``, known to all because it took them as a passer."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Void(Fact, type="cangkul.void"):
    """``seat`` has shown (by digging or passing) that its unseen cards hold no card of
    ``suit`` (a term key)."""

    seat: int
    suit: str


@dataclass(frozen=True, slots=True, kw_only=True)
class StallCount(Fact, type="cangkul.stall_count"):
    """``tricks`` tricks in a row have been taken by passers with the stock empty; at
    ``limit`` the deal ends as a stalemate."""

    tricks: int
    limit: int


# --- between deals -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class PointsScored(Fact, type="cangkul.points"):
    """Cangkul: ``seat`` scored ``delta`` points in the deal, now ``total``."""

    seat: int
    delta: float
    total: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty(Fact, type="cangkul.penalty"):
    """A Burro: ``seat`` is the burro (donkey) and takes a penalty, now ``total`` of the
    match's ``limit``."""

    seat: int
    total: int
    limit: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchLost(Fact, type="cangkul.match_lost"):
    """A Burro: ``seat`` reached the penalty limit and loses the match."""

    seat: int


def describe_action(seat: int, action: object) -> Fact:
    """The action itself as a fact: ``played`` (a card), ``cangkul.dig`` or ``passed``."""
    if isinstance(action, Card):
        return Played(seat=seat, cards=(action,))
    if isinstance(action, Draw):
        return Dig(seat=seat, pile=action.pile)
    if isinstance(action, Pass):
        return Passed(seat=seat)
    raise TypeError(f"not a Cangkul action: {action!r}")


__all__ = ["SUIT_TERMS", "CannotFollow", "Dig", "DrewAndPlayed", "FewestCards", "JokerLead",
           "Knocked", "KnownCards", "LastHolder", "MatchLost", "MostCards", "Penalty", "PointsScored",
           "StallCount", "Stalemate", "Void", "describe_action"]
