"""The structured boundary's core: facts, views, the JSON input boundary, record defaults."""

from __future__ import annotations

import dataclasses
import json

import pytest

from folkdeck.cards import parse_card, parse_cards
from folkdeck.engine.facts import (
    ChipsPaid,
    Drew,
    Fact,
    Played,
    TrickWon,
    WentOut,
    fact_from_dict,
    fact_types,
)
from folkdeck.engine.jsonin import JSONInputError, decode
from folkdeck.engine.options import options_from_mapping, record_defaults
from folkdeck.engine.protocol import Event, Standings
from folkdeck.engine.view import HistoryCache, TablePlay, View, json_schema


def test_every_shared_fact_round_trips_through_json() -> None:
    samples: list[Fact] = [Played(seat=1, cards=parse_cards("4C 4D"), combo="pair"),
                           Drew(seat=2, card=parse_card("7H"), pile=1), TrickWon(seat=0, leader=1),
                           WentOut(seat=3, place=2), ChipsPaid(seat=1, amount=2, pot=9)]
    for fact in samples:
        data = json.loads(json.dumps(fact.to_dict()))
        assert fact_from_dict(data) == fact
        assert data["type"] == fact.type and fact_types()[fact.type] is type(fact)


def test_a_fact_type_code_is_taken_once() -> None:
    with pytest.raises(ValueError, match="taken"):
        @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
        class Again(Fact, type="trick_won"):
            seat: int


def test_unknown_fact_types_and_fields_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown fact type"):
        fact_from_dict({"type": "no_such"})
    with pytest.raises(ValueError, match="no field"):
        fact_from_dict({"type": "trick_won", "seat": 1, "leader": 1, "extra": 3})


def test_private_fields_are_censored_for_everyone_but_the_owner() -> None:
    drew = Drew(seat=2, card=parse_card("7H"))
    assert drew.censored(2) is drew
    assert drew.censored(0) == Drew(seat=2, card=None)
    assert drew.censored(None) == Drew(seat=2, card=None)
    assert TrickWon(seat=1, leader=1).censored(0) == TrickWon(seat=1, leader=1)


def test_history_cache_censors_per_viewer_and_builds_public_events_once() -> None:
    events = [Event(0, "4C", (TrickWon(seat=0, leader=0),)),
              Event(1, "draw", (Drew(seat=1, card=parse_card("9S")),))]
    cache = HistoryCache(lambda seat, action: Played(seat=seat, cards=()))
    mine = cache.view(events, 1)
    theirs = cache.view(events, 0)
    assert mine[1].facts == (Drew(seat=1, card=parse_card("9S")),)
    assert theirs[1].facts == (Drew(seat=1, card=None),)
    assert cache.view(events, 0)[0] is theirs[0]  # public events are shared
    assert [e.index for e in cache.copy().view(events, None, last=1)] == [1]


def test_view_json_validates_against_its_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    view = View(game="demo", seat=0, num_players=2, phase="play", hand=parse_cards("3S 4H"),
                counts=(2, None), to_act=(0,), current_seat=0, legal_actions=("3S",),
                table=(TablePlay(seat=1, cards=parse_cards("2C")),), top=TablePlay(seat=1, cards=parse_cards("2C")),
                status=(WentOut(seat=1, place=1),), result={"placings": [1, 2]})
    jsonschema.validate(json.loads(json.dumps(view.to_dict())), json_schema(View))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**view.to_dict(), "hand": "3S 4H"}, json_schema(View))


def test_standings_rank_by_the_games_direction() -> None:
    points = Standings(deals_played=2, deals_limit=5, over=False, unit="points", scores=(1, 5, 3))
    penalties = Standings(deals_played=2, deals_limit=None, over=False, unit="penalties",
                          scores=(1, 5, 3), higher_wins=False, eliminated=(0,))
    assert points.ranking == (1, 2, 0)
    assert penalties.ranking == (2, 1, 0)
    assert json.loads(json.dumps(points.to_dict()))["ranking"] == [1, 2, 0]


@pytest.mark.parametrize(("text", "reason"), [
    ("[" * 5000 + "]" * 5000, "json_too_deep"),
    ('{"seed": ' + "9" * 5000 + "}", "json_int_too_long"),
    ('{"x": NaN}', "json_not_a_number"), ('{"x": -Infinity}', "json_not_a_number"),
    ('{"x": 1e999}', "json_not_a_number"),
    ('{"x": "\\ud800"}', "json_surrogate"), ('{"\\udfff": 1}', "json_surrogate"),
    ("{", "json_syntax"), (b"\xff\xfe", "json_not_utf8"),
])
def test_json_input_boundary_refuses_with_a_code(text: str | bytes, reason: str) -> None:
    with pytest.raises(JSONInputError) as caught:
        decode(text)
    assert caught.value.reason == reason
    assert "Traceback" not in str(caught.value) and len(str(caught.value)) < 200


def test_json_input_boundary_accepts_a_bom_and_strings_with_brackets() -> None:
    assert decode('\ufeff{"a": "[[[[[[", "b": [1, 2.5]}', max_depth=2) == {"a": "[[[[[[", "b": [1, 2.5]}


@dataclasses.dataclass(frozen=True, kw_only=True)
class _Opts:
    players: int = 4
    ask_all_seats: bool = dataclasses.field(default=True, metadata={"record_default": False})


def test_record_defaults_keep_old_records_on_the_old_rule() -> None:
    assert record_defaults(_Opts) == {"ask_all_seats": False}
    assert options_from_mapping(_Opts, {}).ask_all_seats is True
    assert options_from_mapping(_Opts, {**record_defaults(_Opts)}).ask_all_seats is False
