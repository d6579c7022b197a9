"""The game object shared by Cangkul, Spanish Burro and Portuguese Burro."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from folkdeck.cards import Card, parse_card, parse_cards
from folkdeck.engine.errors import InvalidDealError, InvalidNotationError
from folkdeck.engine.game_base import GameBase
from folkdeck.engine.protocol import GameSpec
from folkdeck.games.cangkul.options import AnyOptions, Ruleset, ruleset
from folkdeck.games.cangkul.rules import Deck, deck_for, indices, shuffle
from folkdeck.games.cangkul.state import CangkulState

SETUP_KEYS = ("dealer", "leader", "knock_seed")


class CangkulGame(GameBase[AnyOptions]):
    """One of the three games with its options; makes deals and matches.

    >>> from folkdeck import load
    >>> state = load("burro_pt").new_state(seed=3)
    >>> state.num_players, state.stock_sizes(), [len(state.hand(s)) for s in range(4)]
    (4, (10, 10), [5, 5, 5, 5])
    """

    def __init__(self, spec: GameSpec, options: AnyOptions) -> None:
        super().__init__(spec, options)
        self.rules: Ruleset = ruleset(options)
        self.deck: Deck = deck_for(self.rules.pack, self.rules.ace_high)

    def new_state(self, *, seed: int | None = None, rng: random.Random | None = None,
                  deck: Sequence[Any] | None = None, hands: Sequence[Any] | None = None,
                  stock: Sequence[Any] | None = None,
                  setup: Mapping[str, Any] | None = None) -> CangkulState:
        """A new deal; see :meth:`folkdeck.engine.protocol.Game.new_state`.

        Dealing (seed, rng or deck, top first): one card at a time, the first to the
        leader (the dealer's next seat), ``hand_size`` rounds; the rest is the stock, top
        first. A two-pile stock puts the first half (rounded up) in the left pile.

        ``setup``: ``dealer`` (the next seat leads) or ``leader`` (default: leader 0), and
        ``knock_seed`` (the seed of the stock-knocking chance; made from ``seed``/``rng``
        when ``stock_knock_prob`` > 0, else 0).

        :raises InvalidDealError: naming the field (``hands[2]``, ``stock``, ``setup.dealer``).
        """
        setup = dict(setup or {})
        leader = self._read_setup(setup)
        if stock is not None and hands is None:
            raise InvalidDealError("stock goes with hands", field="stock")
        sources = sum(x is not None for x in (deck, hands)) + (seed is not None or rng is not None)
        if sources > 1:
            raise InvalidDealError("give one deal source: seed/rng, deck or hands", field="hands")
        knock_seed = setup.get("knock_seed")
        if hands is not None:
            masks, pile = self._read_hands(hands, stock or [], leader)
        else:
            if deck is not None:
                order = self._read_deck(deck)
            else:
                order = list(self.deck.ordered)
                rng = rng if rng is not None else random.Random(seed)
                shuffle(order, rng)  # rng.shuffle(order), faster
                if self.rules.knock_prob > 0 and knock_seed is None:
                    knock_seed = rng.getrandbits(32)
            n, size = self.num_players, self.rules.hand_size
            masks = [0] * n
            for j in range(n):  # one card at a time round the table: seat leader + j gets every n-th
                m = 0
                for c in order[j:n * size:n]:
                    m |= 1 << c
                masks[(leader + j) % n] = m
            pile = order[n * size:]
        if self.rules.knock_prob > 0:
            setup["knock_seed"] = int(knock_seed or 0)
        if "dealer" not in setup:
            setup["leader"] = leader
        return CangkulState(self, masks, pile, leader=leader, setup=setup,
                            knock_seed=setup.get("knock_seed"), unused=None if hands is not None else 0)

    def new_match(self, *, deals: int | None = None, rng: random.Random | None = None) -> Any:
        """A match; see :class:`~folkdeck.games.cangkul.match.CangkulMatch`."""
        from folkdeck.games.cangkul.match import CangkulMatch

        return CangkulMatch(self, deals=deals, rng=rng or random.Random())

    def _read_setup(self, setup: Mapping[str, Any]) -> int:
        n = self.num_players
        for key in setup:
            if key not in SETUP_KEYS:
                raise InvalidDealError(f"unknown setup key {key!r} ({self.rules.title} takes "
                                       f"{', '.join(SETUP_KEYS)})", field=f"setup.{key}")
        if "dealer" in setup and "leader" in setup:
            raise InvalidDealError("give dealer or leader, not both", field="setup.leader")
        for key in ("dealer", "leader"):
            value = setup.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or not 0 <= value < n):
                raise InvalidDealError(f"{key} must be a seat from 0 to {n - 1}", field=f"setup.{key}")
        seed = setup.get("knock_seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise InvalidDealError("knock_seed must be a whole number", field="setup.knock_seed")
        if "dealer" in setup:
            return (int(setup["dealer"]) + 1) % n
        return int(setup.get("leader", 0))

    def _cards(self, items: Any, where: str) -> list[int]:
        try:
            cards = list(parse_cards(items)) if isinstance(items, str) else [
                c if isinstance(c, Card) else parse_card(str(c)) for c in items]
        except InvalidNotationError as exc:
            raise InvalidDealError(exc.message, field=where) from exc
        out = []
        for c in cards:
            i = self.deck.index.get(c)
            if i is None:
                raise InvalidDealError(f"{c} is not a card of the {self.deck.pack.name} pack", field=where)
            out.append(i)
        return out

    def _read_hands(self, hands: Sequence[Any], stock: Sequence[Any],
                    leader: int) -> tuple[list[int], list[int]]:
        n = self.num_players
        if len(hands) != n:
            raise InvalidDealError(f"{len(hands)} hands given for {n} players", field="hands")
        seen = 0
        masks: list[int] = []
        for s, hand in enumerate(hands):
            m = 0
            for i in self._cards(hand, f"hands[{s}]"):
                if (m | seen) >> i & 1:
                    raise InvalidDealError(f"card {self.deck.cards[i]} is dealt twice", field=f"hands[{s}]")
                m |= 1 << i
            seen |= m
            masks.append(m)
        pile = self._cards(stock, "stock")
        for i in pile:
            if seen >> i & 1:
                raise InvalidDealError(f"card {self.deck.cards[i]} is both dealt and in the stock",
                                       field="stock")
            seen |= 1 << i
        if not masks[leader]:
            raise InvalidDealError(f"the leader, seat {leader}, holds no cards", field="setup.leader")
        empty = [s for s in range(n) if not masks[s]]
        if empty and not self.rules.drop_out:
            raise InvalidDealError(f"seat {empty[0]} holds no cards: the deal would be over",
                                   field=f"hands[{empty[0]}]")
        if n - len(empty) < 2:
            raise InvalidDealError("at least two hands must hold cards", field="hands")
        return masks, pile

    def _read_deck(self, deck: Sequence[Any]) -> list[int]:
        order = self._cards(deck, "deck")
        if sorted(order) != indices(self.deck.full):
            raise InvalidDealError(f"the deck must hold each of the {self.deck.size} cards of the "
                                   f"{self.deck.pack.name} pack exactly once", field="deck")
        return order
