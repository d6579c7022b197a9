"""The toy game's trick-game kit (:mod:`tests.toy_game.kit`), piece by piece.

``tests/toy_game/`` holds a whole game made with it to every check a registered game
passes; here each piece is held to what it promises on its own: the deal reader's coded
refusals (each naming its field, each worded in both catalogs), the deal from a deck,
the rules given as functions (a follow-suit rule, a setup of its own, a carry-over), the
state's refusals, and the determinizer's worlds. The games here are made up to exercise
the kit (no public source): "high card" with the French 52 pack, and a variant that must
follow the suit led.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from folkdeck.cards import FRENCH_52, Card, parse_card, parse_cards
from folkdeck.engine.errors import IllegalActionError, InvalidDealError, NotYourTurnError
from folkdeck.engine.facts import NextDeal, Played
from folkdeck.engine.match_base import CarryOver, DealSetup
from folkdeck.engine.playout import random_playout
from folkdeck.engine.protocol import Result, State
from folkdeck.i18n import catalog
from tests.toy_game.kit import (
    EXAMPLE_SPEC,
    ExampleOptions,
    Play,
    TrickGame,
    TrickRules,
    TrickState,
    highest,
)
from tests.toy_game.kit.worlds import DETERMINIZER, unseen

STRENGTH = {card: i for i, card in enumerate(FRENCH_52.cards)}


def strength(card: Card) -> int:
    return STRENGTH[card]


def follow_suit(hand: Sequence[Card], trick: Sequence[tuple[int, Card]]) -> Sequence[Card]:
    """A card of the suit led when the hand has one."""
    same = [c for c in hand if trick and c.suit == trick[0][1].suit]
    return same or hand


def highest_of_suit_led(trick: Sequence[tuple[int, Card]]) -> int:
    led = trick[0][1].suit
    return max((play for play in trick if play[1].suit == led), key=lambda play: strength(play[1]))[0]


def game(players: int = 2, hand_size: int = 3, **rules: Any) -> TrickGame:
    made = TrickRules(pack=FRENCH_52, hand_size=hand_size, strength=strength, winner=highest(strength))
    if rules:
        made = TrickRules(**{**{k: getattr(made, k) for k in made.__dataclass_fields__}, **rules})
    return TrickGame(EXAMPLE_SPEC, ExampleOptions(players=players, hand_size=hand_size), made)


def refused(deal: Mapping[str, Any], players: int = 2, hand_size: int = 3) -> tuple[str, str]:
    with pytest.raises(InvalidDealError) as info:
        game(players, hand_size).new_state(**deal)
    reason, field = info.value.reason, info.value.params["field"]
    for lang in ("en", "ja"):  # worded in both catalogs, every placeholder filled
        text = info.value.render(lang)
        assert f"error.{reason}" in catalog(lang) and "{" not in text, (lang, text)
    return reason, field


# --- the deal reader -------------------------------------------------------------------------


def test_a_deck_with_a_card_twice_or_missing_is_refused_naming_the_deck() -> None:
    whole = [str(c) for c in FRENCH_52.cards]
    assert refused({"deck": [*whole[1:], whole[5]]}) == ("deal.whole_pack", "deck")  # 5 twice, 0 missing
    assert refused({"deck": whole[1:]}) == ("deal.whole_pack", "deck")
    assert refused({"deck": [*whole[1:], "BJ"]}) == ("deal.whole_pack", "deck")  # a card of another pack
    assert refused({"deck": [*whole[1:], "ZZ"]})[1] == "deck"  # not a card at all


def test_given_hands_are_refused_with_the_kits_reasons_naming_the_field() -> None:
    assert refused({"hands": ["AS KS QS"]}) == ("deal.hands_count", "hands")
    assert refused({"hands": "AS KS QS"}) == ("not_list_of_hands", "hands")
    assert refused({"hands": 3}) == ("not_list_of_hands", "hands")
    assert refused({"hands": ["AS KS QS", "2C 3C"]}) == ("deal.hand_cards", "hands[1]")
    assert refused({"hands": ["AS KS QS", "AS 3C 4C"]}) == ("too_many_copies", "hands")
    assert refused({"hands": ["AS KS QS", "BJ 3C 4C"]}) == ("not_in_pack", "hands[1]")
    assert refused({"hands": ["AS KS QS", 7]}) == ("not_card_list", "hands[1]")
    assert refused({"hands": ["AS KS QS", "2C 3C 4C"], "stock": ["5C"]}) == ("deal.no_stock", "stock")


def test_a_setup_takes_only_the_rules_keys_each_a_seat_at_the_table() -> None:
    assert refused({"seed": 1, "setup": {"dealer": 1}}) == ("deal.setup_key", "setup.dealer")
    assert refused({"seed": 1, "setup": {"leader": 2}}) == ("deal.setup_seat", "setup.leader")
    assert refused({"seed": 1, "setup": {"leader": True}}) == ("deal.setup_seat", "setup.leader")
    assert refused({"seed": 1, "setup": ["leader"]}) == ("not_object", "setup")
    assert game().new_state(seed=1, setup={"leader": 1}).current_seat == 1
    assert game().new_state(seed=1).deal_info()["setup"] == {"leader": 0}


def test_a_deck_is_dealt_one_card_at_a_time_and_the_rest_stays_undealt() -> None:
    deck = list(reversed(FRENCH_52.cards))
    state = game(players=3, hand_size=4).new_state(deck=deck)
    assert [list(h) for h in state.deal.start] == [deck[s:12:3] for s in range(3)]
    assert list(state.deal.undealt) == deck[12:]
    hands = [[str(c) for c in h] for h in state.deal.start]
    again = game(players=3, hand_size=4).new_state(hands=hands)
    assert Counter(again.deal.undealt) == Counter(deck[12:]) and again.deal.start == state.deal.start


def test_the_same_seed_deals_the_same_hands_and_another_seed_others() -> None:
    a, b, c = (game().new_state(seed=s).deal.start for s in (7, 7, 8))
    assert a == b and a != c


# --- the rules as functions ------------------------------------------------------------------


def test_a_follow_suit_rule_narrows_the_legal_cards_and_refuses_the_others() -> None:
    state = game(playable=follow_suit, winner=highest_of_suit_led).new_state(hands=["AS 2C 3D", "KS 4S 5C"])
    state.apply(Play(parse_card("2C")))
    assert [str(a) for a in state.legal_actions()] == ["5C"]
    with pytest.raises(IllegalActionError) as info:
        state.apply(Play(parse_card("KS")))
    assert info.value.reason == "not_playable" and dict(info.value.params) == {"seat": 1, "action": "KS"}
    assert info.value.render("en") == "KS may not be played now"
    event = state.apply(Play(parse_card("5C")))
    assert [f.type for f in event.facts] == ["trick_won"] and state.current_seat == 1  # 5C beats 2C


def test_the_kits_refusals_are_the_engines_shared_ones_without_a_game_prefix() -> None:
    state = game().new_state(hands=["AS KS QS", "2C 3C 4C"])
    with pytest.raises(NotYourTurnError) as turn:
        state.verify(Play(parse_card("2C")), 1)
    assert turn.value.reason == "not_your_turn" and dict(turn.value.params) == {"seat": 1, "to_act": [0],
                                                                                  "action": "2C"}
    with pytest.raises(IllegalActionError) as held:
        state.verify(Play(parse_card("2C")), 0)
    assert held.value.reason == "not_held" and held.value.render("en", viewer=0) == "you do not hold 2C"
    with pytest.raises(IllegalActionError) as other:
        state.verify("pass", 0)  # any action type-checks; the state refuses it
    assert other.value.reason == "not_an_action" and other.value.render("ja") == "passはこのゲームの操作ではありません"


def test_a_game_gives_its_own_setup_first_leader_and_scoring() -> None:
    def after_dealer(setup: Mapping[str, int]) -> int:
        return (setup["dealer"] + 1) % 3

    def fewest_tricks(tricks: Sequence[int]) -> Result:
        return Result(placings=tuple(1 + sum(o < t for o in tricks) for t in tricks),
                      returns=tuple(-float(t) for t in tricks), reason="fewest_tricks")

    made = game(players=3, hand_size=2, setup={"dealer": 0}, first=after_dealer, score=fewest_tricks)
    state = made.new_state(seed=3, setup={"dealer": 2})
    assert state.current_seat == 0 and state.observe(None).setup == {"dealer": 2}
    random_playout(state, random.Random(1))
    result = state.result()
    assert result is not None and result.reason == "fewest_tricks" and sum(result.returns) == -2
    assert state.history[-1].facts[-1].to_dict()["reason"] == "fewest_tricks"


class WinnerLeads(CarryOver):
    """The last deal's winner leads the next one."""

    def __init__(self) -> None:
        self.leader = 0

    def next_setup(self) -> DealSetup:
        return DealSetup(given={"leader": self.leader}, checked={"leader": self.leader})

    def after_deal(self, state: State, result: Result, *, last: bool) -> list[Any]:
        self.leader = result.placings.index(1)
        return [NextDeal(leader=self.leader)]


