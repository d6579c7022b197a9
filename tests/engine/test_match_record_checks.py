"""What ``folkdeck-match/1`` replays check (docs/records.md, "Whole matches"): a record that
is well-formed but says otherwise than the rules is a :class:`RecordMismatchError` (exit 1),
a record that is not well-formed a :class:`MalformedRecordError` (exit 2), and neither
ever a traceback or a silent fix. The matches are made here by the library, as
``MatchRecorder`` writes them, and then changed in one place."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from folkdeck import load
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.errors import MalformedRecordError
from folkdeck.engine.facts import Fact, NextDeal, ScoreChanged, fact_from_dict
from folkdeck.engine.match_record import MatchRecorder, RecordMismatchError, check_facts, dumps, loads


def recorded(name: str, deals: int = 3, seed: int = 3) -> dict[str, Any]:
    """A whole match of random play, as its decoded JSON record."""
    game = load(name)
    recorder = MatchRecorder(game, deals=deals)
    match = game.new_match(deals=deals, rng=random.Random(seed))
    while not match.is_over():
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        random_playout(state, random.Random(seed))
        recorder.finish_deal(state, match.finish_deal(state))
    data: dict[str, Any] = json.loads(dumps(recorder.record(match.standings())))
    return data


def replay_changed(data: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> None:
    changed = json.loads(json.dumps(data))
    change(changed)
    loads(json.dumps(changed)).replay()


# --- one rule for the exit status: a mismatch is not a malformed record -------------------

@pytest.mark.parametrize(("name", "key"), [("kaphai", "leader"), ("cangkul", "dealer"), ("cambio", "dealer"),
                                         ("gouji", "special")])
def test_a_setup_the_match_does_not_give_is_a_mismatch(name: str, key: str) -> None:
    data = recorded(name)
    players = len(data["standings"]["scores"])

    def changed(d: dict[str, Any]) -> None:
        setup = d["deals"][1]["setup"]
        setup[key] = not setup.get(key) if key == "special" else (setup[key] + 1) % players

    with pytest.raises(RecordMismatchError) as caught:
        replay_changed(data, changed)
    assert caught.value.field == f"deals[1].setup.{key}" and caught.value.reason == "setup_mismatch"


def test_a_deal_after_the_end_or_after_an_unfinished_deal_is_a_mismatch() -> None:
    data = recorded("kaphai", deals=2)
    with pytest.raises(RecordMismatchError) as caught:
        replay_changed(data, lambda d: d["deals"].append(d["deals"][1]))
    assert caught.value.field == "deals[2]" and caught.value.reason == "match_already_over"
    with pytest.raises(RecordMismatchError) as caught:
        replay_changed(data, lambda d: d["deals"][0].update(actions=d["deals"][0]["actions"][:1]))
    assert caught.value.field == "deals[0].actions" and caught.value.reason == "deal_unfinished"


# --- a wrong type is a type error (issue 25: "dealer": "0" was a "mismatch" of 0 and 0) ----

@pytest.mark.parametrize(("name", "key", "value", "found"), [
    ("cangkul", "dealer", "{seat}", "string"),    # the match's values as they are
    ("kaphai", "leader", "{seat}", "string"),
    ("cambio", "dealer", "{seat}", "string"),     # the match's values quoted as JSON text
    ("cangkul", "dealer", True, "boolean"),
    ("cambio", "pot", [1], "list"),
    ("kaphai", "leader", 1.5, "number"),
    ("gouji", "special", "false", "string"),
])
def test_a_setup_value_of_the_wrong_type_is_named_as_such(name: str, key: str, value: Any, found: str) -> None:
    data = recorded(name)
    seat = data["deals"][1]["setup"][key]
    stated = str(seat) if value == "{seat}" else value

    def retyped(d: dict[str, Any]) -> None:
        d["deals"][1]["setup"][key] = stated

    with pytest.raises(MalformedRecordError) as caught:
        replay_changed(data, retyped)
    error = caught.value
    assert (error.field, error.reason) == (f"deals[1].setup.{key}", "record.wrong_type")
    assert (error.params["expected"], error.params["found"]) == ("boolean" if key == "special" else "integer", found)
    if value == "{seat}":
        assert str(error) == f'deals[1].setup.{key}: must be an integer, got the string "{seat}"'
        assert "整数でなければなりません（文字列" in error.render("ja")


# --- Cambio: a deal is dealt from the stock the match carries, never from a seed -----------

@pytest.mark.parametrize(("source", "value"), [("seed", 7), ("deck", ["OWL", "FOOL"])])
def test_a_cambio_match_deal_with_a_seed_or_deck_is_refused(source: str, value: Any) -> None:
    data = recorded("cambio")

    def dealt_from(d: dict[str, Any]) -> None:
        deal = d["deals"][1]
        del deal["hands"], deal["stock"]
        deal[source] = value

    with pytest.raises(MalformedRecordError) as caught:
        replay_changed(data, dealt_from)
    assert (caught.value.field, caught.value.reason) == (f"deals[1].{source}", "record.deal_source_not_taken")
    assert f"a {source} cannot give this deal" in str(caught.value)


def test_a_kaphai_match_deal_may_still_be_given_by_its_hands() -> None:
    data = recorded("kaphai")
    loads(json.dumps(data)).replay()


# --- facts read from a record are checked, field by field -----------------------------------

@pytest.mark.parametrize(("fact", "field", "reason"), [
    ({"type": "cambio.seating_draw", "seat": 0, "card": 7}, "card", "record.wrong_type"),
    ({"type": "cambio.seating_draw", "seat": 0, "card": "ZZ"}, "card", "bad_suit"),
    ({"type": "cambio.seating_draw", "seat": "0", "card": "7"}, "seat", "record.wrong_type"),
    ({"type": "cambio.seating_draw", "card": "7"}, "seat", "record.fact_field_missing"),
    ({"type": "cambio.seating_draw", "seat": 0, "card": "7", "x": 1}, "x", "record.fact_field_unknown"),
    ({"type": "no_such", "seat": 0}, "type", "record.unknown_fact_type"),
    ({"type": "played", "seat": 0, "cards": ["4C", 4]}, "cards[1]", "record.wrong_type"),
    ({"type": "played", "seat": 0, "cards": "4C"}, "cards", "record.wrong_type"),
    ({"type": "score_changed", "seat": 0, "delta": "1", "total": 1}, "delta", "record.wrong_type"),
    ({"type": "next_deal", "dealer": None, "leader": [0]}, "leader", "record.wrong_type"),
])
def test_a_bad_fact_in_a_record_is_a_coded_error_naming_its_field(fact: dict[str, Any], field: str,
                                                                 reason: str) -> None:
    load("cambio")  # registers the game's facts
    data = recorded("cambio")
    with pytest.raises(MalformedRecordError) as caught:
        loads(json.dumps({**data, "deals": [{**data["deals"][0], "before": [fact]}]}))
    assert (caught.value.field, caught.value.reason) == (f"deals[0].before[0].{field}", reason)


def test_whole_floats_read_as_integers_and_fact_json_round_trips() -> None:
    assert fact_from_dict({"type": "next_deal", "dealer": 2.0, "leader": None}) == NextDeal(dealer=2)
    fact = ScoreChanged(seat=1, delta=-1.5, total=3.0)
    assert fact_from_dict(json.loads(json.dumps(fact.to_dict()))) == fact


# --- a mismatch names the first differing fact, and the check stops there ------------------

class CountingFacts(Sequence[Fact]):
    """A record's list of facts that counts how many of its facts the check looked at."""

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts = facts
        self.read: set[int] = set()

    def __len__(self) -> int:
        return len(self.facts)

    def __getitem__(self, index: Any) -> Any:
        self.read.add(index)
        return self.facts[index]

    def __iter__(self) -> Iterator[Fact]:
        raise AssertionError("the check walks the record's whole list")


