"""A new deal read the one way a simple game reads it: from a ``seed``/``rng`` (shuffled),
a ``deck`` (top card first, dealt one card at a time round the table) or given
``hands``, each hand of ``hand_size`` cards of one pack, the rest left face down; and a
``setup`` whose every value is a seat.

The refusals are the engine's, the same in every game that deals this way (``deal.*``
in the catalogs), each naming the field it refuses:

>>> from folkdeck.cards import FRENCH_52
>>> hands, undealt = deal_hands(FRENCH_52, 2, 3, hands=["AS KS QS", "2C 3C 4C"])
>>> [len(h) for h in hands], len(undealt)
([3, 3], 46)
>>> try:
...     deal_hands(FRENCH_52, 2, 3, hands=["AS KS QS"])
... except InvalidDealError as exc:
...     exc.reason, exc.params["field"]
('deal.hands_count', 'hands')
>>> read_setup({"leader": 1}, {"leader": 0}, players=2)
{'leader': 1}
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from folkdeck.cards import Card, Pack
from folkdeck.cards.shuffling import shuffle
from folkdeck.engine.errors import InvalidDealError, InvalidNotationError
from folkdeck.engine.game_base import deal_source
from folkdeck.engine.game_base import read_cards as read_cards_of


def deal_hands(pack: Pack, players: int, hand_size: int, *, seed: int | None = None,
               rng: random.Random | None = None, deck: Sequence[Any] | None = None,
               hands: Sequence[Any] | None = None,
               stock: Sequence[Any] | None = None) -> tuple[list[list[Card]], list[Card]]:
    """Each seat's hand and the undealt rest, from exactly one source (none: a fresh
    shuffle). A game of this kind has no stock.

    :raises InvalidDealError: the checks of
        :func:`~folkdeck.engine.game_base.deal_source` (``deal.no_stock`` for a ``stock``),
        ``not_list_of_hands`` and ``deal.hands_count`` (``hands``), ``deal.hand_cards`` (``hands[i]``),
        ``deal.whole_pack`` (``deck``), and the card checks of :func:`read_cards`.
    """
    source = deal_source(seed=seed, rng=rng, deck=deck, hands=hands, stock=stock, no_stock="deal.no_stock")
    if source == "hands":
        assert hands is not None
        return _given_hands(pack, players, hand_size, hands)
    if deck is None:
        order = list(pack.cards)
        shuffle(order, rng if rng is not None else random.Random(seed))
    else:
        order = read_cards_of(deck, "deck")
        if Counter(order) != pack.counts:  # a card missing, twice, or of another pack
            raise InvalidDealError("deal.whole_pack", field="deck", count=len(order), size=len(pack.cards),
                                   pack=pack.name)
    dealt = [order[s:players * hand_size:players] for s in range(players)]
    return dealt, order[players * hand_size:]


def _given_hands(pack: Pack, players: int, hand_size: int,
                 hands: Sequence[Any]) -> tuple[list[list[Card]], list[Card]]:
    """The given hands, checked: one per seat, ``hand_size`` cards each, no card twice."""
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise InvalidDealError("not_list_of_hands", field="hands")
    if len(hands) != players:
        raise InvalidDealError("deal.hands_count", field="hands", count=len(hands), players=players)
    dealt = [read_cards(h, pack, f"hands[{s}]") for s, h in enumerate(hands)]
    for s, hand in enumerate(dealt):
        if len(hand) != hand_size:
            raise InvalidDealError("deal.hand_cards", field=f"hands[{s}]", count=len(hand), size=hand_size)
    _check_pack([c for h in dealt for c in h], pack, "hands")
    left = pack.counts - Counter(c for h in dealt for c in h)
    undealt = []
    for card in pack.cards:  # in the pack's order, each copy once
        if left[card] > 0:
            left[card] -= 1
            undealt.append(card)
    return dealt, undealt


def read_cards(items: object, pack: Pack, where: str) -> list[Card]:
    """Cards of ``pack`` from notation text, a list of tokens or of cards, none more often
    than the pack holds it.

    >>> from folkdeck.cards import FRENCH_52
    >>> [str(c) for c in read_cards("as 10h", FRENCH_52, "deck")]
    ['AS', '10H']

    :raises InvalidDealError: ``not_card_list`` (``where``), the notation's reasons
        (``not_a_card``...), ``not_in_pack`` or ``too_many_copies``, naming ``where``.
    """
    cards = read_cards_of(items, where)
    _check_pack(cards, pack, where)
    return cards




def _check_pack(cards: list[Card], pack: Pack, where: str) -> None:
    try:
        pack.check(tuple(cards), where)
    except InvalidNotationError as exc:
        raise InvalidDealError(exc.reason, **{**exc.params, "field": where}) from exc


def read_setup(setup: Mapping[str, Any] | None, defaults: Mapping[str, int], *, players: int) -> dict[str, int]:
    """A deal's ``setup``: the keys of ``defaults`` (each a seat: who leads, who deals),
    each given or its default.

    :raises InvalidDealError: ``not_object`` for a setup that is not a mapping,
        ``deal.setup_key`` for a key the game does not take,
        ``deal.setup_seat`` for a value that is not a seat at the table (``setup.<key>``).
    """
    if setup is not None and not isinstance(setup, Mapping):
        raise InvalidDealError("not_object", field="setup")
    given = dict(setup or {})
    for key in given:
        if key not in defaults:
            raise InvalidDealError("deal.setup_key", field=f"setup.{key}", key=str(key),
                                   keys=", ".join(defaults))
    out = {}
    for key, default in defaults.items():
        value = given.get(key, default)
        if type(value) is not int or not 0 <= value < players:
            raise InvalidDealError("deal.setup_seat", field=f"setup.{key}", key=key, last=players - 1)
        out[key] = value
    return out


__all__ = ["deal_hands", "read_cards", "read_setup"]
