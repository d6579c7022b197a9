"""Cambio rules as pure functions over card kinds (seed 002, rules-notes §3).

A card *kind* is an ``int`` 0 … 19, the card's value plus 4: ``FOOL`` (-4) is 0,
``0`` is 4, ``10`` is 14, ``HOUSE`` 15, ``CAT`` 16, ``HORSE`` 17, ``MAN`` 18 and
``OWL`` (15) is 19, so the kind order *is* the card order. The pack holds two
cards of each kind. Where a card came from matters twice (the CAT blames the seat
it was first dealt to; a FOOL taken from the stock counts 16): an *origin* is the
seat the card was dealt to, or :data:`STOCK`.

>>> [CARDS[k].rank.notation for k in (FOOL, ZERO, HOUSE, OWL)]
['FOOL', '0', 'HOUSE', 'OWL']
>>> answer(HORSE, to_stock=False, owl_refuses=False).name
'SKIP'
>>> showdown_losers([(0, kind("5"), 0), (1, kind("MASK"), 1), (2, kind("MASK"), 2)])
(1, 2)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from enum import IntEnum
from typing import Literal

from folkdeck.cards import Card, CuccoRank, parse_card
from folkdeck.engine.errors import InvalidNotationError

FOOL, LION, MASK, BUCKET, ZERO = 0, 1, 2, 3, 4
HOUSE, CAT, HORSE, MAN, OWL = 15, 16, 17, 18, 19
NUM_KINDS = 20
COPIES = 2
STOCK = -1
"""The origin of a card taken from the stock during the deal."""
STOCK_FOOL_VALUE = 16

CARDS: tuple[Card, ...] = tuple(Card(CuccoRank(k - 4)) for k in range(NUM_KINDS))
KIND: dict[Card, int] = {c: k for k, c in enumerate(CARDS)}
NAMES: tuple[str, ...] = tuple(c.rank.notation for c in CARDS)   # type: ignore[union-attr]
FULL_PACK: tuple[int, ...] = tuple(k for k in range(NUM_KINDS) for _ in range(COPIES))

JAPANESE = {FOOL: "道化 (fool, Matto)", LION: "獅子 (lion)", MASK: "仮面 (mask)", BUCKET: "桶 (bucket)",
            HOUSE: "家 (house)", CAT: "猫 (cat)", HORSE: "馬 (horse)", MAN: "人間 (man)",
            OWL: "梟 (owl, クク)"}


class Answer(IntEnum):
    """How the target of an exchange request answers it (notes §3.3)."""

    SWAP = 0    # the cards change hands (from the stock: Q takes the card)
    MAN = 1     # refused; the requester is disqualified
    SKIP = 2    # HORSE or HOUSE: refused, the request passes on to the right
    CAT = 3     # refused; the seat first dealt the requester's card is disqualified
    CUCCO = 4   # the stock's OWL (or an OWL refusing under owl_refuses_when_asked): the deal ends


def kind(token: str) -> int:
    """The kind of a Cucco card given by name or value.

    >>> kind("owl"), kind("-4"), kind("10")
    (19, 0, 14)

    :raises InvalidNotationError: for text that is not a Cucco card.
    """
    card = parse_card(token)
    k = KIND.get(card)
    if k is None:
        raise InvalidNotationError(
            f"{token!r} is not a Cucco card (cards are FOOL LION MASK BUCKET 0-10 HOUSE CAT HORSE "
            "MAN OWL, or their values -4 to 15)", token=token)
    return k


def name(k: int) -> str:
    """The notation of a kind: ``FOOL`` … ``BUCKET``, ``0`` … ``10``, ``HOUSE`` … ``OWL``."""
    return NAMES[k]


def answer(k: int, *, to_stock: bool, owl_refuses: bool) -> Answer:
    """The answer of card ``k`` to an exchange request (notes §3.3).

    >>> [answer(k, to_stock=False, owl_refuses=False).name for k in (OWL, MAN, HORSE, CAT, HOUSE, FOOL)]
    ['SWAP', 'MAN', 'SKIP', 'CAT', 'SKIP', 'SWAP']
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


def value(k: int, origin: int, fool_rule: Literal["japanese", "italian"] = "japanese") -> int:
    """The showdown value of a card (notes §3.3 table); a stock FOOL is 16 in Japan.

    >>> value(FOOL, 2), value(FOOL, STOCK), value(FOOL, STOCK, "italian"), value(OWL, 0)
    (-4, 16, -4, 15)
    """
    if k == FOOL and origin == STOCK and fool_rule == "japanese":
        return STOCK_FOOL_VALUE
    return k - 4


def showdown_losers(hands: Iterable[tuple[int, int, int]],
                    fool_rule: Literal["japanese", "italian"] = "japanese") -> tuple[int, ...]:
    """The seats holding the lowest value among ``(seat, kind, origin)`` (ties all lose).

    Japanese rule (seed 002 ④): values as :func:`value`. Italian rule (notes §3.4):
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
    """
    entries = list(hands)
    if not entries:
        return ()
    if fool_rule == "italian":
        fools = [s for s, k, _ in entries if k == FOOL]
        others = [(s, k) for s, k, _ in entries if k != FOOL]
        if len(fools) != 1 or not others:
            if fools:
                return tuple(sorted(fools))
            low = min(k for _, k in others)
            return tuple(sorted(s for s, k in others if k == low))
        low = min(k for _, k in others)
        if low == OWL:
            return tuple(fools)
        return tuple(sorted(fools + [s for s, k in others if k == low]))
    values = [(s, 16 if k == FOOL and o == STOCK else k - 4) for s, k, o in entries]
    low = min([v for _, v in values])
    return tuple(sorted([s for s, v in values if v == low]))


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


def seating_strength(k: int) -> int:
    """A card's strength in the seating draw: a FOOL from the stock is the strongest.

    >>> seating_strength(FOOL) > seating_strength(OWL) > seating_strength(MAN)
    True
    """
    return value(k, STOCK)


def seating_groups(draws: Mapping[int, int]) -> list[list[int]]:
    """Players grouped by the strength of their drawn card, strongest group first.

    A group of more than one player is a tie, which the notes settle by a redraw (C7).

    >>> seating_groups({0: kind("5"), 1: OWL, 2: FOOL, 3: kind("5")})
    [[2], [1], [0, 3]]
    """
    by: dict[int, list[int]] = {}
    for player, k in draws.items():
        by.setdefault(seating_strength(k), []).append(player)
    return [sorted(by[v]) for v in sorted(by, reverse=True)]


def payment(deal: int, schedule: Sequence[int]) -> int | None:
    """What a loser of deal ``deal`` (1-based) pays; ``None`` means elimination.

    >>> [payment(d, (1, 2, 3)) for d in (1, 2, 3, 4, 9)]
    [1, 2, 3, None, None]
    """
    return schedule[deal - 1] if 1 <= deal <= len(schedule) else None


__all__ = ["BUCKET", "CARDS", "CAT", "COPIES", "FOOL", "FULL_PACK", "HORSE", "HOUSE", "JAPANESE",
           "KIND", "LION", "MAN", "MASK", "NUM_KINDS", "OWL", "STOCK", "ZERO", "Answer", "answer",
           "kind", "name", "payment", "permuted", "seed_bits", "unfold", "seating_groups", "seating_strength", "showdown_losers",
           "value"]
