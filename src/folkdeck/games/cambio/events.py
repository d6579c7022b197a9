"""Cambio's own facts (``cambio.*``): what a deal, a view and a session say, as data.

The shared vocabulary (:mod:`folkdeck.engine.facts`) serves where the concept is shared:
:class:`~folkdeck.engine.facts.Exchanged` (two seats swap cards; the cards stay hidden),
:class:`~folkdeck.engine.facts.Disqualified` (reasons ``asked_man``, ``asked_stock_man``,
``received_fool``, ``cat_curse``), :class:`~folkdeck.engine.facts.DealEnded` (the result's
reason and losers), and between deals :class:`~folkdeck.engine.facts.ChipsPaid`,
:class:`~folkdeck.engine.facts.PotWon`, :class:`~folkdeck.engine.facts.Eliminated`,
:class:`~folkdeck.engine.facts.NextDeal` and :class:`~folkdeck.engine.facts.MatchEnded`.
The facts below are Cambio's; ``docs/events.md`` lists them all with their fields.

A card that a fact names is a :class:`~folkdeck.cards.Card` (JSON: its notation, ``"OWL"``);
``seat=None`` in :class:`StockCard` is the stock.

>>> from folkdeck.games.cambio.actions import CHANGE
>>> describe_action(2, CHANGE).to_dict()
{'type': 'cambio.said', 'seat': 2, 'word': 'change'}
>>> TookStock(seat=1, card=None, discarded=None).censored(0) is not None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from folkdeck.cards import Card
from folkdeck.engine.facts import Fact


# --- the actions -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Said(Fact, type="cambio.said"):
    """``seat`` said ``word``: ``change`` (カンビオ), ``keep`` (ノンカンビオ) or ``cucco``
    (クク, with an OWL: the exchanges end)."""

    seat: int
    word: str


def describe_action(seat: int, action: object) -> Fact:
    """The action itself as a fact (``GameSpec.describe_action``)."""
    return Said(seat=seat, word=str(action))


# --- answers to an exchange request ------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class PassedOn(Fact, type="cambio.passed_on"):
    """``seat`` holds a HORSE or a HOUSE (``card``, now public): ``requester``'s request
    passes on to ``to`` (``None``: the stock)."""

    seat: int
    card: Card
    requester: int
    to: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Refused(Fact, type="cambio.refused"):
    """``seat`` refuses ``requester``'s request with ``card`` (now public): a MAN (the
    requester is disqualified), a CAT (the curse follows, :class:`CatCurse`) or, under
    ``owl_refuses_when_asked``, the OWL (it calls cucco: the exchanges end)."""

    seat: int
    card: Card
    requester: int


@dataclass(frozen=True, slots=True, kw_only=True)
class StockCard(Fact, type="cambio.stock_card"):
    """The stock turns up ``card`` (face up, to the discards) for ``requester``: a HORSE or
    HOUSE passes the request on to the next stock card, a MAN disqualifies the requester,
    a CAT curses (:class:`CatCurse`), an OWL calls cucco (the exchanges end)."""

    card: Card
    requester: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TookStock(Fact, type="cambio.took_stock"):
    """``seat`` took the top card of the stock (``card``, seen by ``seat`` only) and
    discarded its old card face up (``discarded``)."""

    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: Card | None
    discarded: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class TookStockFaceDown(Fact, type="cambio.took_stock_face_down"):
    """``seat`` took the top card of the stock (``card``, seen by ``seat`` only) and
    discarded its old card face down (``open_discards=false``)."""

    private: ClassVar[tuple[str, ...]] = ("card",)
    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True, kw_only=True)
class CatCurse(Fact, type="cambio.cat_curse"):
    """The CAT's curse on the card ``seat`` holds: first dealt to ``dealt_to`` (``None``: it
    came from the stock). ``outcome``: ``from_stock`` (nobody is disqualified),
    ``already_out`` (that seat is out already) or ``disqualified`` (that seat is)."""

    seat: int
    dealt_to: int | None
    outcome: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Shows(Fact, type="cambio.shows"):
    """``seat``, disqualified, shows ``card`` and discards it face up."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestLapsed(Fact, type="cambio.request_lapsed"):
    """Every card outside the hands passed ``seat``'s request on (only HORSEs and HOUSEs
    are left outside the hands): the request lapses."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Reshuffled(Fact, type="cambio.reshuffled"):
    """The stock is used up: ``count`` discards are shuffled into a new stock (docs/rules/cambio.md §6.9)."""

    count: int


# --- the end of a deal -------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Showdown(Fact, type="cambio.showdown"):
    """At the showdown ``seat`` shows ``card``, worth ``value`` (a FOOL taken from the stock,
    ``from_stock``, counts above the OWL under the Japanese rule)."""

    seat: int
    card: Card
    value: int
    from_stock: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Lowest(Fact, type="cambio.lowest"):
    """``seat`` holds the lowest card at the showdown and loses (one fact per loser)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LastPlayer(Fact, type="cambio.last_player"):
    """``seat`` is the only player left: no showdown."""

    seat: int


