"""Kap Hai transcripts replayed to their expected outcomes (docs/records.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from folkdeck.engine.errors import MalformedRecordError
from folkdeck.engine.record import Record, ReplayError, dumps, loads

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "records"


def test_issue_example_record() -> None:
    """The record of the foundation issue: seat 1 passed, seat 2 must answer 4C 4D."""
    state = loads((EXAMPLES / "kaphai-study.json").read_text()).replay()
    assert state.to_act == (2,) and not state.is_over()
    assert [str(a) for a in state.legal_actions()] == ["pass"]


def test_figure_3_played_out() -> None:
    state = loads((EXAMPLES / "kaphai-figure3.json").read_text()).replay()
    result = state.result()
    assert result is not None and result.placings == (3, 4, 1, 2)


def test_every_example_record_round_trips() -> None:
    for path in sorted(EXAMPLES.glob("kaphai-*.json")):
        record = loads(path.read_text())
        state = record.replay()
        again = loads(dumps(Record.from_state(state))).replay()
        assert [e.line for e in again.history] == [e.line for e in state.history], path.name


def _record(**changes: object) -> str:
    data = json.loads((EXAMPLES / "kaphai-study.json").read_text())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(("changes", "field"), [
    ({"game": "poker"}, "game"),
    ({"rules": {"players": 4, "speed": 2}}, "rules.speed"),
    ({"rules": {"players": 9}}, "rules.players"),
    ({"hands": [["4C", "4C"], ["5S"], ["KS"], ["AS"]]}, "hands[0]"),
    ({"hands": [["4C", "ZZ"], ["5S"], ["KS"], ["AS"]]}, "hands[0]"),
    ({"seed": 4}, "seed/hands"),
    ({"actions": ["zero: 4C 4D"]}, "actions[0]"),
    ({"actions": ["0: 4C 4X"]}, "actions[0]"),
    ({"actions": ["7: pass"]}, "actions[0]"),
    ({"format": "other/2"}, "format"),
])
def test_malformed_records_name_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(MalformedRecordError) as info:
        loads(_record(**changes)).replay()
    assert info.value.field == field


def test_an_illegal_action_names_its_index() -> None:
    with pytest.raises(ReplayError) as info:
        loads(_record(actions=["0: 4C 4D", "1: 3C 3D"])).replay()
    assert info.value.index == 1
    assert "3C 3D does not beat 4C 4D" in info.value.message
