"""Gou Ji transcripts replayed through the record format to an expected outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from folkdeck.engine.errors import MalformedRecordError
from folkdeck.engine.record import Record, ReplayError, dumps, loads

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "records"

STUDY = {
    "format": "folkdeck-record/1", "game": "gouji", "rules": {"players": 6},
    "setup": {"leader": 0},
    "hands": [["KS", "KH", "3S", "4S", "5S"], ["AS", "AH", "7S", "7H"], ["3C", "4C", "5C", "8S"],
              ["2C", "2D", "3D", "4D"], ["3H", "4H", "5H", "9S"], ["AC", "AD", "2S", "9H"]],
    "actions": ["0: K K", "1: no", "5: burn A A", "0: pass", "1: pass", "2: pass", "3: 2 2",
                "0: pass"],
}


def test_study_burn_by_x_plus_5_then_a_gouji_on_the_burn() -> None:
    # docs/rules/gouji.md §5: X+1 declines, X+5 burns; a play on the burn starts a gouji (3 v 0)
    state = loads(json.dumps(STUDY)).replay()
    assert state.to_act == (3,) and state.observe(None).top is None
    assert [e.line for e in state.history][2] == "5: burn A A"
    assert state.observe(None).counts[5] == 2


def test_xian_rang_rang_transcript() -> None:
    # docs/rules/gouji.md §6 (シエンランラン); the teammate refuses by playing
    rec = {"game": "gouji", "setup": {"leader": 0},
           "hands": [["5S", "9S", "9H"], ["3S", "4S"], ["3C", "4C"], ["8S", "3D"], ["JS", "4D"],
                     ["3H", "4H"]],
           "actions": ["0: 5", "1: pass", "2: pass", "3: 8", "0: xian", "4: J", "5: pass", "0: pass",
                       "3: pass"]}
    state = loads(json.dumps(rec)).replay()
    assert state.to_act == (4,) and state.observe(None).top is None


@pytest.mark.parametrize("name", ["gouji-study-burning.json", "gouji-first-deal.json",
                                  "gouji-normal-deal.json"])
def test_example_records_replay_to_their_result(name: str) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    record = loads(text)
    state = record.replay()
    result = state.result()
    assert result is not None
    stated = record.extra["result"]
    assert isinstance(stated, dict)
    assert list(result.placings) == stated["placings"]
    assert list(result.returns) == stated["returns"]
    again = json.loads(dumps(Record.from_state(state, **record.extra)))
    # written before ask_all_seats: it replays without it, and a new record names it
    assert again["rules"].pop("ask_all_seats") is False
    assert again == json.loads(text)


def test_normal_deal_record_has_tribute_and_da_la_leads() -> None:
    record = loads((EXAMPLES / "gouji-normal-deal.json").read_text(encoding="utf-8"))
    places = record.setup["places"]
    assert isinstance(places, list)
    assert record.actions[0].split(":")[1].strip().startswith("return")
    first_play = next(a for a in record.actions if "return" not in a)
    assert int(first_play.split(":")[0]) == places.index(6)   # docs/rules/gouji.md §2.4: 6位 leads, not handed over


def test_illegal_record_action_names_the_line() -> None:
    rec = dict(STUDY, actions=["0: K K", "1: burn 7 7"])
    with pytest.raises(ReplayError) as info:
        loads(json.dumps(rec)).replay()
    assert info.value.index == 1 and "burn 7 7" in info.value.message


@pytest.mark.parametrize(("setup", "hands_patch", "field"), [
    ({"places": [1, 2, 3]}, None, "setup.places"),
    ({"leader": 9}, None, "setup.leader"),
    ({"banana": 1}, None, "setup.banana"),
    ({"special": False}, None, "setup.special"),
    ({"leader": 0}, ["XX"], "hands[0]"),
    ({"leader": 0}, ["RJ"] * 5, "hands[0]"),
])
def test_bad_setups_name_the_field(setup: dict[str, object], hands_patch: list[str] | None,
                                   field: str) -> None:
    rec = dict(STUDY, setup=setup, actions=[])
    if hands_patch is not None:
        rec["hands"] = [hands_patch] + list(STUDY["hands"])[1:]
    with pytest.raises(MalformedRecordError) as info:
        loads(json.dumps(rec)).replay()
    assert info.value.details["field"] == field


def test_docs_example_record_replays() -> None:
    docs = Path(__file__).resolve().parents[3] / "docs" / "records.md"
    section = docs.read_text(encoding="utf-8").split("## Gou Ji (`gouji`)")[1]
    text = section.split("```json")[1].split("```")[0]
    result = loads(text).replay().result()
    assert result is not None and result.placings == (5, 1, 6, 3, 4, 2)
    assert result.returns[:2] == (-6.0, 6.0)
