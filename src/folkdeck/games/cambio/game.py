"""The Cambio game object: frozen options plus the dealing of new deals."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final, NoReturn

from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.game_base import GameBase, deal_source, read_cards
from folkdeck.engine.protocol import GameSpec
from folkdeck.games.cambio.match import CambioMatch
from folkdeck.games.cambio.options import CambioOptions
from folkdeck.games.cambio.rules import (
    COPIES,
    KIND,
    NAMES,
    PACK_TABLES,
    PackTable,
    permuted,
    seed_bits,
)
from folkdeck.games.cambio.state import CambioState

SETUP_KEYS: Final = ("dealer", "deal", "game", "chips", "pot", "eliminated", "reshuffle_seed", "shuffle")
"""The keys of a deal's ``setup``. ``shuffle`` (the pack as a session first shuffled it, top
first) comes only with a session's first deal, so that a match record can replay the
persistent stock; a single deal ignores it."""


class CambioGame(GameBase[CambioOptions]):
    """Cambio with a set of options; makes deals and matches.

    >>> from folkdeck import load
    >>> state = load("cambio").new_state(seed=7)
    >>> state.num_players, state.phase, state.to_act[0]
    (4, 'exchange', 1)
    """

    def __init__(self, spec: GameSpec, options: CambioOptions) -> None:
        super().__init__(spec, options)
        self._pack = PACK_TABLES[options.pack]
        n = options.players
        self._default: dict[str, Any] = {
            "dealer": 0, "deal": 1, "game": 1, "chips": (options.start_chips - options.entry_fee,) * n,
            "pot": options.entry_fee * n, "reshuffle_seed": 0}

    @property
    def pack(self) -> PackTable:
        """The pack of the ``pack`` option as kinds, with its card order (docs/rules/cambio.md §1)."""
        return self._pack

    def new_state(self, *, seed: Any = None, rng: random.Random | None = None,
                  deck: Sequence[object] | None = None, hands: Sequence[Sequence[object]] | None = None,
                  stock: Sequence[object] | None = None,
                  setup: Mapping[str, Any] | None = None) -> CambioState:
        """A new deal; see :meth:`folkdeck.engine.protocol.Game.new_state`.

        * ``seed``/``rng``: the whole pack (40 cards, or 44 with ``pack=nifty44``) is shuffled; one card each from the
          top, starting at the dealer's right, the dealer last; the rest is the stock.
        * ``deck``: the stock before the deal, top first (any part of the pack; the
          cards missing from it are the face-up discards), dealt the same way.
        * ``hands``: one card per seat (``[]`` for an eliminated seat) and the
          ``stock`` top first; the other cards are the discards. Without ``stock``
          the cards outside the hands make the stock, shuffled by ``reshuffle_seed``.

        ``setup`` (every key optional): ``dealer`` (seat, default 0), ``deal`` (its
        number in the game, default 1), ``game`` (default 1), ``chips`` (per seat,
        default ``start_chips - entry_fee``), ``pot`` (default the entry fees),
        ``eliminated`` (seats out of this game), ``reshuffle_seed`` (the order of a
        new stock if the stock runs out during the deal, default 0).

        :raises InvalidDealError: naming the field (``hands[2]``, ``stock``, ``setup.dealer``).
        """
        if type(seed) is int and hands is None and deck is None and stock is None and rng is None and not setup:
            return self._seeded(seed)  # the fast path of simulations: a source deal_source accepts
        deal_source(seed=seed, rng=rng, deck=deck, hands=hands, stock=stock)
        n = self.num_players
        out = _read_seats((setup or {}).get("eliminated", []), n)
        if hands is not None:
            return self._from_hands(hands, stock, setup, out)
        info = self._read_setup(setup, out) if setup else self._default_setup()
        dealer = info["dealer"]
        players = [s % n for s in range(dealer + 1, dealer + n + 1) if s % n not in out]
        if deck is None:
            return self._shuffled(players, info, seed, rng)
        return self._from_deck(deck, players, info)

    def _shuffled(self, players: Sequence[int], info: dict[str, Any], seed: Any,
                  rng: random.Random | None) -> CambioState:
        """A deal from a shuffled pack, one card to each of ``players`` in turn."""
        kinds = [-1] * self.num_players
        # The shuffle is drawn lazily (rules.unfold): the same order, fewer steps.
        bits = rng.getrandbits(256) if rng is not None else seed_bits(seed if seed is not None else 0)
        pile = list(self._pack.full)
        for s in players:
            bits, j = divmod(bits, len(pile))
            pile[j], pile[-1] = pile[-1], pile[j]
            kinds[s] = pile.pop()
        return CambioState(self, kinds, pile, [], info, bits)

    def _from_deck(self, deck: Sequence[object], players: Sequence[int], info: dict[str, Any]) -> CambioState:
        """A deal from the given stock (top first); the pack's other cards are the discards."""
        kinds = [-1] * self.num_players
        order = _read_cards(deck, "deck", self._pack)
        counts = Counter(order)
        for k, c in counts.items():
            if c > COPIES:
                _too_many(k, c, "deck", self._pack)
        order.reverse()  # top last: dealing pops
        if len(order) < len(players):
            raise InvalidDealError("cambio.deck_short", field="deck", cards=len(order),
                                   players=len(players))
        for s in players:
            kinds[s] = order.pop()
        return CambioState(self, kinds, order, _remainder(counts, self._pack), info)

    def _from_hands(self, hands: Sequence[Sequence[object]], stock: Sequence[object] | None,
                    setup: Mapping[str, Any] | None, out: list[int]) -> CambioState:
        """A deal from given hands (and stock); see :meth:`new_state`."""
        kinds = self._read_hands(hands)
        empty = {s for s, k in enumerate(kinds) if k < 0}
        if setup is not None and "eliminated" in setup and set(out) != empty:
            raise InvalidDealError("cambio.eliminated_not_empty", field="setup.eliminated")
        info = self._read_setup(setup or {}, sorted(empty))
        if stock is not None:
            pile = list(reversed(_read_cards(stock, "stock", self._pack)))
        else:
            pile = []
        counts = _counted(pile, kinds, self._pack)
        rest = _remainder(counts, self._pack)
        if stock is None:
            pile = permuted(rest, seed_bits(info["reshuffle_seed"]))
            rest = []
        if sum(k >= 0 for k in kinds) + len(pile) + len(rest) != len(self._pack.full):
            raise AssertionError("card count")  # pragma: no cover
        return CambioState(self, kinds, pile, rest, info)

    def _seeded(self, seed: int) -> CambioState:
        bits = seed_bits(seed)
        pile = list(self._pack.full)
        size = len(pile)
        n = self._options.players
        kinds = [-1] * n
        for s in range(1, n + 1):
            bits, j = divmod(bits, size + 1 - s)
            pile[j], pile[-1] = pile[-1], pile[j]
            kinds[s % n] = pile.pop()
        return CambioState(self, kinds, pile, [], self._default, bits)

    def _default_setup(self) -> dict[str, Any]:
        return self._default  # never mutated: states copy what they hand out

    def new_match(self, *, deals: int | None = None, rng: random.Random | None = None,
                  first_dealer: int | None = None) -> CambioMatch:
        """A session of games until someone is bankrupt (or ``deals`` deals); see
        :class:`~folkdeck.games.cambio.match.CambioMatch`. The seating draw picks each
        game's first dealer: no ``first_dealer`` (:meth:`~GameBase.first_dealer`)."""
        self.first_dealer(first_dealer)
        return CambioMatch(self, deals=deals, rng=rng or random.Random())

    def session_deal(self, hands: list[int], stock: list[int], discards: list[int],
                     info: dict[str, Any]) -> CambioState:
        """A deal a session made from its persistent stock (kinds; the stock top last),
        ``info`` read by :meth:`read_setup`."""
        return CambioState(self, hands, stock, discards, info)

    # --- reading the inputs --------------------------------------------------------
    def read_setup(self, setup: Mapping[str, Any], out: list[int]) -> dict[str, Any]:
        """A deal's ``setup`` checked, with ``out`` the seats out of the game.

        :raises InvalidDealError: naming ``setup.<key>``.
        """
        return self._read_setup(setup, out)

    def _read_setup(self, setup: Mapping[str, Any], out: list[int]) -> dict[str, Any]:
        n = self.num_players
        rules = self._options
        for key in setup:
            if key not in SETUP_KEYS:
                raise InvalidDealError("cambio.unknown_setup_key", field=f"setup.{key}", key=key,
                                       keys=", ".join(SETUP_KEYS))
        dealer = _whole(setup.get("dealer", 0), "dealer")
        if not 0 <= dealer < n:
            raise InvalidDealError("cambio.dealer_range", field="setup.dealer", last=n - 1)
        if dealer in out:
            raise InvalidDealError("cambio.dealer_eliminated", field="setup.dealer", seat=dealer)
        if n - len(out) < 2:
            raise InvalidDealError("cambio.two_players", field="setup.eliminated")
        deal = _whole(setup.get("deal", 1), "deal")
        game = _whole(setup.get("game", 1), "game")
        if deal < 1 or game < 1:
            raise InvalidDealError("cambio.numbers_from_one",
                                   field="setup.deal" if deal < 1 else "setup.game")
        chips_raw = setup.get("chips", [rules.start_chips - rules.entry_fee] * n)
        if not isinstance(chips_raw, (list, tuple)) or len(chips_raw) != n:
            raise InvalidDealError("cambio.chips_list", field="setup.chips", players=n)
        chips = [_whole(c, "chips") for c in chips_raw]
        if any(c < 0 for c in chips):
            raise InvalidDealError("cambio.chips_negative", field="setup.chips")
        pot = _whole(setup.get("pot", rules.entry_fee * n), "pot")
        if pot < 0:
            raise InvalidDealError("cambio.pot_negative", field="setup.pot")
        seed = _whole(setup.get("reshuffle_seed", 0), "reshuffle_seed")
        info = {"dealer": dealer, "deal": deal, "game": game, "chips": chips, "pot": pot,
                "reshuffle_seed": seed}
        if "shuffle" in setup:
            order = _read_cards(setup["shuffle"], "setup.shuffle", self._pack)
            if sorted(order) != sorted(self._pack.full):
                raise InvalidDealError("cambio.shuffle_not_pack", field="setup.shuffle",
                                       pack=self._pack.pack.name)
            info["shuffle"] = [NAMES[k] for k in order]
        return info

    def _read_hands(self, hands: Sequence[Sequence[object]]) -> list[int]:
        n = self.num_players
        if len(hands) != n:
            raise InvalidDealError("cambio.hands_count", field="hands", given=len(hands), players=n)
        kinds: list[int] = []
        for s, hand in enumerate(hands):
            cards = _read_cards(hand, f"hands[{s}]", self._pack)
            if len(cards) > 1:
                raise InvalidDealError("cambio.one_card", field=f"hands[{s}]", count=len(cards))
            kinds.append(cards[0] if cards else -1)
        return kinds


