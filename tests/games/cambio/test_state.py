"""Cambio deal flow: turn order, the owl window, errors, views, records of a deal."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from folkdeck import load
from folkdeck.cards import parse_card
from folkdeck.engine.conformance import random_playout
from folkdeck.engine.errors import (
    IllegalActionError,
    InvalidConfigError,
    InvalidDealError,
    NotYourTurnError,
    WrongPhaseError,
)
from folkdeck.engine.protocol import State
from folkdeck.engine.record import Record, dumps, loads
from folkdeck.games.cambio import CHANGE, CUCCO, KEEP, CambioGame, CambioState
from folkdeck.games.cambio.events import PassedOn, RequestLapsed, Reshuffled
from folkdeck.games.cambio.options import PRESETS


def deal(hands: list[str], stock: list[str] | None = None, **setup: object) -> State:
    game = load("cambio", players=len(hands))
    return game.new_state(hands=[[h] if h else [] for h in hands], stock=stock, setup=setup)


def test_turn_order_from_dealers_right_dealer_last() -> None:
    # docs/rules/cambio.md §4.1, §4.2 "親の右隣のプレイヤーから…最後に親が山札と交換"
    state = load("cambio", players=5).new_state(seed=3, setup={"dealer": 2})
    seen = []
    while not state.is_over():
        seen.append(state.current_seat)
        state.apply(KEEP)
    assert seen == [3, 4, 0, 1, 2]


def test_disqualified_player_loses_its_turn() -> None:
    # docs/rules/cambio.md §5.3 midgame_loss=continue: turns skip the disqualified
    state = deal(["FOOL", "5", "7"], ["3"], dealer=2)
    state.apply(CHANGE)
    assert state.current_seat == 2
    with pytest.raises(NotYourTurnError, match="disqualified"):
        state.apply(KEEP, 1)


def test_owl_window_lists_other_owl_holders() -> None:
    # docs/rules/cambio.md §4.3, §6.17 梟 "いつでも": to_act = the seat on turn, then OWL holders
    state = deal(["OWL", "3", "OWL", "5"], ["2"], dealer=3)
    assert state.to_act == (0, 2)
    assert state.legal_actions(0) == (CHANGE, KEEP, CUCCO)
    assert state.legal_actions(2) == (CUCCO,)
    assert state.legal_actions(1) == ()


def test_errors_explain_refusals() -> None:
    state = deal(["2", "5", "OWL"], ["3"], dealer=2)
    with pytest.raises(IllegalActionError, match="only a player holding an OWL"):
        state.apply(CUCCO, 1)
    with pytest.raises(NotYourTurnError, match="it is seat 0's turn.*may call cucco"):
        state.apply(CHANGE, 2)
    before = state.observe(None).to_dict()
    with pytest.raises(NotYourTurnError):
        state.apply(KEEP, 1)
    assert state.observe(None).to_dict() == before
    state.apply(CUCCO, 2)
    with pytest.raises(WrongPhaseError, match="the deal is over"):
        state.apply(KEEP)


def test_event_explains_horse() -> None:
    state = deal(["2", "5", "HORSE", "9"], ["3"], dealer=3)
    state.apply(KEEP)
    event = state.apply(CHANGE)
    assert PassedOn(seat=2, card=parse_card("HORSE"), requester=1, to=3) in event.facts


def test_view_hides_other_cards_until_shown() -> None:
    state = deal(["2", "HORSE", "5"], ["3"], dealer=2)
    view = state.observe(0).to_dict()
    assert view["hand"] == ["2"] and view["shown"] == [] and view["known"] == []
    assert state.observe(1).to_dict()["hand"] == ["HORSE"] and state.observe(None).to_dict()["hand"] is None
    state.apply(CHANGE)  # the HORSE names itself (docs/rules/cambio.md §6.18: 馬か家かを明確に)
    assert state.observe(0).to_dict()["shown"] == [[1, "HORSE"]]
    assert state.observe(1).to_dict()["known"] == []
    assert state.observe(0).to_dict()["known"] == [[2, "2"]]   # seat 0 gave its 2 to seat 2
    assert [str(c) for c in state.hidden_cards(0)] == ["3"]  # the stock; seat 2 got seat 0's 2


def test_known_card_follows_exchanges() -> None:
    state = deal(["2", "7", "9", "4"], ["3"], dealer=3)
    state.apply(CHANGE)   # 0 <-> 1: seat 1 holds the 2
    state.apply(CHANGE)   # 1 <-> 2: the 2 moves on to seat 2
    assert state.observe(0).to_dict()["known"] == [[2, "2"]]


def test_result_and_returns() -> None:
    state = deal(["2", "7", "5"], ["3"], dealer=2)
    for _ in range(3):
        state.apply(KEEP)
    result = state.result()
    assert result is not None
    assert result.placings == (2, 1, 1) and result.returns == (-1.0, 0.0, 0.0)
    assert result.details["loser_pays"] == 1


def test_eliminated_seat_not_placed() -> None:
    state = deal(["2", "", "5"], ["3"], dealer=2, deal=4)
    while not state.is_over():
        state.apply(KEEP)
    result = state.result()
    assert result is not None and result.placings == (2, None, 1)
    assert result.details["loser_pays"] == "eliminated"


def test_stock_runs_out_mid_deal() -> None:
    # docs/rules/cambio.md §6.9: an empty stock is refilled from the discards, by setup.reshuffle_seed
    state = deal(["2", "5"], [], dealer=1)
    state.apply(KEEP)
    event = state.apply(CHANGE)
    assert Reshuffled(count=38) in event.facts   # every card outside the two hands
    again = loads(dumps(Record.from_state(state))).replay()
    assert [str(e) for e in again.history] == [str(e) for e in state.history]


def test_setup_errors_name_the_field() -> None:
    game = load("cambio", players=3)
    with pytest.raises(InvalidDealError) as err:
        game.new_state(hands=[["2"], ["3"], ["4", "5"]])
    assert err.value.details["field"] == "hands[2]"
    with pytest.raises(InvalidDealError) as err:
        game.new_state(hands=[["OWL"], ["OWL"], ["4"]], stock=["OWL"])
    assert err.value.details["field"] == "hands[1]"  # the stock counted first: the hand that goes over
    with pytest.raises(InvalidDealError) as err:
        game.new_state(hands=[["OWL"], ["4"], ["5"]], stock=["OWL", "OWL"])
    assert err.value.details["field"] == "hands[0]"
    with pytest.raises(InvalidDealError) as err:
        game.new_state(hands=[["4"], ["5"], ["6"]], stock=["OWL", "OWL", "OWL"])
    assert err.value.details["field"] == "stock"
    with pytest.raises(InvalidDealError) as err:
        game.new_state(seed=1, setup={"dealer": 3})
    assert err.value.details["field"] == "setup.dealer"
    with pytest.raises(InvalidDealError) as err:
        game.new_state(seed=1, setup={"banker": 1})
    assert err.value.details["field"] == "setup.banker"
    with pytest.raises(InvalidDealError) as err:
        game.new_state(hands=[["2"], [], ["3"]], setup={"eliminated": [0]})
    assert err.value.details["field"] == "setup.eliminated"


def test_options_refused() -> None:
    # pack=nifty44 is implemented (docs/rules/cambio.md §1.3; see test_nifty44.py); 40 players need it
    with pytest.raises(InvalidConfigError, match="2 to 39 players"):
        load("cambio", players=40)
    with pytest.raises(InvalidConfigError, match="2 to 43 players"):
        load("cambio", pack="nifty44", players=44)
    with pytest.raises(InvalidConfigError, match="2 to 39 players"):
        load("cambio", players=1)


def test_seed_and_deck_agree() -> None:
    # the lazily shuffled stock of a seeded deal is a real order: the record's deck replays it
    game = load("cambio")
    for seed in range(30):
        a = game.new_state(seed=seed)
        random_playout(a, random.Random(seed))
        info = a.deal_info()
        order = [h[0] for h in info["hands"][1:] + info["hands"][:1]] + info["stock"]
        b = game.new_state(deck=order)
        for e in a.history:
            b.apply(e.action, e.seat)
        assert [str(e) for e in b.history] == [str(e) for e in a.history]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 5, 12, 39])
def test_random_deals_conserve_cards_and_round_trip(preset: str, players: int) -> None:
    game = cast(CambioGame, load("cambio", preset=preset, players=players))
    for seed in range(25):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            counts = Counter(c for cards in state.all_cards().values() for c in cards)
            assert counts == Counter(game.pack.pack.cards)   # 40, or 44 for nifty44 (docs/rules/cambio.md §1)
            if len(state.to_act) > 1 and rng.random() < 0.3:
                seat = state.to_act[1]
                state.apply(state.legal_actions(seat)[0], seat)
                continue
            clone = state.clone()
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            assert len(clone.history) == len(state.history) - 1
        again = loads(dumps(Record.from_state(state))).replay()
        assert again.result() == state.result()


def test_request_lapses_when_only_horses_and_houses_are_left() -> None:
    # engine choice (docs): 36 players hold every card but the HORSEs and HOUSEs
    names = ["FOOL", "LION", "MASK", "BUCKET", *map(str, range(11)), "CAT", "MAN", "OWL"]
    hands = [n for n in names for _ in range(2)][:36]
    game = load("cambio", players=36)
    state = game.new_state(hands=[[h] for h in hands], stock=["HORSE", "HOUSE", "HORSE", "HOUSE"],
                           setup={"dealer": 0})
    while state.current_seat != 0:
        state.apply(KEEP)
    event = state.apply(CHANGE)
    assert RequestLapsed(seat=0) in event.facts and state.is_over()


def test_match_deal_record_round_trips() -> None:
    match = cast(CambioGame, load("cambio", players=4)).new_match(rng=random.Random(3))
    for _ in range(6):
        state = match.next_deal()
        random_playout(state, random.Random(1))
        again = cast(CambioState, loads(dumps(Record.from_state(state))).replay())
        (h1, s1, d1), (h2, s2, d2) = again.piles(), state.piles()
        assert again.result() == state.result()
        assert (h1, s1, sorted(d1)) == (h2, s2, sorted(d2))  # the discards' order is no matter
        match.finish_deal(state)


@given(st.integers(2, 7), st.integers(0, 2**32), st.lists(st.integers(0, 9), max_size=12),
       st.sampled_from(sorted(PRESETS)))
@settings(max_examples=150, deadline=None)
def test_property_any_deal_ends_cleanly(players: int, shuffle: int, choices: list[int],
                                       preset: str) -> None:
    # every deal ends within one declaration per player; cards are conserved; every
    # disqualified player is a loser; at most the seats in the deal are placed
    game = cast(CambioGame, load("cambio", preset=preset, players=players))
    state = game.new_state(seed=shuffle, setup={"dealer": shuffle % players})
    steps = 0
    moves = iter(choices)
    while not state.is_over():
        pick = next(moves, 0)
        seat = state.to_act[pick % len(state.to_act)] if pick >= 5 else state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(legal[pick % len(legal)], seat)
        steps += 1
        assert steps <= players
    counts = Counter(c for cards in state.all_cards().values() for c in cards)
    assert counts == Counter(game.pack.pack.cards)
    result = state.result()
    assert result is not None
    assert set(map(int, result.details["disqualified"])) <= set(result.details["losers"])
    assert all((p is None) == (not state.deal_info()["hands"][s]) for s, p in enumerate(result.placings))


def _callers_from_the_public_view(view: object) -> tuple[int, ...]:
    """The seats a request could still reach as a spectator reads them: the active seats
    after the seat on turn in the deal's order (the dealer's right first), less those whose
    card is shown and no OWL."""
    v: Any = view
    if v.current_seat is None:
        return ()
    n = v.num_players
    order = [s % n for s in range(v.dealer + 1, v.dealer + n + 1) if s % n in v.active]
    shown = dict(v.shown)
    return tuple(s for s in order[order.index(v.current_seat) + 1:] if shown.get(s, "OWL") == "OWL")


@pytest.mark.parametrize("players", [3, 4, 6])
def test_possible_callers_follow_from_public_facts_only(players: int) -> None:
    """The server gives every person among ``possible_callers`` the same moment to call cucco
    before a bot speaks (docs/rules/cambio.md §4.3): so it must be what a spectator can work
    out, never who holds an OWL; and every OWL holder whose call still matters is among them."""
    game = load("cambio", players=players)
    rng = random.Random(players)
    checked = 0
    for seed in range(150):
        state: Any = game.new_match(rng=random.Random(seed)).next_deal()
        while not state.is_over():
            callers = state.possible_callers()
            assert callers == _callers_from_the_public_view(state.observe(None))
            assert state.current_seat not in callers
            owls = [s for s in state.to_act[1:] if state.deal.index[s] > state.deal.index[state.current_seat]]
            assert set(owls) <= set(callers)
            checked += bool(callers)
            seat = state.to_act[0]
            legal = [a for a in state.legal_actions(seat) if a != CUCCO]
            state.apply(rng.choice(legal), seat)
        assert state.possible_callers() == ()
    assert checked > 100
    assert load("cambio", players=players, owl_refuses_when_asked=True).new_state(seed=1).possible_callers() == ()
