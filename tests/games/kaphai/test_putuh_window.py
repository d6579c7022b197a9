"""The putuh window that asks every seat (``ask_all_seats``, docs/rules/kaphai.md §4.4:
what the putuh window tells the table), and worlds built from a view (``from_view``).

With ``putuh_optional`` alone the window opens only when someone holds a putuh and asks
only the holders, so the table learns that one was dealt. With ``ask_all_seats`` (the
default for new games) it opens at every deal and asks every seat in turn: a deal where
nobody holds putuh looks, to every other seat, exactly like one where a seat holds one and
passes.
"""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest

import folkdeck
from folkdeck.engine.conformance import check_view_to_act
from folkdeck.engine.errors import IllegalActionError, InvalidDealError, NotYourTurnError, WrongPhaseError
from folkdeck.engine.facts import Leads, Passed, Revealed
from folkdeck.engine.options import record_defaults
from folkdeck.engine.record import Record, loads
from folkdeck.games.kaphai.actions import PASS, PUTUH
from folkdeck.games.kaphai.determinize import DETERMINIZER
from folkdeck.games.kaphai.events import PutuhCall, PutuhDeclared, PutuhWindow, PutuhWon
from folkdeck.games.kaphai.game import KapHaiGame
from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import mask, putuh
from folkdeck.games.kaphai.state import KapHaiState

from .conftest import deal

# Seat 0 and seat 3 hold the same cards in both deals; seats 1 and 2 swap cards so that in
# the second deal seat 2 holds the four 2s (putuh E, docs/rules/kaphai.md §4.1) and in the first nobody
# holds a putuh.
_NONE = ["3D 4C 5C 6D 6H 7H JC JD JH KS AS AC AD",
         "3S 3C 7D 8H 9C 9H QH KC KD KH AH 2S 2C",
         "4S 4D 4H 5S 6C 7S 9S 10S 10D 10H QS 2D 2H",
         "3H 5D 5H 6S 7C 8S 8C 8D 9D 10C JS QC QD"]
_HELD = [_NONE[0],
         "3S 3C 4D 6C 7D 8H 9C 9H QH KC KD KH AH",
         "4S 4H 5S 7S 9S 10S 10D 10H QS 2S 2C 2D 2H",
         _NONE[3]]


def _views(state: Any, seat: int | None) -> str:
    return json.dumps(state.observe(seat).to_dict(), sort_keys=True)


def test_the_deals_are_what_the_test_needs() -> None:
    assert all(putuh(mask(h), False) is None for h in _NONE)
    assert sorted(" ".join(_NONE).split()) == sorted(" ".join(_HELD).split())
    held = [putuh(mask(h), False) for h in _HELD]
    assert held[0] is None and held[1] is None and held[3] is None and held[2] is not None


def test_ask_all_seats_is_on_for_new_games_and_off_for_old_records() -> None:
    assert KapHaiOptions().ask_all_seats is True
    assert record_defaults(KapHaiOptions) == {"ask_all_seats": False}


def test_the_window_asks_every_seat_in_turn_from_the_leader() -> None:
    state = deal(_NONE, leader=2, putuh_optional=True)
    assert state.phase == "putuh"
    for seat in (2, 3, 0, 1):
        assert state.to_act == (seat,) and state.legal_actions(seat) == (PASS,)
        for viewer in (None, 0, 1, 2, 3):
            view = state.observe(viewer)
            assert view.to_act == (seat,) and view.status == (PutuhWindow(all_seats=True),)
        check_view_to_act(state)
        with pytest.raises(IllegalActionError) as info:
            state.apply(PUTUH, seat)
        assert info.value.reason == "kaphai.no_putuh"
        other = (seat + 1) % 4
        with pytest.raises(NotYourTurnError) as turn:
            state.apply(PASS, other)
        assert turn.value.params["to_act"] == [seat]
        event = state.apply(PASS, seat)
    assert event.facts == (Leads(seat=2),)
    assert state.phase == "play" and state.to_act == (2,)


def test_nobody_can_tell_a_declined_putuh_from_none() -> None:
    """Seats 0 and 3 (whose hands are alike) and spectators see the same views and histories in both deals, at
    every step of the window and after the first lead; only seat 2 sees its right."""
    none = deal(_NONE, putuh_optional=True)
    held = deal(_HELD, putuh_optional=True)
    assert held.legal_actions(2) == () and none.legal_actions(2) == ()
    for seat in range(4):
        for viewer in (None, 0, 3):
            assert _views(none, viewer) == _views(held, viewer), (seat, viewer)
        assert none.to_act == held.to_act == (seat,)
        if seat == 2:
            assert held.legal_actions(2) == (PUTUH, PASS) and none.legal_actions(2) == (PASS,)
            assert held.observe(2).legal_actions == ("putuh", "pass")
        for state in (none, held):
            state.apply(PASS, seat)
    for state in (none, held):
        state.apply(state.parse_action("3D"))
    for viewer in (None, 0, 3):  # (seat 1's own hand differs between the deals)
        assert _views(none, viewer) == _views(held, viewer)
    assert [v.act for v in held.observe(0).history[:4]] == [Passed(seat=s) for s in range(4)]


