"""Hand-written records replayed through ``folkdeck.engine.record`` to known outcomes."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import cast

import pytest

from folkdeck import load
from folkdeck.cards import parse_cards
from folkdeck.engine.errors import MalformedRecordError
from folkdeck.engine.facts import CardsTaken
from folkdeck.engine.record import Record, ReplayError, dumps, loads
from folkdeck.games.cangkul import CangkulState
from folkdeck.games.cangkul.agents import HeuristicAgent
from folkdeck.sim.runner import play_deal

from .conftest import notes

EXAMPLES = Path(__file__).parents[3] / "examples" / "records"

CANGKUL = {
    "format": "folkdeck-record/1", "game": "cangkul", "rules": {"players": 3},
    "setup": {"dealer": 2},
    "hands": [["9H", "3S", "5S"], ["KH", "4C", "6D", "10S"], ["7D", "8D"]],
    "stock": ["2C", "5H"],
    "actions": ["0: 9H", "1: KH", "2: draw", "2: draw", "1: 4C", "2: 2C", "1: 6D", "2: 8D", "2: 7D"],
}
BURRO_ES = {
    "format": "folkdeck-record/1", "game": "burro_es", "rules": {"players": 3},
    "setup": {"leader": 0},
    "hands": [["KC", "3S", "6H"], ["QC", "JS"], ["AC", "9H", "2D"]],
    "stock": ["4D", "5S", "7H"],
    # rey de bastos beats caballo and as; sota de espadas beats cinco and tres (docs/rules/cangkul.md §4.1)
    "actions": ["0: KC", "1: QC", "2: AC", "0: 3S", "1: JS", "2: draw", "2: draw", "2: 9H", "0: 6H"],
}
BURRO_PT = {
    "format": "folkdeck-record/1", "game": "burro_pt", "rules": {"players": 3},
    "setup": {"dealer": 2},
    "hands": [["JH", "2S"], ["QH", "4C"], ["7C", "6C"]],
    "stock": ["AH", "3D", "5D", "KS"],
    # left pile AH 3D, right pile 5D KS (docs/rules/cangkul.md §5, §7.12); valete > dama > ás
    "actions": ["0: JH", "1: QH", "2: draw right", "2: draw right", "2: draw left", "0: 2S",
                "1: draw left", "2: KS", "2: 5D", "1: 3D", "2: 6C", "1: 4C"],
}


def test_cangkul_transcript() -> None:
    state = loads(json.dumps(CANGKUL)).replay()
    result = state.result()
    assert result is not None and result.details["winner"] == 2
    assert result.returns == (0.0, 0.0, 1.0)
    assert state.history[5].facts[1] == CardsTaken(seat=0, cards=parse_cards("2C 4C"))


def test_spanish_burro_transcript() -> None:
    state = cast(CangkulState, loads(json.dumps(BURRO_ES)).replay())
    assert [(e.line, *notes(state, e)) for e in state.history[4:7]] == [
        ("1: JS", "seat 1 goes out in 1st place"),
        ("2: draw", "seat 2 draws a card"),
        ("2: draw", "seat 2 draws 5S and plays it", "seat 1 wins the trick; seat 2 leads"),
    ]
    result = state.result()
    assert result is not None
    assert result.placings == (2, 1, 3) and result.returns == (0.0, 0.0, -1.0)
    assert result.details["loser"] == 2 and result.details["order"] == [1, 0, 2]


def test_portuguese_burro_transcript() -> None:
    state = cast(CangkulState, loads(json.dumps(BURRO_PT)).replay())
    events = [(e.line, *notes(state, e)) for e in state.history]
    assert events[4] == ("2: draw left", "seat 2 draws AH and plays it", "seat 0 wins the trick and leads")
    assert events[6] == ("1: draw left", "seat 1 draws a card",
                         "seat 1 cannot follow espadas and the stock is empty: passes")
    assert events[-1] == ("1: 4C", "seat 1 goes out in 2nd place", "seat 2 is the last holding cards and loses the deal",
                          "the deal is over (the last holding cards (burro))")
    result = state.result()
    assert result is not None and result.placings == (1, 2, 3)


def test_illegal_record_action_is_reported_with_its_index() -> None:
    bad = dict(CANGKUL, actions=["0: 9H", "1: 4C"])
    with pytest.raises(ReplayError) as info:
        loads(json.dumps(bad)).replay()
    assert info.value.index == 1 and info.value.cause.reason == "cangkul.follow_suit"
    assert "follow the led suit hearts" in str(info.value)


@pytest.mark.parametrize(("change", "field"), [
    ({"stock": ["2C", "1H"]}, "stock[1]"),
    ({"hands": [["9H"], ["9H"], ["7D"]]}, "hands[1]"),
    ({"setup": {"dealer": 5}}, "setup.dealer"),
    ({"rules": {"players": 3, "joker_play": "never"}}, "rules.joker_play"),
    ({"actions": ["0: play 9H"]}, "actions[0]"),
])
def test_malformed_records_name_the_field(change: dict[str, object], field: str) -> None:
    with pytest.raises(MalformedRecordError) as info:
        loads(json.dumps(dict(CANGKUL, **change))).replay()
    assert info.value.field == field


@pytest.mark.parametrize("name", ["cangkul", "burro_es", "burro_pt"])
def test_bot_deals_round_trip_through_json(name: str) -> None:
    game = load(name)
    state = game.new_state(seed=21)
    play_deal(state, [HeuristicAgent() for _ in range(game.num_players)], random.Random(3))
    text = dumps(Record.from_state(state))
    again = loads(text).replay()
    assert [str(e) for e in again.history] == [str(e) for e in state.history]
    assert again.result() == state.result()


def test_example_records_replay() -> None:
    files = sorted(EXAMPLES.glob("*.json"))
    ours = [f for f in files if f.name.split("-")[0] in ("cangkul", "burro_es", "burro_pt")]
    assert {f.name.split("-")[0] for f in ours} == {"cangkul", "burro_es", "burro_pt"}
    for path in ours:
        record = loads(path.read_text(encoding="utf-8"))
        state = record.replay()
        expected = record.extra.get("expected_result")
        if expected is not None:
            result = state.result()
            assert result is not None and result.to_dict() == expected, path.name
