"""Gou Ji's typed facts (``docs/events.md``): what an action did, as data.

Every action is described by a fact (:func:`describe_action`): a set played or burned, a pass, an
answer in a window. A set of the deal's history names the very cards it took (the shared
:class:`~folkdeck.engine.facts.Played`, and :class:`Burned`'s ``cards``), as the table shows them;
a set not played (a legal action) is known by its ranks only (:class:`GouJiPlayed`: rank words,
the record grammar's). What followed from it is in the event's facts: a gouji and who is asked to
burn, the opposite's answer, a seat going out with its place's name (头科 … 大落), a trick won,
the tribute, a revolution's re-deal, an offence (``strict_penalty``).

Tribute cards are seen by the two seats of the exchange only: :class:`TributeGiven`
and :class:`TributeReturned` hide ``cards`` from everyone else.

>>> TributeGiven(seat=5, receiver=0, count=2, kind="jin_gong", cards=()).censored(3).cards is None
True
>>> from folkdeck.games.gouji.actions import parse_action
>>> describe_action(2, parse_action("9 9 2"))
GouJiPlayed(seat=2, ranks=('9', '9', '2'))
>>> from folkdeck import load
>>> state = load("gouji").new_state(hands=["9S 9H 9D 2C", "10S", "", "", "", ""], setup={"leader": 0})
>>> event = state.apply(state.parse_action("9H 9 2"))
>>> event.line, describe_action(event.seat, event.action)
('0: 9 9 2', Played(seat=0, cards=(Card.parse('9D'), Card.parse('9H'), Card.parse('2C')), combo=''))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from folkdeck.cards import Card
from folkdeck.engine.facts import Fact, Passed, Played
from folkdeck.games.gouji.actions import (
    DECLARE,
    INSIST,
    NO,
    OBJECT,
    OPEN,
    PASS,
    REVOLUTION,
    WITHDRAW,
    XIAN,
    Burn,
    Draw,
    Foul,
    GouJiAction,
    Order,
    Return,
    Word,
)
from folkdeck.games.gouji.rules import (
    HAND_ORDER,
    NRANKS,
    RANK_OF,
    RANK_WORDS,
    Play,
    play_from_counts,
    with_cards,
)

PLACE_TITLES = ("tou_ke", "er_ke", "san_ke", "si_ke", "er_la", "da_la")
"""The places' names as term keys: 头科 Tou Ke (1st) … 大落 Da La (6th)."""