def test_a_declaration_in_the_window_wins_and_shows_the_hand() -> None:
    state = deal(_HELD, putuh_optional=True)
    state.apply(PASS, 0)
    state.apply(PASS, 1)
    assert state.apply(PUTUH, 2).facts == (PutuhDeclared(seat=2, pattern="four_twos"),)
    last = state.apply(PASS, 3)
    assert last.facts[-3:-1] == (Revealed(seat=2, cards=state.hand(2)), PutuhWon(winners=(2,)))
    result = state.result()
    assert result is not None and result.placings == (None, None, 1, None)
    assert result.details["putuh"] == {"2": "four_twos"}
    assert PutuhWon(winners=(2,)) in state.observe(0).status
    assert state.observe(0).history[2].act == PutuhCall(seat=2)


def test_without_ask_all_seats_the_old_window_is_kept() -> None:
    """Records written before the option replay unchanged: no window without a putuh."""
    assert deal(_NONE, putuh_optional=True, ask_all_seats=False).phase == "play"
    old = deal(_HELD, putuh_optional=True, ask_all_seats=False)
    assert old.phase == "putuh" and old.to_act == (2,) and old.observe(0).to_act == ()
    with pytest.raises(NotYourTurnError) as info:
        old.apply(PASS, 0)
    assert info.value.reason == "kaphai.not_your_turn_window" and "to_act" not in info.value.params


def test_an_old_record_with_putuh_optional_replays_as_it_was_played() -> None:
    game = folkdeck.load("kaphai", putuh_optional=True, ask_all_seats=False)
    state = game.new_state(hands=_HELD, setup={"three_game": False, "leader": 0})
    state.apply(PASS, 2)
    state.apply(state.parse_action("3D"))
    data = Record.from_state(state).to_dict()
    rules = data["rules"]
    assert isinstance(rules, dict) and rules["ask_all_seats"] is False, "new records name the option"
    del rules["ask_all_seats"]  # as a record written before the option
    again = loads(json.dumps(data)).replay()
    assert [e.line for e in again.history] == ["2: pass", "0: 3D"]


# --- worlds built from a view (KapHaiState.from_view) -------------------------------------

@pytest.mark.parametrize("preset", [None, "local", "declared_putuh"], ids=str)
def test_a_world_from_a_view_looks_the_same_to_its_seat(preset: str | None) -> None:
    game = cast(KapHaiGame, folkdeck.load("kaphai", preset))
    rng = random.Random(9)
    for seed in range(15):
        state = game.new_state(seed=seed)
        while not state.is_over():
            if state.phase == "play":
                seat = state.current_seat
                assert seat is not None
                view = state.observe(seat)
                world = DETERMINIZER.determinize(game, view, rng)
                assert world.observe(seat).to_dict() == view.to_dict()
                assert world.hand(seat) == state.hand(seat)
                assert sorted(map(str, world.all_cards()["hand " + str((seat + 1) % 4)])) != [] or \
                    view.counts[(seat + 1) % 4] == 0
                twin = world.clone()
                legal = twin.legal_actions()
                twin.apply(legal[0])
                assert world.observe(seat).to_dict() == view.to_dict(), "a clone's move changed the world"
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def test_shown_threes_stay_with_their_holder_in_every_world() -> None:
    """three_game_shed_threes=false: the 3s are shown, not put out (docs/rules/kaphai.md §8.7), so a world
    deals them to the seat that showed them."""
    game = cast(KapHaiGame, folkdeck.load("kaphai", three_game_shed_threes=False))
    state = game.new_state(seed=4)
    seat = state.current_seat
    assert seat is not None
    holders = {str(c): s for s in range(4) for c in state.hand(s) if str(c).startswith("3") and s != seat}
    assert holders
    for i in range(20):
        world = DETERMINIZER.determinize(game, state.observe(seat), random.Random(i))
        for card, s in holders.items():
            assert card in {str(c) for c in world.hand(s)}


def test_from_view_refuses_hands_that_do_not_fit_and_views_it_cannot_use() -> None:
    game = cast(KapHaiGame, folkdeck.load("kaphai"))
    state = game.new_state(seed=2)
    seat = state.current_seat
    assert seat is not None
    view = state.observe(seat)
    hands = [mask(" ".join(map(str, state.hand(s)))) for s in range(4)]
    assert KapHaiState.from_view(game, view, hands=hands).observe(seat).to_dict() == view.to_dict()
    other = (seat + 1) % 4
    short = list(hands)
    short[other] &= short[other] - 1  # one card fewer than the view counts
    with pytest.raises(InvalidDealError) as info:
        KapHaiState.from_view(game, view, hands=short)
    assert info.value.params["field"] == f"hands[{other}]"
    with pytest.raises(WrongPhaseError):
        KapHaiState.from_view(game, state.observe(None), hands=hands)
    window = cast(KapHaiGame, folkdeck.load("kaphai", putuh_optional=True)).new_state(seed=2)
    with pytest.raises(WrongPhaseError):
        DETERMINIZER.determinize(game, window.observe(0), random.Random(1))
