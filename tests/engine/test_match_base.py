"""The match base (engine/match_base.py): the setup check of a record's deal, the deal
count, the scores and the end, whatever the game; and the one deal-source check
(engine/game_base.deal_source) every new_state and deal record goes through (docs/records.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from folkdeck import load
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.errors import InvalidDealError, MalformedRecordError, WrongPhaseError
from folkdeck.engine.facts import Fact, MatchEnded
from folkdeck.engine.game_base import deal_source
from folkdeck.engine.match_base import CarryOver, DealSetup, MatchBase, check_setup
from folkdeck.engine.record import Record

GAMES = ("kaphai", "gouji", "cambio", "cangkul", "burro_es", "burro_pt")


class _LeaderCarry(CarryOver):
    """A carry that fixes Kap Hai's leader to seat 1 and ends at 5 points."""

    def next_setup(self) -> DealSetup:
        given = {"three_game": False, "leader": 1}
        return DealSetup(given=given, checked=given, if_omitted={"leader": None})

    def own_end(self, totals: Sequence[float]) -> str | None:
        return "target_score" if max(totals) >= 5 else None


def _play(match: MatchBase[Any], seed: int) -> tuple[Fact, ...]:
    state = match.next_deal()
    random_playout(state, random.Random(seed))
    return match.finish_deal(state)


def test_setup_check_is_json_strict() -> None:
    # docs/records.md: a setup the match does not give is refused, naming setup.<key>
    check_setup({"dealer": 1}, {"dealer": 1})
    for found in (True, 1.5, "1", [1]):
        with pytest.raises(InvalidDealError) as info:
            check_setup({"dealer": found}, {"dealer": 1})
        assert info.value.reason == "setup_mismatch" and info.value.params["field"] == "setup.dealer"
    with pytest.raises(InvalidDealError) as info:
        check_setup({}, {"leader": 2}, {"leader": None})
    assert info.value.params["found"] == "null" and info.value.params["expected"] == "2"
    check_setup({}, {"leader": 2})  # left out, not required: the match's value is used


def test_base_checks_a_record_setup_and_takes_the_match_leader() -> None:
    game = load("kaphai")
    match = MatchBase(game, _LeaderCarry(), deals=3, rng=random.Random(1))
    with pytest.raises(InvalidDealError) as info:
        match.next_deal(deal={"setup": {"leader": 2}, "seed": 4})
    assert info.value.params["field"] == "setup.leader"
    with pytest.raises(InvalidDealError) as info:
        match.next_deal(deal={"setup": {"three_game": False}, "seed": 4})
    assert info.value.params["field"] == "setup.leader"  # required: left out counts as null
    with pytest.raises(InvalidDealError) as info:
        match.next_deal(deal={"setup": ["leader"], "seed": 4})
    assert info.value.reason == "not_object"
    state = match.next_deal(deal={"setup": {"leader": 1}, "seed": 4})
    assert state.deal_info()["setup"]["leader"] == 1


def test_base_counts_scores_and_ends_by_its_own_rule_or_the_limit() -> None:
    game = load("kaphai")
    match = MatchBase(game, _LeaderCarry(), deals=50, rng=random.Random(3))
    state = match.next_deal()
    with pytest.raises(WrongPhaseError):
        match.finish_deal(state)
    played = 0
    while not match.is_over():
        facts = _play(match, played)
        played += 1
    end = facts[-1]
    assert isinstance(end, MatchEnded) and end.reason == "target_score"
    standings = match.standings()
    assert standings.deals_played == played < 50 and max(standings.scores) >= 5
    assert end.winners == tuple(s for s, p in enumerate(standings.scores) if p == max(standings.scores))
    limited = MatchBase(game, CarryOver(), deals=1, rng=random.Random(3))
    last = _play(limited, 0)[-1]
    assert isinstance(last, MatchEnded) and last.reason == "deals" and limited.is_over()


def test_record_deal_without_cards_deals_from_the_match_rng() -> None:
    a = MatchBase(load("kaphai"), CarryOver(), deals=2, rng=random.Random(8))
    b = MatchBase(load("kaphai"), CarryOver(), deals=2, rng=random.Random(8))
    assert a.next_deal(deal={"setup": {}}).deal_info() == b.next_deal().deal_info()


@pytest.mark.parametrize("name", GAMES)
def test_every_new_state_checks_its_deal_source(name: str) -> None:
    # docs/records.md: exactly one of seed, deck or hands
    game = load(name)
    hands = game.new_state(seed=1).deal_info()["hands"]
    with pytest.raises(InvalidDealError) as info:
        game.new_state(seed=1, hands=hands)
    assert info.value.reason == "one_deal_source" and info.value.params["field"] == "seed/hands"
    with pytest.raises(InvalidDealError) as info:
        game.new_state(seed="1")  # type: ignore[arg-type]
    assert info.value.reason == "not_whole_number"
    with pytest.raises(InvalidDealError) as info:
        game.new_state(seed=1, stock=["2C"])
    assert info.value.params["field"] == "stock"


def test_deal_source_needs_one_source_in_a_record() -> None:
    assert deal_source() == "shuffle"
    with pytest.raises(InvalidDealError):
        deal_source(required=True)
    with pytest.raises(MalformedRecordError) as info:
        Record.from_dict({"game": "kaphai", "seed": 1, "deck": ["AS"]})
    assert info.value.reason == "one_deal_source" and info.value.params["field"] == "seed/deck"