def _whole(value: object, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidDealError("cambio.setup_not_whole", field=f"setup.{key}", key=key,
                               value=json.dumps(value, default=str))
    return value


def _read_seats(value: object, n: int) -> list[int]:
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in value):
        raise InvalidDealError("cambio.eliminated_seats", field="setup.eliminated", last=n - 1)
    return sorted(set(value))


def _counted(stock: Sequence[int], kinds: Sequence[int], pack: PackTable) -> Counter[int]:
    """The copies of each kind in the stock and the hands, refusing a kind given more often
    than the pack holds it. The stock is counted first, then the hands in seat order: the
    refusal names the place where the count goes over, so a copy too many in a hand names
    that hand (``hands[2]``), not the stock that holds the pack's other copies."""
    counts = Counter(stock)
    for k, c in counts.items():
        if c > COPIES:
            _too_many(k, c, "stock", pack)
    for s, k in enumerate(kinds):
        if k >= 0:
            counts[k] += 1
            if counts[k] > COPIES:  # the count given in all: this hand's, the later hands' too
                _too_many(k, counts[k] + list(kinds[s + 1:]).count(k), f"hands[{s}]", pack)
    return counts


def _too_many(kind: int, count: int, where: str, pack: PackTable) -> NoReturn:
    raise InvalidDealError("too_many_copies", field=where, where=where, token=NAMES[kind],
                           count=count, pack=pack.pack.name, copies=COPIES)


def _remainder(counts: Counter[int], pack: PackTable) -> list[int]:
    return [k for k in pack.kinds for _ in range(COPIES - counts.get(k, 0))]


def _read_cards(items: object, where: str, pack: PackTable) -> list[int]:
    """Kinds from notation text or a list of card tokens/cards."""
    out = []
    for c in read_cards(items, where):
        k = KIND.get(c)
        if k is None or k not in pack:
            raise InvalidDealError("not_in_pack", field=where, where=where, token=str(c),
                                   pack=pack.pack.name)
        out.append(k)
    return out