def in_hand_order(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Cards as a hand shows them (docs/rules/gouji.md §1.3): by rank, then ♠ ♣ ♦ ♥."""
    return tuple(sorted(cards, key=HAND_ORDER.__getitem__))


def ranks_of(play: Play) -> tuple[str, ...]:
    """A set's cards as rank words, in the record grammar's order (``9 9 2``)."""
    return tuple(str(play).split())


class _Exchange(Fact):
    """A fact whose ``cards`` only the two seats of an exchange see (``seat`` and
    ``receiver``); everyone else sees ``None``."""

    __slots__ = ()
    private: ClassVar[tuple[str, ...]] = ("cards",)
    if TYPE_CHECKING:
        seat: int
        receiver: int

    def censored(self, viewer: int | None) -> Fact | None:
        if viewer is not None and viewer in (self.seat, self.receiver):
            return self
        hidden: dict[str, None] = {"cards": None}
        return dataclasses.replace(self, **hidden)


# --- the actions themselves --------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class GouJiPlayed(Fact, type="gouji.played"):
    """``seat`` plays the set ``ranks`` (rank words: ``("9", "9", "2")`` is two 9s and a
    2): a set whose cards are not known, such as a legal action. A set of the history is
    the shared ``played`` fact, with its cards."""

    seat: int
    ranks: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Burned(Fact, type="gouji.burned"):
    """``seat`` burned (烧牌) with the set ``ranks``, instead of the gouji player's opposite;
    ``cards``: the cards it took (``None`` for a burn not made, such as a legal action)."""

    seat: int
    ranks: tuple[str, ...]
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Declined(Fact, type="gouji.declined"):
    """``seat`` said no in a window (3s start, revolution, objection, burning, re-order)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Declared(Fact, type="gouji.declared"):
    """``seat`` declared two 3s of one suit (the 3s start)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RevolutionCalled(Fact, type="gouji.revolution_called"):
    """``seat`` called a revolution (革命)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RevolutionObjected(Fact, type="gouji.revolution_objected"):
    """``seat``, a teammate of the caller, objected to the revolution."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RevolutionWithdrawn(Fact, type="gouji.revolution_withdrawn"):
    """The caller ``seat`` withdrew its revolution."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RevolutionInsisted(Fact, type="gouji.revolution_insisted"):
    """The caller ``seat`` insisted on its revolution despite the objection."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class XianAsked(Fact, type="gouji.xian_asked"):
    """``seat`` asked the seat on turn, its teammate, to let it go first (先让让)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class LaidOpen(Fact, type="gouji.laid_open"):
    """``seat`` laid its hand face up for the rest of the deal."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Reordered(Fact, type="gouji.reordered"):
    """``seat`` put its team's remaining ``seats`` into the team's turn positions, in order."""

    seat: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawerNamed(Fact, type="gouji.drawer_named"):
    """The Da La ``seat`` named ``drawer`` to draw first (itself, or another seat)."""

    seat: int
    drawer: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FalseClaim(Fact, type="gouji.false_claim"):
    """``strict_penalty``: ``seat`` claimed ``claim`` (a term key: ``burn``,
    ``revolution``, ``xian``) without the right to it."""

    seat: int
    claim: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsReturned(Fact, type="gouji.cards_returned"):
    """``seat`` gave back ``count`` cards for its tribute; ``ranks`` only ``seat`` sees."""

    private: ClassVar[tuple[str, ...]] = ("ranks",)
    seat: int
    count: int
    ranks: tuple[str, ...] | None


# --- what followed -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class ThreesShown(Fact, type="gouji.threes_shown"):
    """``seat`` showed two 3s of ``suit`` (``S``, ``C``, ``D``, ``H``; a term key)."""

    seat: int
    suit: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ShangBan(Fact, type="gouji.shang_ban"):
    """``seat`` leads the deal's first trick (上班 Shang Ban)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Redeal(Fact, type="gouji.redeal"):
    """The revolution of ``seat`` stands: the cards are dealt again (the deal has no places)."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TributeGiven(_Exchange, type="gouji.tribute_given"):
    """``seat`` gave its ``count`` highest cards to ``receiver``; ``kind`` is a term key
    (``jin_gong`` 进贡, ``dian_gong`` 点贡); ``cards`` only the two seats see."""

    seat: int
    receiver: int
    count: int
    kind: str
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TributeReturned(_Exchange, type="gouji.tribute_returned"):
    """``seat`` gave ``count`` cards of its choice back to ``receiver`` (还贡); ``cards``
    only the two seats see."""

    seat: int
    receiver: int
    count: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TributeSkipped(Fact, type="gouji.tribute_skipped"):
    """``seat`` owed ``receiver`` tribute, but they are teammates: no exchange."""

    seat: int
    receiver: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Liberation(Fact, type="gouji.liberation"):
    """``seat`` holds four red jokers and refuses to give ``receiver`` tribute (解放)."""

    seat: int
    receiver: int


@dataclass(frozen=True, slots=True, kw_only=True)
class GoujiCalled(Fact, type="gouji.gouji"):
    """``seat`` played a gouji (够级): ``opposite`` answers (after a burning window)."""

    seat: int
    opposite: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BurnWindow(Fact, type="gouji.burn_window"):
    """Before the opposite answers, ``seats`` are asked in turn whether they burn (烧牌)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Answers(Fact, type="gouji.answers"):
    """``seat`` answers the gouji of ``gouji_seat``; ``last``: that seat went out, so this
    is the last answer."""

    seat: int
    gouji_seat: int
    last: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Opened(Fact, type="gouji.opened"):
    """``seat`` opened (开点): its opposite passed on its gouji."""

    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WentOutAs(Fact, type="gouji.went_out"):
    """``seat`` went out in ``place`` (1-6); ``title`` is the place's name, a term key
    (``tou_ke`` 头科 … ``da_la`` 大落)."""

    seat: int
    place: int
    title: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnOrder(Fact, type="gouji.turn_order"):
    """The seats in their turn positions now (``team_reorder``)."""

    order: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class XianAnswered(Fact, type="gouji.xian_answered"):
    """``seat`` answered the 先让让 request of ``requester``: ``answer`` (a term key)
    ``agreed`` (it passed) or ``refused`` (it played)."""

    seat: int
    requester: int
    answer: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Offence(Fact, type="gouji.offence"):
    """``strict_penalty``: ``seat`` committed the offence ``claim`` and places ``place``
    (``title``: its name); its hand is laid down with the played cards."""

    seat: int
    claim: str
    place: int
    title: str


@dataclass(frozen=True, slots=True, kw_only=True)
class GouJiDealOver(Fact, type="gouji.deal_over"):
    """The deal is over: ``order`` lists the seats from Tou Ke to Da La; ``sweep``: one
    team took the top three places."""

    order: tuple[int, ...]
    sweep: bool = False


# --- status only (a view's standing facts) -------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class TrickMode(Fact, type="gouji.mode"):
    """The trick is in ``mode`` (a term key: ``duel``, ``final``, ``after_burn``);
    ``seat`` played the gouji or the burn."""

    mode: str
    seat: int


@dataclass(frozen=True, slots=True, kw_only=True)
class XianRequest(Fact, type="gouji.xian_request"):
    """``seat`` has asked ``asked`` to let it go first (先让让); ``asked`` is to answer."""

    seat: int
    asked: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DianGongOwed(Fact, type="gouji.dian_gong_owed"):
    """``modern_dian_gong``: ``seats`` had not opened when Tou Ke went out and owe 点贡
    at the next deal."""

    seats: tuple[int, ...]


# --- between deals (the match's report) -----------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class TeamScore(Fact, type="gouji.team_score"):
    """The team ``seats`` scored ``delta`` this deal, now ``total``."""

    seats: tuple[int, ...]
    delta: float
    total: float


@dataclass(frozen=True, slots=True, kw_only=True)
class NextGouJiDeal(Fact, type="gouji.next_deal"):
    """How the next deal starts: ``kind`` (a term key) ``normal``: ``seat``, the Da La,
    names the first drawer and leads, after the tribute; ``sweep`` or ``revolution``:
    a special deal, ``seat`` is kai pai (开牌)."""

    kind: str
    seat: int


_WORD_FACTS: dict[Word, type[Fact]] = {
    NO: Declined, DECLARE: Declared, REVOLUTION: RevolutionCalled, OBJECT: RevolutionObjected,
    WITHDRAW: RevolutionWithdrawn, INSIST: RevolutionInsisted, XIAN: XianAsked, OPEN: LaidOpen}


def describe_action(seat: int, action: object) -> Fact:
    """The action itself as a fact (``GameSpec.describe_action``): a set that names all its
    cards (every set of a history does) as the shared ``played``, with those cards."""
    if isinstance(action, Play):
        cards = action.cards
        if cards is not None and len(cards) == action.size:
            return Played(seat=seat, cards=in_hand_order(cards))
        return GouJiPlayed(seat=seat, ranks=ranks_of(action))
    if isinstance(action, Word):
        word = Passed if action == PASS else _WORD_FACTS.get(action)
        if word is not None:
            return word(seat=seat)  # type: ignore[call-arg]
    if isinstance(action, Burn):
        cards = action.play.cards
        return Burned(seat=seat, ranks=ranks_of(action.play), cards=in_hand_order(cards)
                      if cards is not None and len(cards) == action.play.size else None)
    if isinstance(action, Return):
        return CardsReturned(seat=seat, count=len(action.ranks),
                             ranks=tuple(RANK_WORDS[r] for r in action.ranks))
    if isinstance(action, Order):
        return Reordered(seat=seat, seats=action.seats)
    if isinstance(action, Draw):
        return DrawerNamed(seat=seat, drawer=action.seat)
    if isinstance(action, Foul):
        return FalseClaim(seat=seat, claim=action.claim)
    raise TypeError(f"not a Gou Ji action: {action!r}")


_RANK_INDEX = {w: r for r, w in enumerate(RANK_WORDS)}
_FACT_WORDS = {cls: word for word, cls in _WORD_FACTS.items()}


def _play(ranks: Iterable[int]) -> Play:
    """The set of some ranks (indices, with repeats)."""
    counts = [0] * NRANKS
    for r in ranks:
        counts[r] += 1
    return play_from_counts(counts)


def _play_of(cards: tuple[Card, ...]) -> Play:
    """The set of some cards, naming them."""
    return with_cards(_play(RANK_OF[card] for card in cards), cards)


def action_of(act: Fact) -> GouJiAction:
    """The action an action fact describes (the inverse of :func:`describe_action`).

    Another seat's tribute return hides its ranks: it comes back as a ``return`` of as
    many 3s, a stand-in whose cards nobody reads (the view shows neither).
    """
    if isinstance(act, Played):
        return _play_of(act.cards)
    if isinstance(act, GouJiPlayed):
        return _play(_RANK_INDEX[w] for w in act.ranks)
    if isinstance(act, Passed):
        return PASS
    word = _FACT_WORDS.get(type(act))
    if word is not None:
        return word
    if isinstance(act, Burned):
        return Burn(_play_of(act.cards) if act.cards is not None
                    else _play(_RANK_INDEX[w] for w in act.ranks))
    if isinstance(act, CardsReturned):
        ranks = act.ranks if act.ranks is not None else (RANK_WORDS[0],) * act.count
        return Return(tuple(sorted(_RANK_INDEX[w] for w in ranks)))
    if isinstance(act, Reordered):
        return Order(act.seats)
    if isinstance(act, DrawerNamed):
        return Draw(act.drawer)
    if isinstance(act, FalseClaim):
        return Foul(act.claim)
    raise TypeError(f"not a Gou Ji action fact: {act!r}")


__all__ = [
    "PLACE_TITLES", "Answers", "BurnWindow", "Burned", "CardsReturned", "Declared", "Declined",
    "DianGongOwed", "DrawerNamed", "FalseClaim", "GouJiDealOver", "GouJiPlayed", "GoujiCalled", "LaidOpen",
    "Liberation", "NextGouJiDeal", "Offence", "Opened", "Redeal", "Reordered", "RevolutionCalled",
    "RevolutionInsisted", "RevolutionObjected", "RevolutionWithdrawn", "ShangBan", "TeamScore", "ThreesShown",
    "TributeGiven", "TributeReturned", "TributeSkipped", "TrickMode", "TurnOrder", "WentOutAs",
    "XianAnswered", "XianAsked", "XianRequest", "action_of", "describe_action", "ranks_of"]
