"""Kap Hai deal flow: 3-games, leads, passing, going out, putuh, placings, matches."""

from __future__ import annotations

import random
from typing import cast

import pytest

import folkdeck
from folkdeck.cards import format_cards
from folkdeck.engine.errors import (
    IllegalActionError,
    InvalidConfigError,
    InvalidDealError,
    NotYourTurnError,
    WrongPhaseError,
)
from folkdeck.games.kaphai.actions import PASS, PUTUH
from folkdeck.games.kaphai.events import PutuhDeclared
from folkdeck.games.kaphai.game import KapHaiGame
from folkdeck.games.kaphai.rules import RANK_MASKS, mask
from folkdeck.sim.runner import play_deal

from .conftest import deal, play


def test_three_game_sheds_the_threes_and_3s_holder_leads_a_single() -> None:
    """docs/rules/kaphai.md §2.1: all 3s are put out; the 3S holder leads, a single card only."""
    state = deal(["4S 5S 3C", "3S 6C 7D 8H", "3D 3H 9S JC JD", "JS QC"], three_game=True)
    assert state.to_act == (1,)
    assert format_cards(state.observe(1).shed) == "3S 3C 3D 3H"
    assert all(not h & RANK_MASKS[0] for h in state.deal.hands)
    assert all(str(a).count(" ") == 0 for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="first lead must be a single"):
        state.apply(state.parse_action("6C 7D 8H"))
    play(state, "1: 6C", "2: 9S")
    play(state, "3: pass", "0: pass", "1: pass")
    assert state.to_act == (2,)
    assert any(" " in str(a) for a in state.legal_actions()), "later leads may be any shape"


def test_three_game_keeping_the_threes_option() -> None:
    """docs/rules/kaphai.md §8.7: three_game_shed_threes=false only shows the 3s."""
    state = deal(["4S 5S 3C", "3S 6C", "3D 9S", "JS"], three_game=True, three_game_shed_threes=False)
    assert state.deal.hands[1] & mask("3S") and state.to_act == (1,)


def test_three_game_without_3s_the_lowest_card_leads() -> None:
    """docs/rules/kaphai.md §8.12: with 3S out of play the holder of the lowest card leads."""
    state = deal(["9S 10S", "3C 7D", "5H 6S"], three_game=True)
    assert state.to_act == (1,)


def test_normal_deal_is_led_by_the_given_leader_and_leader_cannot_pass() -> None:
    """docs/rules/kaphai.md §2.2: the previous 1st place leads; §8.1: the leader must lead."""
    state = deal(["4S", "5S", "6S 7S", "8S"], leader=2)
    assert state.to_act == (2,)
    with pytest.raises(IllegalActionError, match="may not pass"):
        state.apply(PASS)
    assert PASS not in state.legal_actions()


def test_turn_order_is_seat_plus_one_and_skips_players_out() -> None:
    """docs/rules/kaphai.md §1.3: counter-clockwise = seat + 1; empty hands are skipped."""
    state = deal(["4S 9S 10S", "5S", "6S 2H", "7S 3D"])
    play(state, "0: 4S", "1: 5S")
    assert state.observe(None).out == (1,)
    play(state, "2: 6S", "3: 7S")
    assert state.to_act == (0,)
    play(state, "0: 9S", "2: pass", "3: pass")
    assert state.to_act == (0,), "seat 1 is out: seat 0 won the trick"


@pytest.mark.parametrize(("rule", "leader"), [("next_active", 2), ("left_of_out", 0)])
def test_lead_after_the_trick_winner_went_out(rule: str, leader: int) -> None:
    """docs/rules/kaphai.md §8.8 lead_after_out: the next active seat, or the one on the out player's left."""
    state = deal(["4S 9S", "2H", "6S 7C", "7S 8C"], lead_after_out=rule)
    play(state, "0: 4S", "1: 2H", "2: pass", "3: pass", "0: pass")
    assert state.to_act == (leader,) and state.top is None


def test_deal_ends_when_one_player_holds_cards_and_places_follow_going_out() -> None:
    """docs/rules/kaphai.md §2.4: places in the order players go out; the last holder is last."""
    state = deal(["4S", "5S 9D", "6S"])
    play(state, "0: 4S", "1: 5S", "2: 6S")
    result = state.result()
    assert state.is_over() and result is not None
    assert result.placings == (1, 3, 2)
    assert result.returns == (3.0, 1.0, 2.0)
    with pytest.raises(WrongPhaseError, match="over"):
        state.apply(PASS, 1)


