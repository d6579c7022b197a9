"""The Gou Ji deal before play (docs/rules/gouji.md §2.1-§2.6).

Dealing by drawing, kai pai (开牌), the first-deal start by two same-suit 3s, and
the tribute (进贡) pairs decided by the previous deal's places.

>>> from folkdeck.cards import parse_cards
>>> first_drawer(0, parse_cards("BJ 9S"))       # a joker: seat 1 turns a 9 and counts 9
(1, 3, 2)
>>> tribute_pairs((1, 2, 3, 4, 5, 6), GouJiOptions())   # seat 5 6th → seat 0 1st; 4 5th → 1 2nd
[(5, 0, 2), (4, 1, 1)]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from folkdeck.cards import GOUJI_216, Card, Rank, Suit
from folkdeck.cards.shuffling import shuffle
from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.game_base import read_cards
from folkdeck.games.gouji.options import GouJiOptions
from folkdeck.games.gouji.rules import KAI_PAI_VALUE, RANK_WORDS
from folkdeck.json_types import JSONObject

SEATS: Final = 6
HAND: Final = 36
PACK: Final = Counter(GOUJI_216.cards)
"""The 216 cards and how many copies of each the four packs hold."""
_SETUP_KEYS: Final = ("places", "special", "kai_pai", "first_drawer", "revolution_redeal", "leader",
               "name_drawer", "dian_gong")


def team(seat: int) -> int:
    """Teams {0, 2, 4} and {1, 3, 5} (docs/rules/gouji.md §1.1)."""
    return seat % 2


def opposite(seat: int) -> int:
    """The opposite (对门), three seats away."""
    return (seat + 3) % SEATS


def is_sweep(places: Sequence[int]) -> bool:
    """Whether the top three places went to one team."""
    top = [s for s in range(SEATS) if places[s] <= 3]
    return len({team(s) for s in top}) == 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Setup:
    """What a deal takes from outside it (the record's ``setup`` object)."""

    places: tuple[int, ...] | None = None
    """The previous deal's places by seat (1 = Tou Ke … 6 = Da La); none on a first deal."""
    special: bool = True
    """A special deal: kai pai picks the first drawer, two same-suit 3s pick the leader."""
    kai_pai: int = 0
    first_drawer: int | None = None
    revolution_redeal: bool = False
    leader: int | None = None
    """A fixed leader (study positions): no 3s start."""
    name_drawer: bool | None = None
    """A normal deal opens with the Da La naming the first drawer (``draw N``); the hands
    are then listed as drawn with the Da La first. Default: on when dealt from a seed or
    a deck without ``first_drawer``, off with ``hands``."""
    dian_gong: tuple[int, ...] = ()
    """``modern_dian_gong``: the seats that owe 点贡 from the previous deal."""

    @property
    def da_la(self) -> int | None:
        return None if self.places is None else self.places.index(6)

    def to_dict(self) -> JSONObject:
        out: JSONObject = {"special": self.special, "kai_pai": self.kai_pai,
                               "first_drawer": self.first_drawer}
        if self.places is not None:
            out["places"] = list(self.places)
        if self.revolution_redeal:
            out["revolution_redeal"] = True
        if self.leader is not None:
            out["leader"] = self.leader
        if self.name_drawer:
            out["name_drawer"] = True
        if self.dian_gong:
            out["dian_gong"] = list(self.dian_gong)
        return out


def _seat(value: object, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < SEATS:
        raise InvalidDealError("gouji.setup_seat", field=f"setup.{key}", key=key, value=repr(value)[:40])
    return value


def _check_setup_keys(setup: Mapping[str, object]) -> None:
    for key in setup:
        if key not in _SETUP_KEYS:
            raise InvalidDealError("gouji.unknown_setup_key", field=f"setup.{key}"[:80], key=key[:40],
                                   keys=", ".join(_SETUP_KEYS))


def _read_places(setup: Mapping[str, object]) -> tuple[int, ...] | None:
    """``setup.places``: a permutation of the places 1..6, or absent (a first deal)."""
    places = setup.get("places")
    if places is None:
        return None
    if not isinstance(places, (list, tuple)) or len(places) != SEATS or not all(
            type(p) is int for p in places) or sorted(places) != [1, 2, 3, 4, 5, 6]:
        raise InvalidDealError("gouji.setup_places", field="setup.places")
    return tuple(places)


def _check_setup_bools(setup: Mapping[str, object]) -> None:
    for key in ("special", "revolution_redeal", "name_drawer"):
        if key in setup and not isinstance(setup[key], bool):
            raise InvalidDealError("gouji.setup_bool", field=f"setup.{key}", key=key)


def _read_dian_gong(setup: Mapping[str, object], places: tuple[int, ...] | None) -> tuple[int, ...]:
    """The seats owing dian gong, sorted; only after a deal that gave places."""
    owing = setup.get("dian_gong", [])
    if not isinstance(owing, (list, tuple)) or places is None and owing:
        raise InvalidDealError("gouji.setup_dian_gong", field="setup.dian_gong")
    return tuple(sorted({_seat(g, "dian_gong") for g in owing}))


def read_setup(setup: Mapping[str, object]) -> Setup:
    """Check a ``setup`` mapping; defaults: a first deal, kai pai seat 0.

    :raises InvalidDealError: naming the key (``setup.places`` …).
    """
    _check_setup_keys(setup)
    places = _read_places(setup)
    _check_setup_bools(setup)
    revolution = bool(setup.get("revolution_redeal", False))
    default_special = places is None or revolution or is_sweep(places)
    special = bool(setup.get("special", default_special))
    if not special and places is None:
        raise InvalidDealError("gouji.normal_needs_places", field="setup.special")
    kai = _seat(setup.get("kai_pai", 0), "kai_pai")
    drawer = setup.get("first_drawer")
    leader = setup.get("leader")
    name = setup.get("name_drawer")
    if name and (special or leader is not None):
        raise InvalidDealError("gouji.name_drawer_normal_only", field="setup.name_drawer")
    dian_gong = _read_dian_gong(setup, places)
    return Setup(places=places, special=special, kai_pai=kai,
                 first_drawer=None if drawer is None else _seat(drawer, "first_drawer"),
                 revolution_redeal=revolution,
                 leader=None if leader is None else _seat(leader, "leader"),
                 name_drawer=name if isinstance(name, bool) else None, dian_gong=dian_gong)


def first_drawer(kai: int, deck: Sequence[Card]) -> tuple[int, int, int]:
    """Kai pai turns the top card; count it from the kai pai counter-clockwise.

    A joker goes back into the pack and the next seat turns the next card (docs/rules/gouji.md §2.2).
    Returns ``(kai pai, first drawer, cards turned)``.
    """
    for turned, card in enumerate(deck):
        if card.is_joker:
            kai = (kai + 1) % SEATS
            continue
        value = KAI_PAI_VALUE[RANK_WORDS.index(card.rank.value)]
        return kai, (kai + value - 1) % SEATS, turned + 1
    raise InvalidDealError("gouji.only_jokers", field="deck")


def pack_order(deck: object, seed: object, rng: random.Random | None) -> list[Card]:
    """The pack top first: the given ``deck`` (a whole pack), else shuffled."""
    if deck is not None:
        order = read_pack_cards(deck, "deck")
        if Counter(order) != PACK:
            raise InvalidDealError("gouji.full_pack", field="deck")
        return order
    order = list(GOUJI_216.cards)
    shuffle(order, rng if rng is not None else random.Random(seed if isinstance(seed, int) else None))
    return order


def read_pack_cards(items: object, where: str) -> list[Card]:
    """A record's cards (a list, or one string) at ``where`` (``deck``, ``hands[2]``), each in
    the pack."""
    cards = read_cards(items, where)
    for c in cards:
        if c not in PACK:
            raise InvalidDealError("gouji.not_in_pack", field=where, card=str(c))
    return cards


def draw(deck: Sequence[Card], drawer: int) -> list[list[Card]]:
    """Each seat draws one card in turn from ``drawer`` on; hands in draw order."""
    hands: list[list[Card]] = [[] for _ in range(SEATS)]
    for i, card in enumerate(deck):
        hands[(drawer + i) % SEATS].append(card)
    return hands


def reinsert_turned(deck: list[Card], turned: int) -> list[Card]:
    """The pack after kai pai: the turned cards go back into the middle (docs/rules/gouji.md §2.2, §11.13)."""
    rest = deck[turned:]
    middle = len(rest) // 2
    return rest[:middle] + deck[:turned] + rest[middle:]


def three_claims(hands: Sequence[Sequence[Card]], drawer: int) -> list[int]:
    """Seats in the order they complete two 3s of one suit while drawing (docs/rules/gouji.md §2.4)."""
    seen: list[set[Suit | None]] = [set() for _ in range(SEATS)]
    claims: list[int] = []
    longest = max(len(h) for h in hands)
    three = Rank.THREE  # read once: Python 3.11 reads an enum's member through a slow hook
    for i in range(longest):
        for k in range(SEATS):
            s = (drawer + k) % SEATS
            if s in claims or i >= len(hands[s]):
                continue
            card = hands[s][i]
            if card.rank is three:
                if card.suit in seen[s]:
                    claims.append(s)
                seen[s].add(card.suit)
    return claims


def tribute_pairs(places: Sequence[int], options: GouJiOptions) -> list[tuple[int, int, int]]:
    """``(giver, receiver, cards)`` of the exchange, before teammate skips and liberation.

    A sweep (top three one team) has each pair of opposites exchange one card.

    >>> tribute_pairs((1, 4, 2, 5, 3, 6), GouJiOptions())   # 0, 2, 4 took the top 3
    [(3, 0, 1), (1, 4, 1), (5, 2, 1)]
    """
    by_place = {p: s for s, p in enumerate(places)}
    if is_sweep(places):
        out = []
        for s in range(3):
            o = opposite(s)
            giver, receiver = (s, o) if places[s] > places[o] else (o, s)
            out.append((giver, receiver, 1))
        return out
    sixth, fifth = by_place[6], by_place[5]
    if options.tribute_swap_losers and team(sixth) == team(fifth):
        return [(fifth, by_place[1], 2), (sixth, by_place[2], 1)]
    return [(sixth, by_place[1], 2), (fifth, by_place[2], 1)]
