"""The Gou Ji game object: frozen options plus the deal (drawing, kai pai, 3s start)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from folkdeck.cards import Card
from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.game_base import GameBase, deal_source
from folkdeck.games.gouji.dealing import (
    PACK,
    SEATS,
    Setup,
    draw,
    first_drawer,
    opposite,
    pack_order,
    read_pack_cards,
    read_setup,
    reinsert_turned,
    three_claims,
)
from folkdeck.games.gouji.match import GouJiMatch
from folkdeck.games.gouji.options import GouJiOptions
from folkdeck.games.gouji.state import GouJiState


class GouJiGame(GameBase[GouJiOptions]):
    """Gou Ji with a set of options; makes deals and matches.

    >>> from folkdeck import load
    >>> state = load("gouji").new_state(seed=7)
    >>> state.num_players, [len(h) for h in state.deal_info()["hands"]]
    (6, [36, 36, 36, 36, 36, 36])
    """

    @property
    def num_players(self) -> int:
        return SEATS

    def new_state(self, *, seed: object = None, rng: random.Random | None = None,
                  deck: Sequence[object] | None = None, hands: Sequence[object] | None = None,
                  stock: Sequence[object] | None = None,
                  setup: Mapping[str, object] | None = None) -> GouJiState:
        """A new deal; see :meth:`folkdeck.engine.protocol.Game.new_state`.

        ``seed``/``rng``/``deck`` (top first): on a special deal the kai pai turns the
        top card(s) to find the first drawer (jokers pass kai pai on), the turned cards
        go back into the middle, and the seats draw in turn. ``hands`` are given in
        draw order (they may be short, for study positions). ``setup`` keys are in
        :func:`~folkdeck.games.gouji.dealing.read_setup` and ``docs/records.md``.

        :raises InvalidDealError: naming the field (``hands[2]``, ``deck``, ``setup.places``).
        """
        s = read_setup(setup or {})
        deal_source(seed=seed, rng=rng, deck=deck, hands=hands, stock=stock, no_stock="gouji.no_stock")
        naming = _names_drawer(s, hands_given=hands is not None)
        kai = s.kai_pai
        if hands is not None:
            dealt = self._read_hands(hands)
            drawer = s.first_drawer
            if drawer is None:
                drawer = s.kai_pai if s.special or s.da_la is None else s.da_la
        else:
            kai, drawer, dealt = _draw_pack(s, pack_order(deck, seed, rng))
        if not s.special:
            assert s.da_la is not None
            kai = opposite(s.da_la)  # nominal kai pai of a normal deal (docs/rules/gouji.md §2.3)
        setup_out = replace(s, kai_pai=kai, first_drawer=drawer, name_drawer=naming)
        leader, claims = _first_leader(s, drawer, dealt)
        return GouJiState(self, dealt, setup_out, leader=leader, claims=claims, naming=naming,
                          asks_start=s.special and s.leader is None)

    first_seat = "kai_pai"

    def new_match(self, *, deals: int | None = None, rng: random.Random | None = None,
                  first_dealer: int | None = None, first_kai_pai: int | None = None) -> GouJiMatch:
        """A match of ``deals`` deals (default: option ``deals``) or to ``target_score``. Kai
        pai starts it: ``first_kai_pai`` is the first deal's kai pai, anyone (docs/rules/gouji.md
        §2.2; default: seat 0); no ``first_dealer`` (:meth:`~GameBase.first_dealer`).

        :raises InvalidConfigError: ``first_kai_pai_seat`` for a seat not at the table,
            ``first_dealer_not_free`` for any first dealer.
        """
        self.first_dealer(first_dealer)
        kai = self.chosen_first_seat("first_kai_pai", first_kai_pai)
        return GouJiMatch(self, deals=deals or self._options.deals, rng=rng or random.Random(), first_kai_pai=kai)

    def _read_hands(self, hands: Sequence[object]) -> list[list[Card]]:
        if len(hands) != SEATS:
            raise InvalidDealError("gouji.six_hands", field="hands", count=len(hands))
        out = [read_pack_cards(h, f"hands[{s}]") for s, h in enumerate(hands)]
        total: Counter[Card] = Counter()
        for s, h in enumerate(out):
            if len(h) > 36:
                raise InvalidDealError("gouji.hand_too_long", field=f"hands[{s}]", count=len(h))
            total.update(h)
            for card, n in total.items():
                if n > PACK[card]:
                    raise InvalidDealError("gouji.dealt_too_often", field=f"hands[{s}]", card=str(card),
                                           count=n, copies=PACK[card])
        if sum(1 for h in out if h) < 2:
            raise InvalidDealError("gouji.two_hands_hold_cards", field="hands")
        return out


def _names_drawer(s: Setup, *, hands_given: bool) -> bool:
    """Whether Da La names the first drawer (a normal deal with nothing else fixing the
    draw, unless the setup says); a named drawer is Da La's to name."""
    naming = s.name_drawer
    if naming is None:
        naming = not s.special and s.leader is None and s.first_drawer is None and not hands_given
    if naming:
        assert s.da_la is not None
        if s.first_drawer not in (None, s.da_la):
            raise InvalidDealError("gouji.name_drawer_from_da_la", field="setup.first_drawer")
    return naming


def _draw_pack(s: Setup, order: list[Card]) -> tuple[int, int, list[list[Card]]]:
    """``(kai pai, first drawer, hands)``: on a special deal with no drawer given, kai pai
    turns cards to find the drawer; on a normal deal Da La draws first."""
    kai = s.kai_pai
    if s.first_drawer is not None:
        drawer = s.first_drawer
    elif s.special:
        kai, drawer, turned = first_drawer(kai, order)
        order = reinsert_turned(order, turned)
    else:
        assert s.da_la is not None
        drawer = s.da_la
    return kai, drawer, draw(order, drawer)


def _first_leader(s: Setup, drawer: int, dealt: Sequence[Sequence[Card]]) -> tuple[int, list[int]]:
    """``(leader, 3s claims)``: the setup's leader, else the first drawer after the 3s
    claims of a special deal, else Da La."""
    if s.leader is not None:
        return s.leader, []
    if s.special:
        return drawer, three_claims(dealt, drawer)
    assert s.da_la is not None
    return s.da_la, []
