"""Hand-written Cambio transcripts replayed to their expected outcome."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import pytest

from folkdeck import load
from folkdeck.cards import parse_card
from folkdeck.engine.errors import MalformedRecordError
from folkdeck.engine.record import Record, ReplayError, dumps, loads
from folkdeck.games.cambio import CambioState
from folkdeck.games.cambio.events import Showdown, StockCard

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "records"


def test_horse_chain_example() -> None:
    # docs/rules/cambio.md §5 馬/家 and "山札から引いた道化は…最強"; §6.4, §6.5
    state = loads((EXAMPLES / "cambio-horse-chain.json").read_text()).replay()
    result = state.result()
    assert result is not None
    assert result.details["losers"] == [3]
    assert result.details["showdown"] == {"0": "7", "1": "HORSE", "2": "FOOL", "3": "3"}
    assert result.details["from_stock"] == [2, 3]   # seat 3 changed with the stock too
    facts = [f for e in state.history for f in e.facts]
    assert any(isinstance(f, StockCard) and f.card == parse_card("HORSE") for f in facts)
    assert Showdown(seat=2, card=parse_card("FOOL"), value=16, from_stock=True) in facts


def test_cucco_example() -> None:
    # docs/rules/cambio.md §5.1 猫 (the requester's own card) and 梟 (クク out of turn), deal 4 of a game
    state = loads((EXAMPLES / "cambio-cucco.json").read_text()).replay()
    result = state.result()
    assert result is not None
    assert result.details["losers"] == [0, 2]
    assert result.details["loser_pays"] == "eliminated"
    assert result.placings == (2, None, 2, 1, 1)


TRANSCRIPT = {
    "format": "folkdeck-record/1", "game": "cambio", "rules": {"players": 3},
    "setup": {"dealer": 0}, "hands": [["4"], ["MAN"], ["0"]], "stock": ["8"],
    "actions": ["1: keep", "2: change", "0: change"],
}


def test_transcript_man_and_dealer() -> None:
    # seat 2's right neighbour is the dealer, seat 0, who then changes with the stock
    state = cast(CambioState, loads(json.dumps(TRANSCRIPT)).replay())
    result = state.result()
    assert result is not None
    assert result.details["losers"] == [2]   # seat 2 now holds 4 < MAN, 8
    assert str(state.card(0)) == "8"


def test_illegal_line_is_reported_with_its_index() -> None:
    bad = dict(TRANSCRIPT, actions=["1: keep", "0: cucco"])
    with pytest.raises(ReplayError) as err:
        loads(json.dumps(bad)).replay()
    assert err.value.index == 1 and err.value.cause.reason == "cambio.no_owl"
    assert "OWL" in str(err.value)


def test_bad_card_names_the_field() -> None:
    bad = dict(TRANSCRIPT, hands=[["4"], ["KNIGHT"], ["0"]])
    with pytest.raises(MalformedRecordError) as err:
        loads(json.dumps(bad)).start()
    assert err.value.field == "hands[1]"


def test_from_state_round_trip() -> None:
    state = loads(json.dumps(TRANSCRIPT)).replay()
    again = loads(dumps(Record.from_state(state))).replay()
    assert again.result() == state.result()
    assert again.deal_info() == state.deal_info()


def test_a_copy_too_many_in_a_hand_names_that_hand() -> None:
    """Issue 37: a card given once more in a hand of a record that gives the whole pack (the
    pack's other copies in the stock) was refused naming ``stock``; it names the hand."""
    record = Record.from_state(load("cambio", players=3).new_state(seed=5)).to_dict()
    hands = record["hands"]
    assert isinstance(hands, list) and isinstance(hands[0], list)
    last = len(hands) - 1
    hands[last] = list(hands[0])  # the last seat is given the first seat's card too
    with pytest.raises(MalformedRecordError) as err:
        loads(json.dumps(record)).start()
    assert err.value.reason == "too_many_copies"
    assert err.value.field == f"hands[{last}]"
    assert str(err.value).startswith(f"hands[{last}]: ")