def test_a_match_takes_the_rules_carry_over() -> None:
    made = game(carry=WinnerLeads)
    match = made.new_match(deals=3, rng=random.Random(2))
    leaders, winners = [], []
    while not match.is_over():
        state = match.next_deal()
        leaders.append(state.current_seat)
        random_playout(state, random.Random(len(leaders)))
        facts = match.finish_deal(state)
        winners += [f.leader for f in facts if isinstance(f, NextDeal)]
    assert leaders == [0, *winners[:-1]] and match.standings().deals_played == 3


# --- the determinizer ------------------------------------------------------------------------


def _positions(made: TrickGame, seeds: range) -> list[TrickState]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = made.new_state(seed=seed)
        for _ in range(rng.randrange(1, made.num_players * made.rules.hand_size)):  # not to the end
            state.apply(rng.choice(state.legal_actions()))
        out.append(state)
    return out


def test_the_determinizer_never_gives_a_seat_a_card_it_was_seen_playing() -> None:
    """Every world keeps the viewer's hand, gives each other seat as many cards as it
    holds, none of them a card already played (by anyone), and holds the whole pack."""
    made = game(players=3, hand_size=5)
    for state in _positions(made, range(20)):
        seat = state.current_seat
        assert seat is not None
        view = state.observe(seat)
        played = {c for e in view.history if isinstance(e.act, Played) for c in e.act.cards}
        assert set(unseen(made, view)) == set(FRENCH_52.cards) - played - set(view.hand or ())
        sample = DETERMINIZER.worlds(made, view)
        for i in range(10):
            world = sample(random.Random(i))
            assert isinstance(world, TrickState) and world.deal.hands[seat] == list(view.hand or ())
            for other in range(3):
                assert len(world.deal.hands[other]) == len(state.deal.hands[other])
                assert not played & set(world.deal.hands[other]), "a world gave back a played card"
            assert Counter(c for cards in world.all_cards().values() for c in cards) == FRENCH_52.counts
            assert world.observe(seat).to_dict() == view.to_dict()


