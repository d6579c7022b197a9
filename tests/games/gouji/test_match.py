"""A Gou Ji match's kai pai (开牌) and first drawer: the match derives them and refuses a
record's deal that says otherwise (docs/rules/gouji.md §2.2 "On later special deals kai pai
is the seat after the previous kai pai", §2.3 "Nominally the Da La's opposite is kai pai";
docs/records.md: a setup the match does not give is refused, naming setup.<key>)."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest

from folkdeck import load
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.match_record import MatchRecorder, RecordMismatchError, dumps, loads
from folkdeck.games.gouji import GouJiGame
from folkdeck.games.gouji.dealing import opposite
from folkdeck.games.gouji.match import GouJiMatch


def _played(deals: int) -> tuple[GouJiMatch, dict[str, Any]]:
    """A match (rng 0) after ``deals`` random deals, and its record without standings: with
    these seeds deal 1 is normal (no sweep) and deal 2 a sweep."""
    game = cast(GouJiGame, load("gouji"))
    match = game.new_match(deals=6, rng=random.Random(0))
    recorder = MatchRecorder(game, deals=6)
    for _ in range(deals):
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        random_playout(state, random.Random(0))
        recorder.finish_deal(state, match.finish_deal(state))
    record = json.loads(dumps(recorder.record()))
    return match, record


def test_after_a_sweep_a_seeded_deal_turns_from_the_match_kai_pai() -> None:
    match, _ = _played(2)
    setup = match.setup()
    assert setup["special"] and setup["kai_pai"] == 3
    with pytest.raises(InvalidDealError) as info:
        match.next_deal(deal={"setup": {**setup, "kai_pai": 5}, "seed": 7})
    assert info.value.params["field"] == "setup.kai_pai"
    expected = cast(dict[str, Any], load("gouji").new_state(seed=7, setup=setup).deal_info()["setup"])
    dealt = match.next_deal(deal={"setup": {"places": setup["places"]}, "seed": 7})
    assert cast(dict[str, Any], dealt.deal_info()["setup"])["first_drawer"] == expected["first_drawer"]


def test_after_a_sweep_a_seeded_deal_with_another_first_drawer_is_refused() -> None:
    match, _ = _played(2)
    setup = match.setup()
    drawer = load("gouji").new_state(seed=7, setup=setup).deal_info()["setup"]["first_drawer"]
    assert isinstance(drawer, int)
    with pytest.raises(InvalidDealError) as info:
        match.next_deal(deal={"setup": {**setup, "first_drawer": (drawer + 2) % 6}, "seed": 7})
    assert info.value.params["field"] == "setup.first_drawer"


def test_a_normal_deal_takes_the_nominal_kai_pai() -> None:
    match, record = _played(1)
    setup = match.setup()
    da_la = cast(list[int], setup["places"]).index(6)
    assert not setup["special"] and setup["kai_pai"] == opposite(da_la)
    assert match.standings().carry["kai_pai"] == opposite(da_la)
    special_kai = record["deals"][0]["setup"]["kai_pai"]  # the first (special) deal's
    assert special_kai != opposite(da_la)
    with pytest.raises(InvalidDealError) as info:
        match.next_deal(deal={"setup": {**setup, "kai_pai": special_kai}, "seed": 3})
    assert info.value.params["field"] == "setup.kai_pai"


@pytest.mark.parametrize("deal", [1, 2])
def test_a_match_record_with_another_kai_pai_is_refused(deal: int) -> None:
    """Later deals follow from the first deal's kai pai, which is anyone's
    (tests/games/gouji/test_first_kai_pai.py)."""
    _, record = _played(3)
    assert loads(json.dumps(record)).replay().standings.deals_played == 3
    setup = record["deals"][deal]["setup"]
    setup["kai_pai"] = (setup["kai_pai"] + 2) % 6
    with pytest.raises(RecordMismatchError) as info:
        loads(json.dumps(record)).replay()
    assert info.value.field == f"deals[{deal}].setup.kai_pai" and info.value.reason == "setup_mismatch"
