"""Engine pieces: options, errors, seating, registry, records' shape checks."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

import pytest

import folkdeck
from folkdeck.engine.errors import (
    InvalidConfigError,
    InvalidDealError,
    MalformedRecordError,
    NotYourTurnError,
)
from folkdeck.engine.game_base import deal_source
from folkdeck.engine.options import (
    describe_options,
    options_from_mapping,
    options_to_dict,
    parse_assignments,
)
from folkdeck.engine.record import Record, loads


@dataclass(frozen=True, kw_only=True)
class Opts:
    flag: bool = False
    count: int = 3
    mode: Literal["a", "b"] = "a"
    points: tuple[int, ...] = (1, 2)
    prob: float = 0.0


def test_options_from_text_and_json() -> None:
    opts = options_from_mapping(Opts, parse_assignments(["flag=yes", "count=5", "mode=b",
                                                         "points=3,2,1", "prob=0.5"]))
    assert opts == Opts(flag=True, count=5, mode="b", points=(3, 2, 1), prob=0.5)
    assert options_to_dict(opts)["points"] == [3, 2, 1]
    assert options_from_mapping(Opts, {"flag": True, "points": [4]}).points == (4,)
    assert ("mode", "a", "a | b") in describe_options(Opts)


@pytest.mark.parametrize(("values", "message"), [
    ({"nope": 1}, "unknown option 'nope'"), ({"flag": "maybe"}, "true or false"),
    ({"count": "x"}, "whole number"), ({"count": True}, "whole number"),
    ({"mode": "c"}, "one of a, b"), ({"prob": "p"}, "a number"), ({"points": 3}, "a list"),
])
def test_bad_options_name_the_option(values: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidConfigError, match=message):
        options_from_mapping(Opts, values)
    with pytest.raises(InvalidConfigError, match="not key=value"):
        parse_assignments(["flag"])


@dataclass(frozen=True, kw_only=True)
class MoreOpts:
    limit: int | None = None
    label: str = ""
    scale: float = 1.0


def test_optional_and_text_options_coerce_and_refuse_by_their_type() -> None:
    assert options_from_mapping(MoreOpts, {"limit": "7", "label": "x"}) == MoreOpts(limit=7, label="x")
    assert options_from_mapping(MoreOpts, {"limit": None}).limit is None
    assert options_from_mapping(MoreOpts, {"scale": 2}).scale == 2.0
    cases: list[tuple[dict[str, object], str]] = [({"label": 3}, "option_text"), ({"limit": 10**10}, "option_int_range"),
                           ({"limit": "1" * 41}, "option_int"), ({"scale": 1e301}, "option_number"),
                           ({"scale": "nan"}, "option_number"), ({"scale": None}, "option_number")]
    for values, reason in cases:
        with pytest.raises(InvalidConfigError) as info:
            options_from_mapping(MoreOpts, values)
        assert info.value.reason == reason and info.value.params["option"] == next(iter(values)), values


def test_an_options_class_of_an_unsupported_type_is_a_bug_not_a_coded_refusal() -> None:
    @dataclass(frozen=True, kw_only=True)
    class Odd:
        seats: list[int] | None = None
        blob: bytes = b""

    with pytest.raises(TypeError, match="unsupported option type"):
        options_from_mapping(Odd, {"blob": "x"})
    with pytest.raises(TypeError, match="unsupported option type"):
        options_from_mapping(Odd, {"seats": [1]})


def test_a_stock_needs_hands_and_a_game_with_a_stock() -> None:
    assert deal_source(hands=[["AS"], ["KS"]], stock=["2C"]) == "hands"
    assert deal_source(deck=["AS", "KS"]) == "deck"
    with pytest.raises(InvalidDealError) as info:
        deal_source(deck=["AS"], stock=["2C"])
    assert (info.value.reason, info.value.params["field"]) == ("stock_without_hands", "stock")
    with pytest.raises(InvalidDealError) as info:
        deal_source(hands=[["AS"]], stock=["2C"], no_stock="cambio.no_stock")
    assert info.value.reason == "cambio.no_stock"
    with pytest.raises(InvalidDealError) as info:
        deal_source(seed=True)
    assert info.value.reason == "not_whole_number"


def test_errors_are_structured() -> None:
    err = NotYourTurnError("no_such_seat", seat=7, players=4)
    assert err.to_dict() == {"error": "not_your_turn", "reason": "no_such_seat",
                             "params": {"seat": 7, "players": 4},
                             "message": "there is no seat 7 in a 4-player game", "seat": 7, "players": 4}
    assert err.render("ja") == "4人のゲームに席7はありません"
    assert isinstance(err, ValueError)
    bad = MalformedRecordError("not_list", field="hands")
    assert bad.field == "hands" and str(bad) == "hands: must be a list"


def test_registry() -> None:
    assert "kaphai" in folkdeck.games()
    assert folkdeck.get_spec("Kap-Hai").name == "kaphai"
    with pytest.raises(folkdeck.UnknownGameError, match="unknown game 'poker'"):
        folkdeck.load("poker")


@pytest.mark.parametrize(("data", "field"), [
    ([], "(record)"), ({"game": 3, "seed": 1}, "game"), ({"game": "kaphai"}, "hands"),
    ({"game": "kaphai", "seed": "x"}, "seed"), ({"game": "kaphai", "seed": 1, "setup": []}, "setup"),
    ({"game": "kaphai", "hands": "3S"}, "hands"), ({"game": "kaphai", "hands": [[3]]}, "hands[0]"),
    ({"game": "kaphai", "seed": 1, "stock": ["3S"]}, "stock"),
    ({"game": "kaphai", "seed": 1, "actions": "0: pass"}, "actions"),
    ({"game": "kaphai", "deck": "3S"}, "deck"),
])
def test_record_shape_errors(data: object, field: str) -> None:
    with pytest.raises(MalformedRecordError) as info:
        Record.from_dict(data)
    assert info.value.field == field


def test_record_keeps_extra_fields() -> None:
    rec = loads(json.dumps({"game": "kaphai", "seed": 3, "players": ["Sok", "Dara"]}))
    assert rec.to_dict()["players"] == ["Sok", "Dara"]
    assert rec.replay().num_players == 4


def test_a_records_rules_are_worked_out_once_per_rule_set_not_per_game_object() -> None:
    # A server makes a record at every deal's start and end for each of hundreds of tables,
    # each with its own game object: keyed by the object, the cache emptied itself every
    # 256 tables and worked the rules out again at almost every deal.
    from folkdeck.engine import record

    record._RULES.clear()
    games = [folkdeck.load("cambio", players=3) for _ in range(record.RULES_KEPT + 10)]
    rules = {json.dumps(Record.from_game(g).rules, sort_keys=True) for g in games}
    assert len(rules) == 1 and json.loads(rules.pop())["players"] == 3
    assert len(record._RULES) == 1
    changed = folkdeck.load("cambio", players=3, entry_fee=2)
    assert Record.from_game(changed).rules["entry_fee"] == 2  # another rule set: its own entry
    assert len(record._RULES) == 2