# --- a view's status -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Stake(Fact, type="cambio.stake"):
    """Deal ``deal`` of game ``game``: a loser pays ``pays`` chips into the pot."""

    game: int
    deal: int
    pays: int


@dataclass(frozen=True, slots=True, kw_only=True)
class StakeElimination(Fact, type="cambio.stake_elimination"):
    """Deal ``deal`` of game ``game``: past the pay schedule, a loser is eliminated."""

    game: int
    deal: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealer(Fact, type="cambio.dealer"):
    """``seat`` deals (speaks last and changes with the stock)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Chips(Fact, type="cambio.chips"):
    """``seat`` has ``chips`` chips; the pot holds ``pot``."""

    seat: int
    chips: int
    pot: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Pot(Fact, type="cambio.pot"):
    """The pot holds ``pot`` chips (a spectator's status)."""

    pot: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardOrigin(Fact, type="cambio.card_origin"):
    """``seat``'s card was first dealt to ``origin`` (another seat): a CAT's curse on it
    would fall there."""

    seat: int
    origin: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardFromStock(Fact, type="cambio.card_from_stock"):
    """``seat``'s card came from the stock this deal: a CAT's curse on it spares everyone,
    and a FOOL counts above the OWL (the Japanese rule)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Holds(Fact, type="cambio.holds"):
    """``seat`` holds ``card``: ``how`` is ``shown`` (the rules showed it: a refusal) or
    ``followed`` (the viewer gave it away in an exchange and follows it)."""

    seat: int
    card: Card
    how: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Discards(Fact, type="cambio.discards"):
    """The face-up discards (``cards``), the viewer's to count."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FaceDown(Fact, type="cambio.face_down"):
    """``count`` discards lie face down (``open_discards=false``)."""

    count: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MayCallCucco(Fact, type="cambio.may_call_cucco"):
    """``seat`` (the viewer, holding an OWL) may call cucco now, out of turn."""

    seat: int


# --- a session (the match's reports) -----------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Fact, type="cambio.game_started"):
    """Game ``game`` of the session begins: seats are drawn from the stock."""

    game: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatingDraw(Fact, type="cambio.seating_draw"):
    """In the seating draw ``seat`` drew ``card`` (face up, to the discards)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatingTie(Fact, type="cambio.seating_tie"):
    """``seats`` tie for the first choice and draw again (docs/rules/cambio.md §6.7)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FirstDealer(Fact, type="cambio.first_dealer"):
    """``seat`` drew strongest and deals first."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DealReplayed(Fact, type="cambio.deal_replayed"):
    """Every remaining player would be eliminated at once: deal ``deal`` is replayed
    (``all_eliminated=replay``; docs/rules/cambio.md §6.6)."""

    deal: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Bankrupt(Fact, type="cambio.bankrupt"):
    """``seat`` cannot pay the next entry fee: bankrupt, the session ends."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionWon(Fact, type="cambio.session_won"):
    """A session cut short by its deal limit: ``seats`` hold the most chips (``chips`` each)
    once the game in progress is settled, and win (docs/rules/cambio.md §6.22)."""

    seats: tuple[int, ...]
    chips: int


FACT_TYPES: tuple[type[Fact], ...] = (
    Said, PassedOn, Refused, StockCard, TookStock, TookStockFaceDown, CatCurse, Shows,
    RequestLapsed, Reshuffled, Showdown, Lowest, LastPlayer, Stake, StakeElimination, Dealer,
    Chips, Pot, CardOrigin, CardFromStock, Holds, Discards, FaceDown, MayCallCucco, GameStarted, SeatingDraw,
    SeatingTie, FirstDealer, DealReplayed, Bankrupt, SessionWon)
"""Every Cambio fact type (the tests round-trip each through JSON)."""

__all__ = [
    "FACT_TYPES", "Bankrupt", "CardFromStock", "CardOrigin", "CatCurse", "Chips", "DealReplayed", "Dealer",
    "Discards", "FaceDown", "FirstDealer", "GameStarted", "Holds", "LastPlayer", "Lowest",
    "MayCallCucco", "PassedOn", "Pot", "Refused", "RequestLapsed", "Reshuffled", "Said",
    "SeatingDraw", "SeatingTie", "SessionWon", "Shows", "Showdown", "Stake", "StakeElimination", "StockCard",
    "TookStock", "TookStockFaceDown", "describe_action",
]
