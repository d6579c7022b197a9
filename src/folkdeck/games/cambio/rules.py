"""Cambio rules as pure functions over card kinds (docs/rules/cambio.md).

A card *kind* is an ``int`` naming one kind of card in every pack: the 40-card
pack's kinds are 0 … 19, the card's value plus 4 (``FOOL`` (-4) is 0, ``0`` is 4,
``10`` is 14, ``HOUSE`` 15, ``CAT`` 16, ``HORSE`` 17, ``MAN`` 18, ``OWL`` (15) 19);
the Nifty 44-card edition's extra number cards ``XI`` and ``XII`` are kinds 20
and 21. A kind is an identity, not a strength: cards are compared by the
:class:`PackTable` of the game's ``pack`` option, whose ``values`` give each kind's
showdown value (docs/rules/cambio.md §1, §5). Each pack holds two cards of each of its kinds.
Where a card came from matters twice (the CAT blames the seat it was first dealt to;
a FOOL taken from the stock counts above the OWL): an *origin* is the seat the card
was dealt to, or :data:`STOCK`.

>>> [CARDS[k].rank.notation for k in (FOOL, ZERO, HOUSE, OWL, XI)]
['FOOL', '0', 'HOUSE', 'OWL', 'XI']
>>> answer(HORSE, to_stock=False, owl_refuses=False).name
'SKIP'
>>> showdown_losers([(0, kind("5"), 0), (1, kind("MASK"), 1), (2, kind("MASK"), 2)])
(1, 2)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, Literal, Protocol

from folkdeck.cards import CUCCO_40, NIFTY_44, Card, CuccoRank, Pack, parse_card
from folkdeck.engine.errors import InvalidNotationError
from folkdeck.engine.protocol import Game
from folkdeck.games.cambio.options import CambioOptions

FOOL: Final = 0
LION: Final = 1
MASK: Final = 2
BUCKET: Final = 3
ZERO: Final = 4
HOUSE: Final = 15
CAT: Final = 16
HORSE: Final = 17
MAN: Final = 18
OWL: Final = 19
XI: Final = 20
XII: Final = 21
"""The Nifty edition's number cards XI and XII (docs/rules/cambio.md §1.3)."""
NUM_KINDS: Final = 22
"""The kinds of every pack (the 40-card pack uses the first 20)."""
COPIES: Final = 2
STOCK: Final = -1
"""The origin of a card taken from the stock during the deal."""
STOCK_FOOL_VALUE: Final = 16
"""A FOOL taken from the stock in the 40-card pack: above the OWL (15)."""
FoolRule = Literal["japanese", "italian"]
"""The ``fool_rule`` option's values (docs/rules/cambio.md §7, §8)."""

CARDS: Final[tuple[Card, ...]] = tuple(
    Card(r) for r in (*(CuccoRank(k - 4) for k in range(20)), CuccoRank.XI, CuccoRank.XII))
KIND: Final[dict[Card, int]] = {c: k for k, c in enumerate(CARDS)}
NAMES: Final[tuple[str, ...]] = tuple(c.rank.notation for c in CARDS)   # type: ignore[union-attr]


@dataclass(frozen=True, slots=True)
class PackTable:
    """A Cambio pack as kinds: which kinds it holds and how they rank (docs/rules/cambio.md §1).

    ``values[k]`` is kind ``k``'s showdown value (only meaningful for the pack's
    own kinds); ``stock_fool`` is the value of a FOOL taken from the stock, just
    above the OWL.
    """

    option: str
    """The ``pack`` option value: ``"40"`` or ``"nifty44"``."""
    pack: Pack
    kinds: tuple[int, ...]
    """The pack's kinds, bottom to top."""
    values: tuple[int, ...]
    stock_fool: int
    full: tuple[int, ...]
    """Every card of the pack as kinds, two of each, bottom to top (the order a shuffle starts from)."""

    @classmethod
    def build(cls, option: str, pack: Pack) -> PackTable:
        kinds = tuple(KIND[c] for c in pack.kinds)
        values = [0] * NUM_KINDS
        for v, k in enumerate(kinds, start=-4):   # FOOL is -4 in every pack
            values[k] = v
        return cls(option, pack, kinds, tuple(values), values[OWL] + 1,
                   tuple(k for k in kinds for _ in range(COPIES)))

    def __contains__(self, k: object) -> bool:
        return k in self.kinds

    def __repr__(self) -> str:
        return f"PackTable({self.option!r})"


