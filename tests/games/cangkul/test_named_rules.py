"""Cangkul's trick rules, named in the rules module and read by the deal's transitions, the
state's checks, the heuristic bot and the rollout policy (issue 36, item 3): the cards that
follow the led suit (``FOLLOW``) and those that spare a seat digging (``PLAY_ON``,
docs/rules/cangkul.md §2.3, §2.4), the led suit a card sets (``LED_BY``, §3.2), and the
highest card of the led suit taking the trick, the joker above all (``takes_trick``, §2.5,
§3.2). The deal's transitions (games/cangkul/play.py) ask them too: each trick of a played
deal goes to its winner."""

from __future__ import annotations

import random

import pytest

from folkdeck import load
from folkdeck.cards import Card
from folkdeck.engine.facts import TrickWon
from folkdeck.games.cangkul.events import DrewAndPlayed
from folkdeck.games.cangkul.options import JokerPlay
from folkdeck.games.cangkul.rules import (
    FOLLOW,
    JOKER,
    JOKER_BIT,
    LED_BY,
    NO_SUIT,
    PLAY_ON,
    STRIDE,
    choices,
    deck_for,
    mask,
    takes_trick,
    trick_winner,
)

D = deck_for("french53")


def i(card: str) -> int:
    return D.index[Card.parse(card)]


HEARTS = i("2H") // STRIDE
JOKER_PLAYS: tuple[JokerPlay, ...] = ("anytime", "only_void", "must_when_void")


@pytest.mark.parametrize(("card", "led", "expected", "source"), [
    ("3H", HEARTS, True, "§2.3 a card of the led suit follows"),
    ("AS", HEARTS, False, "§2.3 a card of another suit does not, even an ace"),
    ("RJ", HEARTS, False, "§3.2 the joker is of no suit: when it may be played is choices'"),
    ("4S", NO_SUIT, True, "§2.3 the leader plays any card"),
    ("RJ", NO_SUIT, True, "§7.11 the joker may be led"),
])
def test_follow(card: str, led: int, expected: bool, source: str) -> None:
    assert bool(FOLLOW[led] >> i(card) & 1) is expected, source


@pytest.mark.parametrize(("hand", "led", "expected", "source"), [
    ("3H 4S", HEARTS, True, "§2.3 a seat that can follow plays"),
    ("4S 9C", HEARTS, False, "§2.3 a seat that cannot follow digs (§2.4: passes with the stock empty)"),
    ("4S RJ", HEARTS, True, "§3.2 the joker may be played on a led suit instead of digging"),
    ("4S", NO_SUIT, True, "§2.3 the leader plays any card"),
])
def test_play_on(hand: str, led: int, expected: bool, source: str) -> None:
    assert bool(mask(hand, D) & PLAY_ON[led]) is expected, source


@pytest.mark.parametrize(("card", "expected", "source"), [
    ("9H", HEARTS, "§2.3 the first card's suit is the led suit"),
    ("RJ", NO_SUIT, "§3.2 after a joker lead the next card's suit is the led suit"),
])
def test_led_by(card: str, expected: int, source: str) -> None:
    assert LED_BY[i(card)] == expected, source


@pytest.mark.parametrize("joker_play", JOKER_PLAYS)
def test_choices_is_made_of_the_named_rules(joker_play: JokerPlay) -> None:
    """What the deal and the state read instead of calling :func:`choices` agrees with it: a
    held card that follows may always be played, a seat holding nothing of ``PLAY_ON`` digs
    with nothing to play, and besides the cards that follow only the joker may be played."""
    rng = random.Random(36)
    cards = list(D.index.values())
    for _ in range(2000):
        hand = sum(1 << c for c in rng.sample(cards, rng.randint(1, 12)))
        for led in (NO_SUIT, 0, 1, 2, 3):
            allowed, dig = choices(hand, led, joker_play)
            assert hand & FOLLOW[led] & ~allowed == 0
            assert (allowed & ~FOLLOW[led]) in (0, JOKER_BIT)
            assert (not hand & PLAY_ON[led]) is ((allowed, dig) == (0, True))


@pytest.mark.parametrize(("card", "best", "led", "expected", "source"), [
    ("JH", "9H", "9H", True, "§2.5 the highest card of the led suit wins"),
    ("8H", "9H", "9H", False, "§2.5 a lower card of the led suit does not"),
    ("AS", "9H", "9H", False, "§2.5 another suit never wins, even an ace"),
    ("RJ", "AH", "9H", True, "§3.2 the joker is the highest card and wins"),
    ("2H", None, "2H", True, "§2.5 the lead is the best card so far"),
])
def test_takes_trick(card: str, best: str | None, led: str, expected: bool, source: str) -> None:
    assert takes_trick(i(card), -1 if best is None else i(best), i(led) // STRIDE) is expected, source


def test_a_card_takes_the_trick_only_from_a_lower_one() -> None:
    """§2.5, §3.2: the deal asks :func:`takes_trick` only for a card above the best so far."""
    cards = list(D.index.values())
    assert not any(takes_trick(c, best, s) for c in cards for best in cards if c < best for s in range(4))


def test_nothing_takes_a_trick_from_the_joker() -> None:
    """§3.2: once the joker is played, it wins."""
    assert not any(takes_trick(c, JOKER, s) for c in D.index.values() if c != JOKER for s in range(4))


def test_trick_winner_is_the_last_card_that_took_the_trick() -> None:
    rng = random.Random(36)
    cards = list(D.index.values())
    for _ in range(500):
        plays = list(enumerate(rng.sample(cards, rng.randint(1, 5))))
        suit = next((c // STRIDE for _, c in plays if c != JOKER), -1)
        best, seat = -1, plays[0][0]
        for s, c in plays:
            if takes_trick(c, best, suit):
                best, seat = c, s
        assert trick_winner(plays) == seat


@pytest.mark.parametrize("options", [{}, {"joker": True}, {"joker": True, "joker_play": "must_when_void"}])
def test_the_deal_gives_each_trick_to_the_trick_winner(options: dict[str, object]) -> None:
    """§2.5, §3.2: the seat a played deal names as the trick's winner is :func:`trick_winner`'s
    of the cards played to it (played from the hand, or drawn and played at once, §2.3)."""
    game = load("cangkul", None, **options)
    rng = random.Random(36)
    tricks = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        while not state.is_over():
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        plays: list[tuple[int, int]] = []
        for event in state.history:
            if isinstance(event.action, Card):
                plays.append((event.seat, D.index[event.action]))
            for fact in event.facts:
                if isinstance(fact, DrewAndPlayed):
                    plays.append((fact.seat, D.index[fact.card]))
                elif isinstance(fact, TrickWon):
                    assert fact.seat == trick_winner(plays), (seed, plays)
                    plays, tricks = [], tricks + 1
    assert tricks > 100