def test_not_your_turn_and_cards_not_held_are_refused_without_change() -> None:
    state = deal(["4S 5S", "6S", "7S", "8S"])
    before = state.observe(None).to_dict()
    with pytest.raises(NotYourTurnError, match="seat 2 may not act now"):
        state.apply(state.parse_action("7S"), 2)
    with pytest.raises(IllegalActionError, match="does not hold 9H"):
        state.apply(state.parse_action("9H"))
    with pytest.raises(IllegalActionError, match="not a Kap Hai combination"):
        state.parse_action("4S 9H")
    assert state.observe(None).to_dict() == before


def test_putuh_wins_automatically_by_default() -> None:
    """docs/rules/kaphai.md §4.1, §4.3: the deal ends at once, the declarer alone is placed."""
    state = deal(["2S 2C 2D 2H 3S 4S 5S 6S 7S 8S 9S 10S JS",
                  "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC QS",
                  "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD KS",
                  "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH AS"])
    result = state.result()
    assert result is not None and result.placings == (1, None, None, None)
    assert result.details["shown"]["0"].startswith("3S")
    assert result.returns == (3.0, 2.0, 2.0, 2.0), "docs/rules/kaphai.md §8.14: others score as tied 2nd"


def _two_putuhs() -> list[str]:
    return ["2S 2C 2D 2H 3S 4S 5S 6S 7S 8S 9S 10S JS",          # E: four 2s
            "3C 3D 3H 4C 4D 4H 5C 5D 5H 6C 7C 8C 9C",           # B: three triples
            "6D 7D 8D 9D 10C JD QD KD AD 6H 10H QS AS",
            "7H 8H 9H 10D JC JH QC QH KS KC KH AC AH"]


def test_two_putuhs_the_higher_pattern_wins_or_both_share() -> None:
    """docs/rules/kaphai.md §4.2: E beats B; putuh_tie=shared_first makes both 1st."""
    result = deal(_two_putuhs()).result()
    assert result is not None and result.placings == (1, None, None, None)
    shared = deal(_two_putuhs(), putuh_tie="shared_first").result()
    assert shared is not None and shared.placings == (1, 1, None, None)


def test_optional_putuh_is_a_declaration_window() -> None:
    """docs/rules/kaphai.md §4.3, §8.5 putuh_optional: eligible seats declare or pass before the first lead
    (ask_all_seats off: only the holders are asked, as records before the option were)."""
    state = deal(_two_putuhs(), putuh_optional=True, ask_all_seats=False)
    assert state.phase == "putuh" and state.to_act == (0, 1)
    assert state.legal_actions(0) == (PUTUH, PASS)
    state.apply(PASS, 0)
    event = state.apply(PUTUH, 1)
    assert event.facts[0] == PutuhDeclared(seat=1, pattern="three_triples")
    result = state.result()
    assert result is not None and result.placings == (None, 1, None, None)


def test_optional_putuh_all_declined_goes_on_to_play() -> None:
    state = deal(_two_putuhs(), putuh_optional=True, ask_all_seats=False)
    state.apply(PASS, 1)
    state.apply(PASS, 0)
    assert state.phase == "play" and state.to_act == (0,)
    with pytest.raises(WrongPhaseError, match="before the first lead"):
        state.apply(PUTUH, 0)


def test_putuh_needs_a_full_dealt_hand() -> None:
    """A study position with short hands is not a dealt hand: no putuh (docs/rules/kaphai.md §8.13)."""
    state = deal(["2S 2C 2D 2H", "3S", "4S", "5S"])
    assert state.phase == "play"


@pytest.mark.parametrize(("players", "rule", "piles"), [
    (4, "first_two", [0, 1, 2, 3]), (3, "first_two", [0, 1, 2]),
    (2, "first_two", [0, 1]), (2, "alternate", [0, 2])])