PACK_40: Final = PackTable.build("40", CUCCO_40)
"""The 40-card pack: FOOL -4 … 10, HOUSE 11, CAT 12, HORSE 13, MAN 14, OWL 15; stock FOOL 16.

>>> [PACK_40.values[k] for k in (FOOL, ZERO, HOUSE, OWL)], PACK_40.stock_fool, len(PACK_40.full)
([-4, 0, 11, 15], 16, 40)
"""
PACK_NIFTY44: Final = PackTable.build("nifty44", NIFTY_44)
"""The Nifty 44-card edition (docs/rules/cambio.md §1.3): 22 kinds, XI and XII between 10 and HOUSE, so
HOUSE 13, CAT 14, HORSE 15, MAN 16, OWL 17, and a stock FOOL 18, still above the OWL.

>>> [PACK_NIFTY44.values[k] for k in (FOOL, 14, XI, XII, HOUSE, OWL)], PACK_NIFTY44.stock_fool
([-4, 10, 11, 12, 13, 17], 18)
"""
PACK_TABLES: Final[dict[str, PackTable]] = {"40": PACK_40, "nifty44": PACK_NIFTY44}
FULL_PACK: Final[tuple[int, ...]] = PACK_40.full
"""The 40-card pack as kinds (kept for callers of the 40-card game)."""

class CambioGameLike(Game, Protocol):
    """The game as a deal reads it: a :class:`~folkdeck.engine.protocol.Game` with Cambio's
    options and its :class:`PackTable` (:class:`~folkdeck.games.cambio.game.CambioGame` is
    one). The state takes this, so that it need not import the game module, which makes it."""

    @property
    def options(self) -> CambioOptions: ...

    @property
    def pack(self) -> PackTable: ...


_SEATINGS: Final[dict[tuple[int, tuple[bool, ...]], tuple[tuple[int, ...], tuple[int, ...]]]] = {}
""":func:`seating`'s answers: a table has few pairs of a dealer and the seats in a deal."""


