"""The game object shared by Cangkul, Spanish Burro and Portuguese Burro."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from folkdeck.cards import Card, parse_card, parse_cards
from folkdeck.cards.shuffling import shuffle
from folkdeck.engine.errors import InvalidDealError, InvalidNotationError
from folkdeck.engine.game_base import GameBase, deal_source
from folkdeck.engine.protocol import GameSpec
from folkdeck.games.cangkul.match import CangkulMatch
from folkdeck.games.cangkul.options import AnyOptions
from folkdeck.games.cangkul.rules import Deck, Ruleset, deck_for, indices, ruleset
from folkdeck.games.cangkul.state import CangkulState

SETUP_KEYS: Final = ("dealer", "leader", "knock_seed")


class CangkulGame(GameBase[AnyOptions]):
    """One of the three games with its options; makes deals and matches.

    The first dealer is chosen freely (「最初のディーラーは任意に決めます」, docs/rules/cangkul.md §1.2).

    >>> from folkdeck import load
    >>> state = load("burro_pt").new_state(seed=3)
    >>> state.num_players, state.stock_sizes(), [len(state.hand(s)) for s in range(4)]
    (4, (10, 10), [5, 5, 5, 5])
    """

    def __init__(self, spec: GameSpec, options: AnyOptions) -> None:
        super().__init__(spec, options)
        self.rules: Ruleset = ruleset(options)
        self.deck: Deck = deck_for(self.rules.pack, self.rules.ace_high)

    first_seat = "dealer"

    def new_state(self, *, seed: object = None, rng: random.Random | None = None,
                  deck: Sequence[object] | None = None, hands: Sequence[object] | None = None,
                  stock: Sequence[object] | None = None,
                  setup: Mapping[str, object] | None = None) -> CangkulState:
        """A new deal; see :meth:`folkdeck.engine.protocol.Game.new_state`.

        Dealing (seed, rng or deck, top first): one card at a time, the first to the
        leader (the dealer's next seat), ``hand_size`` rounds; the rest is the stock, top
        first. A two-pile stock puts the first half (rounded up) in the left pile.

        ``setup``: ``dealer`` (the next seat leads) or ``leader`` (default: leader 0), and
        ``knock_seed`` (the seed of the stock-knocking chance; made from ``seed``/``rng``
        when ``stock_knock_prob`` > 0, else 0).

        :raises InvalidDealError: naming the field (``hands[2]``, ``stock``, ``setup.dealer``).
        """
        if setup is not None and not isinstance(setup, Mapping):
            raise InvalidDealError("not_object", field="setup")
        setup = dict(setup or {})
        leader, knock_seed = self._read_setup(setup)
        deal_source(seed=seed, rng=rng, deck=deck, hands=hands, stock=stock)
        if hands is not None:
            masks, pile = self._read_hands(hands, [] if stock is None else stock, leader)
        else:
            if deck is not None:
                order = self._read_deck(deck)
            else:
                order = list(self.deck.ordered)
                rng = rng if rng is not None else random.Random(seed if isinstance(seed, int) else None)
                shuffle(order, rng)
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
            knock_seed = setup["knock_seed"] = int(knock_seed or 0)
        if "dealer" not in setup:
            setup["leader"] = leader
        return CangkulState(self, masks, pile, leader=leader, setup=setup,
                            knock_seed=knock_seed, unused=None if hands is not None else 0)

    def new_match(self, *, deals: int | None = None, rng: random.Random | None = None,
                  first_dealer: int | None = None) -> CangkulMatch:
        """A match; see :class:`~folkdeck.games.cangkul.match.CangkulMatch`. ``first_dealer``:
        the seat dealing first, chosen freely (docs/rules/cangkul.md §1.2; default: the last
        seat, so that seat 0 leads).

        :raises InvalidConfigError: ``first_dealer_seat`` for a seat not at the table.
        """
        return CangkulMatch(self, deals=deals, rng=rng or random.Random(),
                            first_dealer=self.first_dealer(first_dealer))

    def _read_setup(self, setup: Mapping[str, object]) -> tuple[int, int | None]:
        """The leader and the knock seed (``None``: not given) from ``setup``; every key and
        value is checked (``setup.<key>``)."""
        n = self.num_players
        for key in setup:
            if key not in SETUP_KEYS:
                raise InvalidDealError("cangkul.unknown_setup_key", field=f"setup.{key}", key=str(key),
                                       keys=", ".join(SETUP_KEYS))
        if "dealer" in setup and "leader" in setup:
            raise InvalidDealError("cangkul.dealer_or_leader", field="setup.leader")
        for key in ("dealer", "leader"):
            if key in setup and not _is_seat(setup[key], n):
                raise InvalidDealError("cangkul.not_a_seat", field=f"setup.{key}", key=key, last=n - 1)
        seed = setup.get("knock_seed")
        if "knock_seed" in setup and (not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64):
            raise InvalidDealError("cangkul.knock_seed", field="setup.knock_seed")
        knock_seed = seed if isinstance(seed, int) else None
        dealer, leader = setup.get("dealer"), setup.get("leader", 0)
        assert isinstance(leader, int) and (dealer is None or isinstance(dealer, int))  # seats, checked above
        return ((dealer + 1) % n if dealer is not None else leader), knock_seed

    def _cards(self, items: object, where: str) -> list[int]:
        if isinstance(items, str):
            try:
                cards = list(parse_cards(items))
            except InvalidNotationError as exc:
                raise InvalidDealError(exc.reason, **{**exc.params, "field": where}) from exc
        elif isinstance(items, Sequence):
            cards = []
            for k, c in enumerate(items):
                if isinstance(c, Card):
                    cards.append(c)
                    continue
                if not isinstance(c, str):
                    raise InvalidDealError("not_card_list", field=f"{where}[{k}]")
                try:
                    cards.append(parse_card(c))
                except InvalidNotationError as exc:
                    raise InvalidDealError(exc.reason, **{**exc.params, "field": f"{where}[{k}]"}) from exc
        else:
            raise InvalidDealError("not_card_list", field=where)
        out = []
        for c in cards:
            i = self.deck.index.get(c)
            if i is None:
                raise InvalidDealError("cangkul.card_not_in_pack", field=where, card=str(c),
                                       pack=self.rules.pack, game=self.spec.name)
            out.append(i)
        return out

    def _read_hands(self, hands: Sequence[object], stock: Sequence[object],
                    leader: int) -> tuple[list[int], list[int]]:
        n = self.num_players
        if isinstance(hands, str) or not isinstance(hands, Sequence):
            raise InvalidDealError("not_list_of_hands", field="hands")
        if len(hands) != n:
            raise InvalidDealError("cangkul.hand_count", field="hands", given=len(hands), players=n)
        seen = 0
        masks: list[int] = []
        for s, hand in enumerate(hands):
            m = 0
            for i in self._cards(hand, f"hands[{s}]"):
                if (m | seen) >> i & 1:
                    raise InvalidDealError("cangkul.dealt_twice", field=f"hands[{s}]",
                                           card=self.deck.names[i])
                m |= 1 << i
            seen |= m
            masks.append(m)
        pile = self._cards(stock, "stock")
        for i in pile:
            if seen >> i & 1:
                raise InvalidDealError("cangkul.dealt_and_stock", field="stock", card=self.deck.names[i])
            seen |= 1 << i
        if not masks[leader]:
            raise InvalidDealError("cangkul.leader_empty", field="setup.leader", seat=leader)
        empty = [s for s in range(n) if not masks[s]]
        if empty and not self.rules.drop_out:
            raise InvalidDealError("cangkul.empty_hand", field=f"hands[{empty[0]}]", seat=empty[0])
        if n - len(empty) < 2:
            raise InvalidDealError("cangkul.two_hands", field="hands")
        return masks, pile

    def _read_deck(self, deck: Sequence[object]) -> list[int]:
        order = self._cards(deck, "deck")
        if sorted(order) != indices(self.deck.full):
            raise InvalidDealError("cangkul.bad_deck", field="deck", size=self.deck.size,
                                   pack=self.rules.pack, game=self.spec.name)
        return order


def _is_seat(value: object, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players
