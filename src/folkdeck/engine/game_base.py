"""What every game object shares: its spec, its frozen options, and the check of how a
new deal is made (:func:`deal_source`).

>>> from folkdeck import load
>>> game = load("kaphai", players=3)
>>> game.spec.name, game.num_players, game.options.players
('kaphai', 3, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Generic, Literal, TypeVar

from folkdeck.cards import Card, parse_card, parse_cards
from folkdeck.engine.errors import InvalidConfigError, InvalidDealError, InvalidNotationError
from folkdeck.engine.pickling import made_game
from folkdeck.engine.protocol import GameSpec

OptionsT = TypeVar("OptionsT")


class GameBase(Generic[OptionsT]):
    """Holds a game's :class:`GameSpec` and options; subclasses deal the states."""

    first_seat: ClassVar[str | None] = None
    """The match's free first seat, where the rules let the players choose who starts: the
    name of the role (a term key) whose first holder they choose, ``"dealer"`` (Cangkul:
    「最初のディーラーは任意に決めます」) or ``"kai_pai"`` (Gou Ji: the first deal's 開牌 is
    「誰でもいいので1人」). The option ``first_<role>`` chooses it (``new_match(first_dealer=k)``,
    ``new_match(first_kai_pai=k)``), a match record's first deal may state any seat for it,
    and later deals follow from it. ``None``: the rules fix how a match starts."""

    def __init__(self, spec: GameSpec, options: OptionsT) -> None:
        self._spec = spec
        self._options = options

    @property
    def spec(self) -> GameSpec:
        return self._spec

    @property
    def options(self) -> OptionsT:
        return self._options

    @property
    def num_players(self) -> int:
        """The options' ``players`` (a game with a fixed table overrides this)."""
        players: object = getattr(self._options, "players", None)
        if not isinstance(players, int):  # pragma: no cover - such a game overrides num_players
            raise NotImplementedError(f"{type(self).__name__} must define num_players")
        return int(players)

    @property
    def first_seat_option(self) -> str | None:
        """The option that chooses the match's free first seat (``first_dealer``,
        ``first_kai_pai``), or ``None`` where the rules fix how a match starts."""
        return None if self.first_seat is None else f"first_{self.first_seat}"

    @property
    def first_dealer_free(self) -> bool:
        """Whether the players choose a match's first dealer (``/api/games`` says so)."""
        return self.first_seat == "dealer"

    def chosen_first_seat(self, option: str, seat: int | None) -> int | None:
        """``seat`` checked as the match's first seat that ``option`` chooses
        (``first_dealer``, ``first_kai_pai``; ``None``: the game's own start).

        >>> from folkdeck import load
        >>> load("gouji").chosen_first_seat("first_kai_pai", 4), load("kaphai").chosen_first_seat("first_dealer", None)
        (4, None)

        :raises InvalidConfigError: ``<option>_not_free`` (``first_dealer_not_free``) where
            ``option`` is not this game's free first seat, ``<option>_seat`` for a seat not
            at the table.
        """
        if seat is None:
            return None
        if option != self.first_seat_option:
            raise InvalidConfigError(f"{option}_not_free", option=option, field=option, game=self._spec.name)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise InvalidConfigError(f"{option}_seat", option=option, field=option, value=str(seat),
                                     last=self.num_players - 1)
        return seat

    def first_dealer(self, seat: int | None) -> int | None:
        """``seat`` checked as a match's first dealer (``None``: the game's own start).

        >>> from folkdeck import load
        >>> load("cangkul").first_dealer(2), load("kaphai").first_dealer(None)
        (2, None)

        :raises InvalidConfigError: ``first_dealer_not_free`` in a game whose rules fix the
            start (or whose free first seat is not a dealer), ``first_dealer_seat`` for a seat
            not at the table (option ``first_dealer``).
        """
        return self.chosen_first_seat("first_dealer", seat)

    def __reduce__(self) -> tuple[object, tuple[GameSpec, OptionsT]]:
        # As its spec and options, made again by the spec's `make` (folkdeck.engine.pickling).
        return (made_game, (self._spec, self._options))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._options}>"


DealSource = Literal["hands", "deck", "shuffle"]
"""How a deal is made: from given ``hands`` (and ``stock``), from a given ``deck``
(top first), or by shuffling (``seed`` or ``rng``; neither: a fresh random order)."""


def deal_source(*, seed: object = None, rng: random.Random | None = None, deck: object = None,
                hands: object = None, stock: object = None, no_stock: str = "",
                required: bool = False) -> DealSource:
    """The one check every ``new_state`` (and a deal record) starts with: at most one of
    ``seed``/``rng``, ``deck``, ``hands`` (exactly one when ``required``, as a record
    needs), a whole-number ``seed``, and a ``stock`` only with ``hands``. ``no_stock``: the
    reason key refusing any ``stock``, for a game without one.

    >>> deal_source(seed=3), deal_source(hands=[["AS"], ["KS"]], stock=["2C"])
    ('shuffle', 'hands')
    >>> try:
    ...     deal_source(seed=3, deck=["AS"])
    ... except InvalidDealError as exc:
    ...     exc.reason, exc.params["field"]
    ('one_deal_source', 'seed/deck')

    :raises InvalidDealError: ``one_deal_source`` (``field`` names the sources given),
        ``not_whole_number`` (``seed``), ``no_stock``'s key or ``stock_without_hands`` (``stock``).
    """
    if deck is None and hands is None and stock is None and (seed is None or type(seed) is int):
        if required and seed is None and rng is None:
            raise InvalidDealError("one_deal_source", field="hands", given=[])
        return "shuffle"  # the path of every simulated deal: kept short
    _check_one_source(seed if rng is None else rng, deck, hands, required=required)
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InvalidDealError("not_whole_number", field="seed")
    if stock is not None:
        _check_stock(hands, no_stock)
    return "hands" if hands is not None else "deck" if deck is not None else "shuffle"


def _check_one_source(shuffle: object, deck: object, hands: object, *, required: bool) -> None:
    """At most one deal source given (exactly one when ``required``)."""
    given = [name for name, value in (("seed", shuffle), ("deck", deck), ("hands", hands)) if value is not None]
    if len(given) > 1 or (required and not given):
        raise InvalidDealError("one_deal_source", field="/".join(given) or "hands", given=given)


def _check_stock(hands: object, no_stock: str) -> None:
    """A ``stock`` is given: refused by a game without one, or without ``hands``."""
    if no_stock:
        raise InvalidDealError(no_stock, field="stock")
    if hands is None:
        raise InvalidDealError("stock_without_hands", field="stock")


def read_cards(items: object, where: str) -> list[Card]:
    """The cards of a deal's ``deck``, ``hands[s]`` or ``stock`` as a caller gave them
    (notation text, or a list of tokens or of cards), in their order; whether they belong
    to the game's pack is the game's to check.

    >>> [str(c) for c in read_cards("as, 10h", "deck")], [str(c) for c in read_cards(["KD"], "hands[1]")]
    (['AS', '10H'], ['KD'])

    :raises InvalidDealError: ``not_card_list`` or the notation's reasons (``not_a_card``...),
        naming ``where`` as the field.
    """
    if isinstance(items, Card) or not isinstance(items, str | Sequence):
        raise InvalidDealError("not_card_list", field=where)
    try:
        if isinstance(items, str):
            return list(parse_cards(items))
        return [c if isinstance(c, Card) else parse_card(str(c)) for c in items]
    except InvalidNotationError as exc:
        raise InvalidDealError(exc.reason, **{**exc.params, "field": where}) from exc