def test_the_determinizer_refuses_a_spectators_view_or_another_games() -> None:
    made = game()
    state = made.new_state(seed=1)
    assert not DETERMINIZER.is_searchable(state.observe(None)) and DETERMINIZER.is_searchable(state.observe(0))
    with pytest.raises(TypeError):
        DETERMINIZER.worlds(made, state.observe(None))
    other = TrickGame(EXAMPLE_SPEC.__class__(**{**{k: getattr(EXAMPLE_SPEC, k)
                                                   for k in EXAMPLE_SPEC.__dataclass_fields__},
                                                "name": "another"}), made.options, made.rules)
    with pytest.raises(TypeError):
        DETERMINIZER.worlds(other, state.observe(0))


def test_a_world_replays_the_views_history_as_plays() -> None:
    made = game(players=2, hand_size=4)
    state = made.new_state(hands=["AS KS QS JS", "2C 3C 4C 5C"])
    for card in ("AS", "2C", "KS"):
        state.apply(Play(parse_card(card)))
    world = DETERMINIZER.determinize(made, state.observe(1), random.Random(0))
    assert [str(e) for e in world.history] == [str(e) for e in state.history]
    assert world.deal.won == list(parse_cards("AS 2C")) and world.deal.trick == [(0, parse_card("KS"))]
    assert world.deal.tricks == [1, 0] and world.current_seat == 1