def test_the_check_stops_at_the_first_differing_fact() -> None:
    derived = [ScoreChanged(seat=s, delta=1, total=1) for s in range(4)]
    stated = CountingFacts([*derived[:2], ScoreChanged(seat=2, delta=5, total=5),
                            *(NextDeal(leader=0) for _ in range(100_000))])
    with pytest.raises(RecordMismatchError) as caught:
        check_facts("deals[0].after", derived, stated)
    assert caught.value.field == "deals[0].after[2]" and stated.read == {0, 1, 2}
    assert '"delta": 1' in caught.value.params["expected"] and '"delta": 5' in caught.value.params["found"]
    longer = CountingFacts([*derived, *(NextDeal(leader=0) for _ in range(100_000))])
    with pytest.raises(RecordMismatchError) as caught:
        check_facts("deals[0].after", derived, longer)
    assert caught.value.field == "deals[0].after[4]" and longer.read == {0, 1, 2, 3, 4}
    assert str(caught.value).endswith('{"type": "next_deal", "dealer": null, "leader": 0} and 99999 more')
    with pytest.raises(RecordMismatchError) as caught:
        check_facts("deals[0].after", derived, derived[:3])
    assert caught.value.field == "deals[0].after[3]" and "the record's list ends here" in str(caught.value)


def test_a_huge_stated_list_gives_a_short_message() -> None:
    data = recorded("kaphai", deals=2)
    after = data["deals"][0]["after"]
    flood = [*after[:1], {**after[1], "delta": 99}, *after[2:]] + [{"type": "next_deal", "leader": 0}] * 50_000
    with pytest.raises(RecordMismatchError) as caught:
        replay_changed(data, lambda d: d["deals"][0].update(after=flood))
    assert caught.value.field == "deals[0].after[1]"
    assert len(str(caught.value)) < 600
    with pytest.raises(RecordMismatchError) as caught:
        replay_changed(data, lambda d: d["standings"].update(scores=list(range(100_000))))
    assert caught.value.field == "standings.scores" and len(str(caught.value)) < 600


def test_no_such_deal_names_the_deals_there_are() -> None:
    data = recorded("kaphai", deals=2)
    with pytest.raises(MalformedRecordError) as caught:
        loads(json.dumps(data)).deal(5)
    assert str(caught.value) == "--deal: deal 5 does not exist: the record has deals 0–1"
    one = {**data, "deals": data["deals"][:1]}
    with pytest.raises(MalformedRecordError) as caught:
        loads(json.dumps(one)).deal(1)
    assert str(caught.value) == "--deal: deal 1 does not exist: the record has deal 0 only"
    assert "ディール5はありません" in pytest.raises(MalformedRecordError, loads(json.dumps(data)).deal, 5
                                              ).value.render("ja")