def test_dealing_from_a_deck(players: int, rule: str, piles: list[int]) -> None:
    """docs/rules/kaphai.md §1.2: four piles of 13 dealt one card at a time; 3 players drop the last pile,
    2 players use two piles (docs/rules/kaphai.md §8.6, two_player_hands)."""
    deck = [str(c) for c in folkdeck.cards.FRENCH_52.cards]
    game = cast(KapHaiGame, folkdeck.load("kaphai", players=players, two_player_hands=rule))
    state = game.new_state(deck=deck, setup={"three_game": False})
    for seat, pile in enumerate(piles):
        assert len(state.hand(seat)) == 13
        assert {str(c) for c in state.hand(seat)} == set(deck[pile::4])
    assert len(state.all_cards()["undealt"]) == 52 - 13 * players


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"hands": ["3S", "3S", "4S", "5S"]}, "hands[1]"),
    ({"hands": ["3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S 3C", "4C", "5C", "6C"]}, "hands[0]"),
    ({"hands": ["3S", "4S"]}, "hands"),
    ({"hands": ["3S", "XX", "4S", "5S"]}, "hands[1]"),
    ({"deck": ["3S"] * 52}, "deck"),
    ({"hands": ["3S", "4S", "5S", "6S"], "setup": {"leader": 9}}, "setup.leader"),
    ({"hands": ["3S", "4S", "5S", "6S"], "setup": {"dealer": 1}}, "setup.dealer"),
    ({"hands": ["3S", "4S", "5S", "6S"], "stock": ["7S"]}, "stock"),
])
def test_bad_deals_name_the_field(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidDealError) as info:
        folkdeck.load("kaphai").new_state(**kwargs)  # type: ignore[arg-type]
    assert info.value.details["field"] == field


def test_bad_options_are_refused() -> None:
    with pytest.raises(InvalidConfigError, match="2, 3 or 4 players"):
        folkdeck.load("kaphai", players=5)
    with pytest.raises(InvalidConfigError, match="putuh_tie"):
        folkdeck.load("kaphai", putuh_tie="coin")
    with pytest.raises(InvalidConfigError, match="unknown preset"):
        folkdeck.load("kaphai", "fancy")


def test_views_hide_other_hands_and_list_legal_actions_only_on_turn() -> None:
    state = folkdeck.load("kaphai").new_state(seed=3)
    seat = state.current_seat
    assert seat is not None
    view = state.observe(seat).to_dict()
    assert view["legal_actions"] and view["hand"]
    other = (seat + 1) % 4
    assert state.observe(other).to_dict()["legal_actions"] == []
    assert state.observe(None).to_dict()["hand"] is None


def test_clone_is_independent() -> None:
    state = folkdeck.load("kaphai").new_state(seed=5)
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert len(state.history) == 0 and len(twin.history) == 1


def test_greedy_beats_random() -> None:
    """The greedy bot (issue 2) places better than random bots over seeded deals."""
    spec = folkdeck.get_spec("kaphai")
    game = folkdeck.load("kaphai")
    points = 0.0
    deals = 120
    for seed in range(deals):
        rng = random.Random(seed)
        agents = [spec.bots["random"]() for _ in range(4)]
        greedy_seat = seed % 4
        agents[greedy_seat] = spec.bots["greedy"]()
        state = play_deal(game.new_state(seed=seed), agents, rng)
        result = state.result()
        assert result is not None
        points += result.returns[greedy_seat]
    assert points / deals > 1.9, "random seats average 1.5 points (3+2+1+0)/4"


def test_match_carries_the_lead_and_the_three_game() -> None:
    """docs/rules/kaphai.md §2.2: the 1st place leads the next deal; after a putuh a 3-game (§2.1)."""
    game = cast(KapHaiGame, folkdeck.load("kaphai"))
    match = game.new_match(deals=3, rng=random.Random(1))
    spec = game.spec
    agents = [spec.bots["greedy"]() for _ in range(4)]
    first = match.next_deal()
    assert first.observe(None).three_game
    play_deal(first, agents, random.Random(2))
    match.finish_deal(first)
    second = match.next_deal()
    result = first.result()
    assert result is not None
    if result.reason == "out":
        assert not second.observe(None).three_game
        assert second.to_act == (result.placings.index(1),)
    play_deal(second, agents, random.Random(3))
    match.finish_deal(second)
    assert not match.is_over()
    third = match.next_deal()
    play_deal(third, agents, random.Random(4))
    match.finish_deal(third)
    returns = [r for s in (first, second, third) for r in s.result().returns]  # type: ignore[union-attr]
    assert match.is_over() and sum(match.points) == pytest.approx(sum(returns))
