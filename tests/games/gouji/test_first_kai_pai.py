"""Gou Ji's first kai pai (开牌) is anyone's (docs/rules/gouji.md §2.2, the Japanese Gou Ji page,
the deal: 「最初のディールでは…誰でもいいので1人が…ドローして表に向けます。このプレイヤーを開牌
(カイパイ)と呼びます」); later special deals pass kai pai on from it to the next seat (「前回のカイパイの
右隣のプレイヤーが開牌となり」). Chosen with ``new_match(first_kai_pai=k)``, stated by a match
record's first deal (checked against the turned cards where the record has them), by
``folkdeck play gouji --kai-pai k`` and by the lobby (``first_kai_pai``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, cast

import pytest

from folkdeck import load
from folkdeck.cli.main import main
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.errors import InvalidConfigError, InvalidDealError
from folkdeck.engine.game_base import GameBase
from folkdeck.engine.match_base import start_match
from folkdeck.engine.match_record import MatchRecorder, RecordMismatchError, dumps, loads
from folkdeck.games.gouji import GouJiGame
from folkdeck.games.gouji.dealing import pack_order

SWEEP_RNG = 30
"""A match random (with first kai pai 4) whose first deal, played by ``random.Random(30)``,
ends in a sweep: the next deal is special."""
JOKER_SEED = 20
"""A deal seed whose shuffled pack has one joker on top, then the 6H."""


def _record(first_kai_pai: int | None, rng: int = SWEEP_RNG, deals: int = 2) -> dict[str, Any]:
    game = cast(GouJiGame, load("gouji"))
    match = game.new_match(deals=deals, rng=random.Random(rng), first_kai_pai=first_kai_pai)
    recorder = MatchRecorder(game, deals=deals)
    while not match.is_over():
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        random_playout(state, random.Random(rng))
        recorder.finish_deal(state, match.finish_deal(state))
    data: dict[str, Any] = json.loads(dumps(recorder.record(match.standings())))
    return data


@pytest.mark.parametrize("kai", range(6))
def test_new_match_deals_the_first_deal_from_the_chosen_kai_pai(kai: int) -> None:
    state = cast(GouJiGame, load("gouji")).new_match(deals=1, rng=random.Random(5), first_kai_pai=kai).next_deal()
    expected = load("gouji").new_state(rng=random.Random(5), setup={"kai_pai": kai})
    assert state.deal_info() == expected.deal_info()
    assert cast(dict[str, Any], state.deal_info()["setup"])["kai_pai"] == kai  # no joker on top of this pack


def test_left_unchosen_the_first_kai_pai_is_seat_0() -> None:
    match = cast(GouJiGame, load("gouji")).new_match(deals=1, rng=random.Random(5))
    assert match.standings().carry["kai_pai"] == 0
    expected = load("gouji").new_state(rng=random.Random(5), setup={"kai_pai": 0})
    assert match.next_deal().deal_info() == expected.deal_info()


def test_the_next_special_deal_follows_from_the_chosen_kai_pai() -> None:
    match = cast(GouJiGame, load("gouji")).new_match(deals=2, rng=random.Random(SWEEP_RNG), first_kai_pai=4)
    state = match.next_deal()
    random_playout(state, random.Random(SWEEP_RNG))
    facts = [f.to_dict() for f in match.finish_deal(state)]
    assert {"type": "gouji.next_deal", "kind": "sweep", "seat": 5} in facts
    assert match.standings().carry["kai_pai"] == 5 and match.standings().carry["special"]


def test_a_match_record_states_any_first_kai_pai_and_later_deals_follow() -> None:
    data = _record(first_kai_pai=4)
    assert [d["setup"]["kai_pai"] for d in data["deals"]] == [4, 5]
    replayed = loads(json.dumps(data)).replay()  # by a match started without a kai pai
    assert replayed.standings.to_dict() == data["standings"]
    data["deals"][1]["setup"]["kai_pai"] = 1  # the seat after seat 0, not after the first deal's
    with pytest.raises(RecordMismatchError) as caught:
        loads(json.dumps(data)).replay()
    assert caught.value.field == "deals[1].setup.kai_pai" and caught.value.reason == "setup_mismatch"


def test_a_record_of_kai_pai_0_replays_as_before() -> None:
    data = _record(first_kai_pai=None)
    assert data["deals"][0]["setup"]["kai_pai"] == 0
    assert loads(json.dumps(data)).replay().standings.to_dict() == data["standings"]


def _seeded_first_deal(setup: dict[str, Any]) -> dict[str, Any]:
    """A match record of one unfinished first deal, dealt from :data:`JOKER_SEED`."""
    return {"format": "folkdeck-match/1", "game": "gouji", "rules": {"players": 6},
            "match": {"deals": 1}, "deals": [{"setup": setup, "seed": JOKER_SEED, "actions": []}]}


def test_a_seeded_first_deal_turns_from_the_seat_before_the_jokers() -> None:
    """Seat 2 turned the joker on top and passed kai pai on; seat 3 turned the 6H and counted
    six, from itself: seat 3 + 5 = seat 2 draws first."""
    assert [str(c) for c in pack_order(None, JOKER_SEED, None)[:2]] in (["RJ", "6H"], ["BJ", "6H"])
    state = loads(json.dumps(_seeded_first_deal({"kai_pai": 3, "first_drawer": 2}))).replay().states[0]
    expected = load("gouji").new_state(seed=JOKER_SEED, setup={"kai_pai": 2})
    assert state.deal_info() == expected.deal_info()
    assert state.deal_info()["setup"]["kai_pai"] == 3


@pytest.mark.parametrize("drawer", [0, 1, 3, 4, 5])
def test_a_first_kai_pai_that_contradicts_the_turned_cards_is_refused(drawer: int) -> None:
    """Kai pai seat 3 turning the 6H makes seat 2 the first drawer, whatever seat 3 was chosen as."""
    with pytest.raises(RecordMismatchError) as caught:
        loads(json.dumps(_seeded_first_deal({"kai_pai": 3, "first_drawer": drawer}))).replay()
    assert caught.value.field == "deals[0].setup.first_drawer"
    assert caught.value.params["expected"] == "2" and caught.value.params["found"] == str(drawer)


def test_a_match_started_with_a_kai_pai_checks_the_first_deal() -> None:
    match = cast(GouJiGame, load("gouji")).new_match(deals=1, rng=random.Random(1), first_kai_pai=1)
    with pytest.raises(InvalidDealError) as caught:
        match.next_deal(deal={"setup": {"kai_pai": 3}, "seed": JOKER_SEED})
    assert caught.value.params["field"] == "setup.kai_pai" and caught.value.params["expected"] == "2"
    match = cast(GouJiGame, load("gouji")).new_match(deals=1, rng=random.Random(1), first_kai_pai=2)
    setup = match.next_deal(deal={"setup": {"kai_pai": 3}, "seed": JOKER_SEED}).deal_info()["setup"]
    assert cast(dict[str, Any], setup)["kai_pai"] == 3


@pytest.mark.parametrize("seat", [6, -1, True])
def test_a_first_kai_pai_off_the_table_is_refused(seat: int) -> None:
    with pytest.raises(InvalidConfigError) as caught:
        cast(GouJiGame, load("gouji")).new_match(first_kai_pai=seat)
    assert caught.value.reason == "first_kai_pai_seat" and caught.value.params["last"] == 5


@pytest.mark.parametrize("name", ["kaphai", "cangkul", "burro_es", "cambio"])
def test_games_without_kai_pai_refuse_one(name: str) -> None:
    with pytest.raises(InvalidConfigError) as caught:
        start_match(load(name), deals=1, rng=None, chosen={"first_kai_pai": 0})
    assert caught.value.reason == "first_kai_pai_not_free" and caught.value.params["game"] == name


def test_the_game_declares_its_free_first_seat() -> None:
    gouji, cangkul = cast(GameBase[Any], load("gouji")), cast(GameBase[Any], load("cangkul"))
    assert gouji.first_seat_option == "first_kai_pai" and not gouji.first_dealer_free
    assert cangkul.first_seat_option == "first_dealer" and cangkul.first_dealer_free
    assert all(cast(GameBase[Any], load(name)).first_seat_option is None for name in ("kaphai", "cambio"))
    match = start_match(load("gouji"), deals=1, rng=random.Random(5), chosen={"first_kai_pai": 3, "first_dealer": None})
    assert match.standings().carry["kai_pai"] == 3


def test_the_terminal_takes_the_first_kai_pai(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    status = main(["play", "gouji", "--watch", "--deals", "1", "--seed", "2", "--kai-pai", "4",
                   "--bot", "greedy", "--delay", "0", "--record", str(path)])
    assert status == 0, capsys.readouterr()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["deals"][0]["setup"]["kai_pai"] == 4 and loads(json.dumps(data)).replay().standings.deals_played == 1
    status = main(["play", "cangkul", "--watch", "--deals", "1", "--seed", "2", "--kai-pai", "2", "--delay", "0"])
    err = capsys.readouterr().err
    assert status != 0 and "kai pai" in err
    status = main(["play", "gouji", "--watch", "--deals", "1", "--seed", "2", "--kai-pai", "6", "--delay", "0"])
    err = capsys.readouterr().err
    assert status != 0 and "from 0 to 5" in err
