"""The toy game object: frozen options, and the dealing of new states and matches."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from folkdeck.cards import Card, parse_card, parse_cards
from folkdeck.cards.shuffling import shuffle
from folkdeck.engine.errors import InvalidDealError, InvalidNotationError
from folkdeck.engine.game_base import GameBase, deal_source
from folkdeck.engine.match_base import MatchBase
from tests.toy_game.deal import ToyDeal
from tests.toy_game.match import ToyCarry
from tests.toy_game.options import ToyOptions
from tests.toy_game.rules import PACK
from tests.toy_game.state import ToyState


class ToyGame(GameBase[ToyOptions]):
    """The toy game with a set of options."""

    state_type: ClassVar[type[ToyState]] = ToyState
    """The class of its deals (the tests' broken variants put theirs here)."""

    def new_state(self, *, seed: int | None = None, rng: random.Random | None = None,
                  deck: Sequence[Any] | None = None, hands: Sequence[Any] | None = None,
                  stock: Sequence[Any] | None = None,
                  setup: Mapping[str, Any] | None = None) -> ToyState:
        """A new deal from ``seed``/``rng`` (shuffled), ``deck`` (top card first, dealt one
        at a time) or ``hands``; ``setup``: ``leader`` (default 0).

        :raises InvalidDealError: naming the field (``hands[1]``, ``deck``, ``setup.leader``).
        """
        source = deal_source(seed=seed, rng=rng, deck=deck, hands=hands, stock=stock, no_stock="toy.no_stock")
        leader = self._leader(setup or {})
        n, size = self.num_players, self._options.hand_size
        if source == "hands":
            assert hands is not None
            if len(hands) != n:
                raise InvalidDealError("toy.hands_count", field="hands", count=len(hands), players=n)
            dealt = [_cards(h, f"hands[{s}]") for s, h in enumerate(hands)]
            for s, hand in enumerate(dealt):
                if len(hand) != size:
                    raise InvalidDealError("toy.hand_cards", field=f"hands[{s}]", count=len(hand), size=size)
            _cards([c for h in dealt for c in h], "hands")  # no card twice
            undealt = [c for c in PACK.cards if not any(c in h for h in dealt)]
        else:
            order = _cards(deck, "deck") if deck is not None else list(PACK.cards)
            if deck is None:
                shuffle(order, rng if rng is not None else random.Random(seed))
            elif len(order) != len(PACK.cards):
                raise InvalidDealError("toy.whole_pack", field="deck", count=len(order))
            dealt = [order[s:n * size:n] for s in range(n)]
            undealt = order[n * size:]
        deal = ToyDeal(start=tuple(map(tuple, dealt)), undealt=tuple(undealt), leader=leader,
                       hands=[list(h) for h in dealt], trick=[], won=[], tricks=[0] * n, turn=leader,
                       phase="play", history=[])
        return self.state_type(self, deal)

    def new_match(self, *, deals: int | None = None, rng: random.Random | None = None,
                  first_dealer: int | None = None) -> MatchBase[ToyState]:
        """A match of ``deals`` deals (default 3); the rules fix the first leader."""
        self.first_dealer(first_dealer)
        return MatchBase(self, ToyCarry(), deals=deals or 3, rng=rng or random.Random())

    def _leader(self, setup: Mapping[str, Any]) -> int:
        for key in setup:
            if key != "leader":
                raise InvalidDealError("toy.setup_key", field=f"setup.{key}", key=key)
        leader = setup.get("leader", 0)
        if type(leader) is not int or not 0 <= leader < self.num_players:
            raise InvalidDealError("toy.setup_leader", field="setup.leader", last=self.num_players - 1)
        return leader


def _cards(items: Any, where: str) -> list[Card]:
    """Cards of the toy pack, each at most once.

    :raises InvalidDealError: naming ``where`` (``not_in_pack``, ``too_many_copies``...).
    """
    try:
        cards = list(parse_cards(items) if isinstance(items, str) else
                     (c if isinstance(c, Card) else parse_card(str(c)) for c in items))
        PACK.check(tuple(cards), where)
    except InvalidNotationError as exc:
        raise InvalidDealError(exc.reason, **{**exc.params, "field": where}) from exc
    return cards