def seating(dealer: int, in_deal: tuple[bool, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The turn order of a deal (the dealer's right first, the dealer last; docs/rules/cambio.md
    §3) and each seat's place in it (-1: not in the deal).

    A function of its arguments, remembered; a module function, which every new deal calls
    (why not a method of the game: :mod:`folkdeck.engine.build`, "Calls").

    >>> seating(0, (True, True, True, True))
    ((1, 2, 3, 0), (3, 0, 1, 2))
    >>> seating(1, (True, True, False, True))
    ((3, 0, 1), (1, 2, -1, 0))
    """
    key = (dealer, in_deal)
    found = _SEATINGS.get(key)
    if found is None:
        n = len(in_deal)
        order = tuple(s % n for s in range(dealer + 1, dealer + n + 1) if in_deal[s % n])
        index = [-1] * n
        for i, s in enumerate(order):
            index[s] = i
        found = _SEATINGS[key] = (order, tuple(index))
    return found


class Answer(IntEnum):
    """How the target of an exchange request answers it (docs/rules/cambio.md §5)."""

    SWAP = 0    # the cards change hands (from the stock: Q takes the card)
    MAN = 1     # refused; the requester is disqualified
    SKIP = 2    # HORSE or HOUSE: refused, the request passes on to the right
    CAT = 3     # refused; the seat first dealt the requester's card is disqualified
    CUCCO = 4   # the stock's OWL (or an OWL refusing under owl_refuses_when_asked): the deal ends


def kind(token: str) -> int:
    """The kind of a Cucco card given by name or value.

    >>> kind("owl"), kind("-4"), kind("10"), kind("xii")
    (19, 0, 14, 21)

    :raises InvalidNotationError: for text that is not a Cucco card.
    """
    card = parse_card(token)
    k = KIND.get(card)
    if k is None:
        raise InvalidNotationError("cambio.not_cucco_card", token=token)
    return k


def name(k: int) -> str:
    """The notation of a kind: ``FOOL`` … ``BUCKET``, ``0`` … ``10``, ``HOUSE`` … ``OWL``,
    ``XI``, ``XII``."""
    return NAMES[k]


def answer(k: int, *, to_stock: bool, owl_refuses: bool) -> Answer:
    """The answer of card ``k`` to an exchange request (docs/rules/cambio.md §5).

    >>> [answer(k, to_stock=False, owl_refuses=False).name for k in (OWL, MAN, HORSE, CAT, HOUSE, FOOL)]
    ['SWAP', 'MAN', 'SKIP', 'CAT', 'SKIP', 'SWAP']
    >>> answer(XI, to_stock=True, owl_refuses=False).name   # Nifty XI, XII: numbers, they swap
    'SWAP'
    >>> answer(OWL, to_stock=True, owl_refuses=False).name, answer(OWL, to_stock=False, owl_refuses=True).name
    ('CUCCO', 'CUCCO')
    """
    if k == MAN:
        return Answer.MAN
    if k == HORSE or k == HOUSE:
        return Answer.SKIP
    if k == CAT:
        return Answer.CAT
    if k == OWL and (to_stock or owl_refuses):
        return Answer.CUCCO
    return Answer.SWAP


_ANSWER_TABLES: Final[dict[tuple[bool, bool], tuple[Answer, ...]]] = {
    (stock, refuses): tuple(answer(k, to_stock=stock, owl_refuses=refuses) for k in range(NUM_KINDS))
    for stock in (False, True) for refuses in (False, True)}


def answers(*, to_stock: bool, owl_refuses: bool) -> tuple[Answer, ...]:
    """:func:`answer` of every kind, as a table indexed by kind: for the deal's and the
    playouts' loops, which resolve a request per step (docs/rules/cambio.md §5).

    >>> answers(to_stock=True, owl_refuses=False)[OWL].name, answers(to_stock=False, owl_refuses=False)[OWL].name
    ('CUCCO', 'SWAP')
    """
    return _ANSWER_TABLES[to_stock, owl_refuses]


def may_call_cucco(k: int, active: bool) -> bool:
    """Whether a seat holding card ``k`` (still in the deal: ``active``) may call cucco: an
    OWL's holder may, at any moment of the exchanges, in turn or out of turn, and at once
    after receiving the OWL; the exchanges then end and the cards are shown
    (docs/rules/cambio.md §4.3). Once a request has reached the OWL it is too late: the
    request resolves by :func:`answer` (§6.2).

    >>> may_call_cucco(OWL, True), may_call_cucco(OWL, False), may_call_cucco(MAN, True)
    (True, False, False)
    """
    return active and k == OWL


def value(k: int, origin: int, fool_rule: FoolRule = "japanese",
          pack: PackTable = PACK_40) -> int:
    """The showdown value of a card in ``pack`` (docs/rules/cambio.md §1.1); a stock FOOL counts
    above the OWL in Japan (16 in the 40-card pack).

    >>> value(FOOL, 2), value(FOOL, STOCK), value(FOOL, STOCK, "italian"), value(OWL, 0)
    (-4, 16, -4, 15)
    >>> value(XII, 0, pack=PACK_NIFTY44) < value(HOUSE, 0, pack=PACK_NIFTY44)
    True
    """
    if k == FOOL and origin == STOCK and fool_rule == "japanese":
        return pack.stock_fool
    return pack.values[k]


def received_disqualifies(k: int, fool_rule: FoolRule = "japanese") -> bool:
    """Whether a seat that has just received card ``k`` from another seat in an exchange
    is disqualified: a FOOL under the Japanese rule, the target's or the requester's alike
    (docs/rules/cambio.md §5.1, §6.15); the Italian rule has no such loss (§7 ``fool_rule``,
    §8). A FOOL taken from the stock is no such card: it counts above the OWL (§5.2).

    >>> received_disqualifies(FOOL), received_disqualifies(FOOL, "italian"), received_disqualifies(MAN)
    (True, False, False)
    """
    return k == FOOL and fool_rule == "japanese"


def showdown_losers(hands: Iterable[tuple[int, int, int]],
                    fool_rule: FoolRule = "japanese",
                    pack: PackTable = PACK_40) -> tuple[int, ...]:
    """The seats holding the lowest value among ``(seat, kind, origin)`` (ties all lose).

    Japanese rule (docs/rules/cambio.md §4.4): values as :func:`value`. Italian rule (docs/rules/cambio.md §8):
    one FOOL equals the lowest other card, so its holder loses with the lowest, unless
    that lowest card is an OWL (then the FOOL alone loses); two FOOLs are the lowest.

    >>> showdown_losers([(0, kind("3"), 0), (1, FOOL, 1)])
    (1,)
    >>> showdown_losers([(0, kind("3"), 0), (1, FOOL, STOCK)])
    (0,)
    >>> showdown_losers([(0, kind("3"), 0), (1, FOOL, 1), (2, kind("5"), 2)], "italian")
    (0, 1)
    >>> showdown_losers([(0, OWL, 0), (1, FOOL, 1)], "italian")
    (1,)
    >>> showdown_losers([(0, HOUSE, 0), (1, XII, 1)], pack=PACK_NIFTY44)   # docs/rules/cambio.md §1.3: XII < HOUSE
    (1,)
    """
    entries = list(hands)
    if not entries:
        return ()
    vals = pack.values
    if fool_rule == "italian":
        return _italian_losers(entries, vals)
    # One pass: every deal ends here, and building (seat, value) pairs in three
    # comprehensions took over two thirds of this function's time.
    top = pack.stock_fool
    low = 1 << 30  # above every value
    losers: list[int] = []
    for s, k, o in entries:
        v = top if k == FOOL and o == STOCK else vals[k]
        if v < low:
            low = v
            losers = [s]
        elif v == low:
            losers.append(s)
    losers.sort()
    return tuple(losers)


def _italian_losers(entries: Sequence[tuple[int, int, int]], vals: Sequence[int]) -> tuple[int, ...]:
    """:func:`showdown_losers` under the Italian rule: a lone FOOL ties the lowest other
    card (and loses alone to an OWL), two or more FOOLs are the lowest."""
    fools = [s for s, k, _ in entries if k == FOOL]
    others = [(s, vals[k]) for s, k, _ in entries if k != FOOL]
    if len(fools) != 1 or not others:
        if fools:
            return tuple(sorted(fools))
        low = min(v for _, v in others)
        return tuple(sorted(s for s, v in others if v == low))
    low = min(v for _, v in others)
    if low == vals[OWL]:
        return tuple(fools)
    return tuple(sorted(fools + [s for s, v in others if v == low]))


def seed_bits(seed: int) -> int:
    """256 pseudo-random bits from a seed (BLAKE2b), so a seeded deal never depends
    on the internals of :mod:`random`.

    >>> seed_bits(7) == seed_bits(7) != seed_bits(8)
    True
    """
    return int.from_bytes(hashlib.blake2b(str(seed).encode(), digest_size=32).digest(), "big")


def permuted(items: Sequence[int], bits: int) -> list[int]:
    """``items`` shuffled by Fisher-Yates, the swaps drawn from the integer ``bits``.

    With 256 bits for 40 cards (40! < 2**160) the bias is below 2**-96.

    >>> permuted([1, 2, 3], 0), sorted(permuted(FULL_PACK, seed_bits(1))) == list(FULL_PACK)
    ([2, 3, 1], True)

    With 44 cards (the Nifty pack, 44! < 2**180) the bias stays below 2**-76.
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        bits, j = divmod(bits, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def unfold(pile: Sequence[int], bits: int) -> list[int]:
    """The order (top last) of a *lazy* pile: ``pile`` in any order, each draw taking
    ``pile[j]`` with ``bits, j = divmod(bits, len(pile))`` (swapped to the end and
    popped). Drawing lazily and unfolding first give the same cards in the same order.

    >>> pile, bits = [0, 1, 2, 3], 11
    >>> bits, j = divmod(bits, 4); pile[j], pile[-1] = pile[-1], pile[j]; first = pile.pop()
    >>> unfold([0, 1, 2, 3], 11)[-1] == first, unfold(pile, bits)[::-1] == unfold([0, 1, 2, 3], 11)[::-1][1:]
    (True, True)
    """
    pile = list(pile)
    order: list[int] = []
    while pile:
        bits, j = divmod(bits, len(pile))
        pile[j], pile[-1] = pile[-1], pile[j]
        order.append(pile.pop())
    order.reverse()
    return order


def seating_strength(k: int, pack: PackTable = PACK_40) -> int:
    """A card's strength in the seating draw: a FOOL from the stock is the strongest.

    >>> seating_strength(FOOL) > seating_strength(OWL) > seating_strength(MAN)
    True
    >>> seating_strength(HOUSE, PACK_NIFTY44) > seating_strength(XII, PACK_NIFTY44) > seating_strength(14, PACK_NIFTY44)
    True
    """
    return value(k, STOCK, pack=pack)


def seating_groups(draws: Mapping[int, int], pack: PackTable = PACK_40) -> list[list[int]]:
    """Players grouped by the strength of their drawn card, strongest group first.

    A group of more than one player is a tie, which docs/rules/cambio.md §6.7 settles by a redraw.

    >>> seating_groups({0: kind("5"), 1: OWL, 2: FOOL, 3: kind("5")})
    [[2], [1], [0, 3]]
    """
    by: dict[int, list[int]] = {}
    for player, k in draws.items():
        by.setdefault(seating_strength(k, pack), []).append(player)
    return [sorted(by[v]) for v in sorted(by, reverse=True)]


def payment(deal: int, schedule: Sequence[int]) -> int | None:
    """What a loser of deal ``deal`` (1-based) pays; ``None`` means elimination.

    >>> [payment(d, (1, 2, 3)) for d in (1, 2, 3, 4, 9)]
    [1, 2, 3, None, None]
    """
    return schedule[deal - 1] if 1 <= deal <= len(schedule) else None


__all__ = ["BUCKET", "CARDS", "CAT", "COPIES", "FOOL", "FULL_PACK", "HORSE", "HOUSE",
           "KIND", "LION", "MAN", "MASK", "NUM_KINDS", "OWL", "PACK_40", "PACK_NIFTY44", "PACK_TABLES",
           "STOCK", "XI", "XII", "ZERO", "Answer", "CambioGameLike", "FoolRule", "PackTable", "answer",
           "kind", "name", "payment", "permuted", "received_disqualifies", "seed_bits", "unfold", "seating", "seating_groups", "seating_strength", "showdown_losers",
           "value"]
