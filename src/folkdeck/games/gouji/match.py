"""A Gou Ji match: deals in a row with tribute, kai pai and the start carried over.

After a deal, the next one takes its places (tribute, and 点贡 with
``modern_dian_gong``; the Da La names the first drawer — itself by default — and
leads), unless it was a sweep (top three one team: a special deal, the opposites
exchange) or a revolution (a special deal; tribute from the last completed places,
``tribute_after_revolution``). The first deal's kai pai is anyone (the Japanese Gou Ji page:
「誰でもいいので1人が」): ``new_match(first_kai_pai=k)``, or a match record's first deal states it;
left unchosen it is seat 0. Later special deals move kai pai to the next seat (docs/rules/gouji.md
§2.2); a normal deal's kai pai is nominally the Da La's opposite (§2.3). A record's special deal
must show the kai pai and first drawer its cards give (:meth:`GouJiCarry.record_dealt`).
The match ends after ``deals`` completed deals or when a team reaches
``target_score`` (docs/rules/gouji.md §8, §11.10). A revolution's deal is no completed
deal: its cards are dealt again and the match goes on.

>>> import random
>>> from folkdeck import load
>>> from folkdeck.engine.conformance import random_playout
>>> match = load("gouji").new_match(deals=1, rng=random.Random(4))
>>> state = match.next_deal()
>>> _ = random_playout(state, random.Random(1))
>>> [f.type for f in match.finish_deal(state)]
['gouji.team_score', 'gouji.team_score', 'gouji.next_deal', 'match_ended']
>>> match.standings().deals_played, match.is_over()
(1, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from folkdeck.cards import GOUJI_216, parse_card
from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.facts import Fact
from folkdeck.engine.match_base import CarryOver, DealingGame, DealSetup, MatchBase, as_json
from folkdeck.engine.protocol import Result, State
from folkdeck.games.gouji.dealing import HAND, SEATS, first_drawer, is_sweep, opposite, pack_order
from folkdeck.games.gouji.events import DianGongOwed, NextGouJiDeal, TeamScore
from folkdeck.games.gouji.state import GouJiState

_IF_OMITTED: Final[dict[str, object]] = {"places": None, "revolution_redeal": False, "dian_gong": [],
                                      "leader": None}
"""The match's setup keys a record must agree with even when it leaves them out, and the
values they then have (a record's ``special`` may be left out)."""
_JOKERS: Final = sum(1 for card in GOUJI_216.cards if card.is_joker)


class GouJiCarry(CarryOver):
    """What passes from one Gou Ji deal to the next: the places (tribute, the Da La's
    start), 点贡 owed, whether the next deal is special, and kai pai."""

    not_over_reason = "gouji.deal_not_over"

    def __init__(self, target_score: int, kai_pai: int | None = None) -> None:
        self.target_score = target_score
        self.places: list[int] | None = None
        self.kai = 0 if kai_pai is None else kai_pai
        """The next special deal's kai pai: the seat that turns first."""
        self.choosing = kai_pai is None
        """Whether the first deal's kai pai is still to be chosen: a record's first deal states it."""
        self.turns_from = self.kai
        """The seat a record's deal turned from (its first deal may have chosen it)."""
        self.special = True
        self.revolution = False
        self.dian_gong: list[int] = []
        self.placings: list[tuple[int | None, ...]] = []

    def setup(self) -> dict[str, object]:
        """The ``setup`` of the next deal (what the match carries)."""
        out: dict[str, object] = {"special": self.special, "kai_pai": self.kai}
        if self.places is not None:
            out["places"] = list(self.places)
        if self.revolution:
            out["revolution_redeal"] = True
        if self.dian_gong:
            out["dian_gong"] = list(self.dian_gong)
        return out

    def next_setup(self) -> DealSetup:
        """A record's ``special``, ``places``, ``revolution_redeal``, ``dian_gong`` must be
        the match's, and it may fix no ``leader``. A normal deal's ``kai_pai`` is the
        nominal one, the Da La's opposite (docs/rules/gouji.md §2.3); its ``first_drawer``
        and ``name_drawer`` are the Da La's choice, taken from the record. A special deal's
        ``kai_pai`` and ``first_drawer`` are what the cards turned give (:meth:`record_dealt`)."""
        given = self.setup()
        derived = {**_IF_OMITTED, **given}
        keys = ("special", *_IF_OMITTED) if self.special else ("special", "kai_pai", *_IF_OMITTED)
        return DealSetup(given=given, checked={key: derived[key] for key in keys},
                         if_omitted=_IF_OMITTED)

    def record_setup(self, plan: DealSetup, stated: Mapping[str, object],
                     sources: Mapping[str, object]) -> dict[str, object]:
        """A special deal from a record's ``seed`` or ``deck`` turns its own kai pai card
        from the match's kai pai: the record's ``kai_pai`` and ``first_drawer`` are checked
        against the result, not dealt with. A first deal whose kai pai is still to be chosen
        turns from the seat its ``kai_pai`` states, less the jokers on top of its pack that
        passed kai pai on (:func:`turns_from`); with ``hands``, from that seat."""
        kai: object = self.kai
        if self.choosing and "kai_pai" in stated:
            kai = stated["kai_pai"]  # not a seat: the deal refuses it, naming setup.kai_pai
            if type(kai) is int and 0 <= kai < SEATS:
                kai = self.turns_from = turns_from(kai, sources)
        else:
            self.turns_from = self.kai
        if self.special and "hands" not in sources:
            stated = {k: v for k, v in stated.items() if k not in ("kai_pai", "first_drawer")}
            return {**plan.given, **stated, "kai_pai": kai}
        return {**plan.given, **stated}

    def record_dealt(self, state: State, stated: Mapping[str, object]) -> None:
        """A special deal's ``kai_pai`` and ``first_drawer`` must be what the turned cards
        give from the match's kai pai (on a first deal still to choose it, the one the record
        states: :meth:`record_setup`): dealt from a seed or deck, the deal turned them.
        With ``hands`` the turned cards are not in the record: its ``kai_pai`` must be the
        match's, unless full hands (listed in draw order) show jokers turned in the middle
        of the pack they were drawn from (docs/rules/gouji.md §2.2, §11.13); its
        ``first_drawer`` is taken as stated."""
        if not self.special:
            return
        assert isinstance(state, GouJiState), "a Gou Ji match plays Gou Ji deals"
        info = state.deal_info()
        resolved = info["setup"]
        for key in ("kai_pai", "first_drawer"):
            if key in stated and as_json(stated[key]) != as_json(resolved[key]):
                raise InvalidDealError("setup_mismatch", field=f"setup.{key}", key=key,
                                       expected=as_json(resolved[key]), found=as_json(stated[key]))
        kai, drawer = state.deal.setup.kai_pai, state.deal.setup.first_drawer
        assert drawer is not None, "a special deal, once dealt, names its first drawer"
        hands = info["hands"]
        start = self.turns_from
        if kai == start:
            return  # no joker passed kai pai on; with hands, the first drawer is as stated
        # a kai pai moved on by jokers: the full hands' pack must show them turned
        if not all(len(h) == HAND for h in hands) or (kai, drawer) not in turned_from(start, hands, drawer):
            raise InvalidDealError("setup_mismatch", field="setup.kai_pai", key="kai_pai",
                                   expected=as_json(start), found=as_json(kai))

    def counts(self, result: Result) -> bool:
        """A revolution's deal is no completed deal: its cards are dealt again."""
        return result.reason != "revolution"

    def score_facts(self, result: Result, totals: Sequence[float]) -> list[Fact]:
        """The two teams' scores (the seats of a team share one)."""
        return [TeamScore(seats=tuple(range(k, SEATS, 2)), delta=result.returns[k], total=totals[k])
                for k in (0, 1)]

    def after_deal(self, state: State, result: Result, *, last: bool) -> list[Fact]:
        """Who owes 点贡 and how the next deal starts; a revolution only moves kai pai on."""
        assert isinstance(state, GouJiState), "a Gou Ji match plays Gou Ji deals"
        kai = state.deal.setup.kai_pai
        self.choosing = False
        if result.reason == "revolution":
            self.revolution = True
            self.special = True
            self.kai = (kai + 1) % SEATS
            return [NextGouJiDeal(kind="revolution", seat=self.kai)]
        self.revolution = False
        self.placings.append(result.placings)
        places = [p or 0 for p in result.placings]
        facts: list[Fact] = []
        self.places = places
        self.dian_gong = list(result.details.get("dian_gong", []))
        if self.dian_gong:
            facts.append(DianGongOwed(seats=tuple(self.dian_gong)))
        sweep = is_sweep(places)
        self.special = sweep
        # a special deal's kai pai is the seat after the last one; a normal deal's is nominal,
        # the new Da La's opposite (docs/rules/gouji.md §2.2, §2.3)
        self.kai = (kai + 1) % SEATS if sweep else opposite(places.index(6))
        facts.append(NextGouJiDeal(kind="sweep", seat=self.kai) if sweep else
                     NextGouJiDeal(kind="normal", seat=places.index(6)))
        return facts

    def own_end(self, totals: Sequence[float]) -> str | None:
        """A team reaching ``target_score`` (if set) ends the match."""
        return "target_score" if 0 < self.target_score <= max(totals) else None


def turns_from(kai: int, sources: Mapping[str, object]) -> int:
    """The seat a record's first deal began turning from, given the ``kai_pai`` it states
    (the seat that turned the card counted out) and how it was dealt: with a ``seed`` or a
    ``deck``, that seat less the jokers on top of the pack, each of which passed kai pai on
    (docs/rules/gouji.md §2.2); with ``hands`` (no turned cards) the stated seat. A bad
    source is left for the deal to refuse.

    >>> from folkdeck.cards import GOUJI_216
    >>> rest = sorted((str(c) for c in GOUJI_216.cards), key=lambda c: c in ("BJ", "RJ"))[:-2]
    >>> turns_from(2, {"deck": ["BJ", "RJ", *rest]}), turns_from(2, {"hands": []})
    (0, 2)
    """
    seed, deck = sources.get("seed"), sources.get("deck")
    if "hands" in sources or (deck is None and type(seed) is not int):
        return kai
    try:
        order = pack_order(deck, seed, None)
    except InvalidDealError:
        return kai  # the deal refuses the deck, naming it
    jokers = next((i for i, card in enumerate(order) if not card.is_joker), 0)
    return (kai - jokers) % SEATS


def turned_from(kai: int, hands: Sequence[Sequence[str]], drawer: int) -> list[tuple[int, int]]:
    """The (kai pai, first drawer) pairs that kai pai seat ``kai`` can have turned, given
    the full ``hands`` listed in draw order from ``drawer``: the pack they were drawn from
    holds the ``t`` turned cards (``t - 1`` jokers passed on, then the card counted out) in
    its middle (docs/rules/gouji.md §2.2, §11.13), for ``t`` from 1 to every joker turned."""
    pack = [parse_card(hands[(drawer + i) % SEATS][i // SEATS]) for i in range(SEATS * HAND)]
    found: list[tuple[int, int]] = []
    for t in range(1, _JOKERS + 2):
        middle = (len(pack) - t) // 2
        try:
            seat, named, count = first_drawer(kai, pack[middle:middle + t])
        except InvalidDealError:  # only jokers there: not t cards turned
            continue
        if count == t:
            found.append((seat, named))
    return found


class GouJiMatch(MatchBase[GouJiState]):
    """Several Gou Ji deals; ``points`` are team totals replicated per seat."""

    def __init__(self, game: DealingGame[GouJiState], *, deals: int, rng: random.Random,
                 first_kai_pai: int | None = None) -> None:
        self._gouji = GouJiCarry(game.options.target_score, first_kai_pai)
        super().__init__(game, self._gouji, deals=deals, rng=rng)

    @property
    def points(self) -> list[float]:
        return self.totals

    @property
    def placings(self) -> list[tuple[int | None, ...]]:
        """Every completed deal's places."""
        return self._gouji.placings

    def setup(self) -> dict[str, object]:
        """The ``setup`` of the next deal (what the match carries)."""
        return self._gouji.setup()


__all__ = ["GouJiCarry", "GouJiMatch"]
