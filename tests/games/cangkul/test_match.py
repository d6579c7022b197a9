"""Cangkul and Burro matches: the first dealer is chosen freely (docs/rules/cangkul.md §1.2
「最初のディーラーは任意に決めます」); later deals pass on to seat + 1 from it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from folkdeck import load
from folkdeck.cli.main import main
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.errors import InvalidConfigError, InvalidDealError
from folkdeck.engine.match_record import MatchRecorder, RecordMismatchError, dumps, loads


def _record(first_dealer: int | None, deals: int = 3) -> dict[str, object]:
    game = load("cangkul")
    match = game.new_match(deals=deals, rng=random.Random(4), first_dealer=first_dealer)
    recorder = MatchRecorder(game, deals=deals)
    while not match.is_over():
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        random_playout(state, random.Random(4))
        recorder.finish_deal(state, match.finish_deal(state))
    data: dict[str, object] = json.loads(dumps(recorder.record(match.standings())))
    return data


@pytest.mark.parametrize("name", ["cangkul", "burro_es", "burro_pt"])
def test_new_match_takes_the_first_dealer(name: str) -> None:
    match = load(name).new_match(deals=3, rng=random.Random(1), first_dealer=1)
    state = match.next_deal()
    assert state.deal_info()["setup"]["dealer"] == 1 and state.to_act == (2,)
    random_playout(state, random.Random(1))
    facts = match.finish_deal(state)
    assert facts[-1].to_dict() == {"type": "next_deal", "dealer": 2, "leader": 3}


def test_a_match_record_may_name_any_first_dealer() -> None:
    data = _record(first_dealer=1)
    deals = data["deals"]
    assert isinstance(deals, list)
    assert [d["setup"]["dealer"] for d in deals] == [1, 2, 3]
    replayed = loads(json.dumps(data)).replay()  # replayed by a match started without one
    assert replayed.standings.carry == {"dealer": 0, "leader": 1}
    deals[1]["setup"]["dealer"] = 0  # later deals still pass on from the first
    with pytest.raises(RecordMismatchError) as caught:
        loads(json.dumps(data)).replay()
    assert caught.value.field == "deals[1].setup.dealer" and caught.value.reason == "setup_mismatch"


def test_a_match_started_with_a_dealer_checks_the_first_deal() -> None:
    match = load("cangkul").new_match(deals=2, rng=random.Random(1), first_dealer=2)
    with pytest.raises(InvalidDealError) as caught:
        match.next_deal(deal={"setup": {"dealer": 0}, "seed": 3})
    assert caught.value.reason == "setup_mismatch"


@pytest.mark.parametrize("name", ["kaphai", "gouji", "cambio"])
def test_games_whose_rules_fix_the_start_refuse_a_first_dealer(name: str) -> None:
    game = load(name)
    assert game.new_match(deals=1, first_dealer=None) is not None
    with pytest.raises(InvalidConfigError) as caught:
        game.new_match(deals=1, first_dealer=0)
    assert caught.value.reason == "first_dealer_not_free" and caught.value.params["game"] == name


@pytest.mark.parametrize("seat", [4, -1, True])
def test_a_first_dealer_off_the_table_is_refused(seat: int) -> None:
    with pytest.raises(InvalidConfigError) as caught:
        load("cangkul").new_match(first_dealer=seat)
    assert caught.value.reason == "first_dealer_seat" and caught.value.params["last"] == 3


def test_the_terminal_takes_the_first_dealer(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    status = main(["play", "cangkul", "--watch", "--deals", "1", "--seed", "2", "--dealer", "2",
                   "--delay", "0", "--record", str(path)])
    assert status == 0, capsys.readouterr()
    assert json.loads(path.read_text(encoding="utf-8"))["deals"][0]["setup"]["dealer"] == 2
    status = main(["play", "kaphai", "--watch", "--deals", "1", "--seed", "2", "--dealer", "2",
                   "--delay", "0"])
    err = capsys.readouterr().err
    assert status != 0 and "first dealer" in err
