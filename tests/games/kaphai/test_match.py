"""Kap Hai matches (docs/rules/kaphai.md §5, §2.2, §2.1): the lead and the 3-game carried over, points
by place (docs/rules/kaphai.md §8.14), and whole-match records (``folkdeck-match/1``) that replay exactly."""

from __future__ import annotations

import json
import random
from typing import cast

import pytest

import folkdeck
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.errors import InvalidDealError
from folkdeck.engine.facts import MatchEnded, NextDeal, ScoreChanged
from folkdeck.engine.match_record import MatchRecorder, RecordMismatchError, dumps, loads
from folkdeck.games.kaphai.events import NextThreeGame
from folkdeck.games.kaphai.game import KapHaiGame

from .test_state import _two_putuhs

PRESETS = (None, *folkdeck.get_spec("kaphai").presets)


def _play_match(preset: str | None, seed: int, deals: int = 4) -> tuple[object, object]:
    game = folkdeck.load("kaphai", preset)
    recorder = MatchRecorder(game, deals=deals)
    match = game.new_match(deals=deals, rng=random.Random(seed))
    rng = random.Random(seed + 1)
    while not match.is_over():
        state = match.next_deal()
        recorder.start_deal(state, match.report())
        random_playout(state, rng)
        recorder.finish_deal(state, match.finish_deal(state))
    return match, recorder.record(match.standings())


@pytest.mark.parametrize("preset", PRESETS, ids=str)
def test_a_random_match_round_trips_through_its_record(preset: str | None) -> None:
    for seed in range(3):
        match, record = _play_match(preset, seed)
        replayed = loads(dumps(record)).replay()  # type: ignore[arg-type]
        assert replayed.standings == match.standings()  # type: ignore[attr-defined]
        assert replayed.standings.deals_played == 4 and replayed.standings.over


def test_the_match_reports_points_the_next_leader_and_its_end() -> None:
    game = cast(KapHaiGame, folkdeck.load("kaphai"))
    match = game.new_match(deals=2, rng=random.Random(3))
    first = match.next_deal()
    assert first.observe(None).three_game
    random_playout(first, random.Random(1))
    facts = match.finish_deal(first)
    result = first.result()
    assert result is not None and result.reason == "out"
    assert facts[:4] == tuple(ScoreChanged(seat=s, delta=r, total=r) for s, r in enumerate(result.returns))
    assert facts[4] == NextDeal(leader=result.placings.index(1))
    assert match.standings().carry == {"three_game": False, "leader": result.placings.index(1)}
    second = match.next_deal()
    assert second.to_act == (result.placings.index(1),) and not second.observe(None).three_game
    random_playout(second, random.Random(2))
    last = match.finish_deal(second)
    assert isinstance(last[-1], MatchEnded) and match.is_over()
    best = max(match.points)
    assert last[-1].winners == tuple(s for s, p in enumerate(match.points) if p == best)


def test_after_a_putuh_the_next_deal_is_a_three_game() -> None:
    """docs/rules/kaphai.md §2.1: a putuh deal is followed by a 3-game."""
    game = cast(KapHaiGame, folkdeck.load("kaphai"))
    match = game.new_match(deals=3, rng=random.Random(1))
    state = match.next_deal(deal={"hands": _two_putuhs(), "setup": {"three_game": True}})
    assert state.is_over()
    facts = match.finish_deal(state)
    assert NextThreeGame() in facts and match.standings().carry["three_game"] is True
    assert match.points == [3.0, 2.0, 2.0, 2.0]


def test_a_deal_whose_setup_contradicts_the_match_is_refused() -> None:
    game = folkdeck.load("kaphai")
    match = game.new_match(deals=3, rng=random.Random(1))
    with pytest.raises(InvalidDealError) as info:
        match.next_deal(deal={"seed": 4, "setup": {"three_game": False, "leader": 0}})
    assert info.value.reason == "setup_mismatch" and info.value.params["field"] == "setup.three_game"


def _tampered(record_text: str, change: object) -> str:
    data = json.loads(record_text)
    change(data)  # type: ignore[operator]
    return json.dumps(data)


def test_a_tampered_match_record_is_refused_naming_the_field() -> None:
    match, record = _play_match(None, 5)
    text = dumps(record)  # type: ignore[arg-type]
    second = json.loads(text)["deals"][1]
    assert second["setup"]["three_game"] is False, "seed 5: deal 1 is led by deal 0's 1st place"

    def wrong_leader(data: dict) -> None:  # type: ignore[type-arg]
        deal = data["deals"][1]
        deal["setup"]["leader"] = (deal["setup"]["leader"] + 1) % 4

    with pytest.raises(RecordMismatchError) as info:
        loads(_tampered(text, wrong_leader)).replay()
    assert info.value.field == "deals[1].setup.leader"

    def wrong_carry(data: dict) -> None:  # type: ignore[type-arg]
        data["standings"]["carry"]["leader"] = (data["standings"]["carry"]["leader"] + 1) % 4

    with pytest.raises(RecordMismatchError) as mismatch:
        loads(_tampered(text, wrong_carry)).replay()
    assert mismatch.value.field == "standings.carry"

    def wrong_points(data: dict) -> None:  # type: ignore[type-arg]
        data["deals"][0]["after"][0]["delta"] += 1

    with pytest.raises(RecordMismatchError) as after:
        loads(_tampered(text, wrong_points)).replay()
    assert after.value.field == "deals[0].after[0]"  # the first fact that differs
