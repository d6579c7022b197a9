"""The Kap Hai game object: frozen options plus the dealing of new states."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from folkdeck.cards import Card
from folkdeck.cards.shuffling import shuffle
from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.game_base import GameBase, deal_source, read_cards
from folkdeck.games.kaphai.match import KapHaiMatch
from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import FULL, INDEX
from folkdeck.games.kaphai.state import KapHaiState

HAND_SIZE: Final = 13
_BITS: Final = tuple(1 << i for i in range(52))


class KapHaiGame(GameBase[KapHaiOptions]):
    """Kap Hai with a set of options; makes deals and matches.

    >>> from folkdeck import load
    >>> state = load("kaphai").new_state(seed=7)
    >>> state.num_players, str(state.phase)
    (4, 'play')
    """

    def new_state(self, *, seed: object = None, rng: random.Random | None = None,
                  deck: Sequence[object] | None = None, hands: Sequence[object] | None = None,
                  stock: Sequence[object] | None = None,
                  setup: Mapping[str, object] | None = None) -> KapHaiState:
        """A new deal; see :meth:`folkdeck.engine.protocol.Game.new_state`.

        Dealing (seed, rng or deck): one card at a time into four piles, the deck's top
        card to pile 0; pile *k* is seat *k*'s hand. Three players leave the last pile
        out of play; two use piles 0 and 1 (or 0 and 2, ``two_player_hands=alternate``).

        ``setup``: ``three_game`` (default true: the first deal of a session or the one
        after a putuh) and ``leader`` (default 0; the seat leading a normal deal).

        :raises InvalidDealError: naming the field (``hands[2]``, ``deck``, ``setup.leader``).
        """
        three_game, leader = self._read_setup(setup or {})
        deal_source(seed=seed, rng=rng, deck=deck, hands=hands, stock=stock, no_stock="kaphai.no_stock")
        if hands is not None:
            masks = self._read_hands(hands)
            full = all(m.bit_count() == HAND_SIZE for m in masks)
            # A study position: the cards not in any hand are out of play.
            return KapHaiState(self, masks, undealt=FULL & ~sum(masks), three_game=three_game,
                               leader=leader, check_putuh=full)
        if deck is not None:
            order = self._read_deck(deck)
        else:
            order = list(range(52))
            shuffle(order, rng if rng is not None else random.Random(seed if isinstance(seed, int) else None))
        piles = [sum(_BITS[c] for c in order[p::4]) for p in range(4)]
        if self.num_players == 4:
            used = [0, 1, 2, 3]
        elif self.num_players == 3:
            used = [0, 1, 2]
        else:
            used = [0, 1] if self._options.two_player_hands == "first_two" else [0, 2]
        masks = [piles[p] for p in used]
        undealt = FULL & ~sum(masks)
        return KapHaiState(self, masks, undealt=undealt, three_game=three_game, leader=leader,
                           check_putuh=True)

    def new_match(self, *, deals: int | None = None, rng: random.Random | None = None,
                  first_dealer: int | None = None) -> KapHaiMatch:
        """A match of ``deals`` deals (default 5); see :class:`KapHaiMatch`. The first deal is
        a 3-game (the 3♠ leads): no ``first_dealer`` (:meth:`~GameBase.first_dealer`)."""
        self.first_dealer(first_dealer)
        return KapHaiMatch(self, deals=deals or 5, rng=rng or random.Random())

    def _read_setup(self, setup: Mapping[str, object]) -> tuple[bool, int]:
        for key in setup:
            if key not in ("three_game", "leader"):
                raise InvalidDealError("kaphai.setup_key", field=f"setup.{key}", key=key)
        three_game = setup.get("three_game", True)
        if not isinstance(three_game, bool):
            raise InvalidDealError("kaphai.setup_three_game", field="setup.three_game")
        leader = setup.get("leader", 0)
        if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < self.num_players:
            raise InvalidDealError("kaphai.setup_leader", field="setup.leader", last=self.num_players - 1)
        return three_game, leader

    def _read_hands(self, hands: Sequence[object]) -> list[int]:
        if len(hands) != self.num_players:
            raise InvalidDealError("kaphai.hands_count", field="hands", count=len(hands),
                                   players=self.num_players)
        masks: list[int] = []
        seen = 0
        for s, hand in enumerate(hands):
            where = f"hands[{s}]"
            cards = _read_cards(hand, where)
            if len(cards) > HAND_SIZE:
                raise InvalidDealError("kaphai.hand_too_big", field=where, count=len(cards), limit=HAND_SIZE)
            m = 0
            for c in cards:
                bit = 1 << INDEX[c]
                if (m | seen) & bit:
                    raise InvalidDealError("kaphai.dealt_twice", field=where, card=str(c))
                m |= bit
            seen |= m
            masks.append(m)
        if sum(1 for m in masks if m) < 2:
            raise InvalidDealError("kaphai.two_hands", field="hands")
        return masks

    def _read_deck(self, deck: Sequence[object]) -> list[int]:
        cards = _read_cards(deck, "deck")
        order = [INDEX[c] for c in cards]
        if sorted(order) != list(range(52)):
            raise InvalidDealError("kaphai.deck_52", field="deck")
        return order


def _read_cards(items: object, where: str) -> list[Card]:
    cards = read_cards(items, where)
    for c in cards:
        if c not in INDEX:
            raise InvalidDealError("kaphai.not_in_pack", field=where, token=str(c))
    return cards
