"""Cangkul's trick rule, named in the rules module and called by the trick's scoring, the
heuristic bot and the rollout policy (issue 36, item 3): the highest card of the led suit
takes the trick, the joker above all (docs/rules/cangkul.md §2.5, §3.2). The deal's transitions
(games/cangkul/play.py) ask it too: each trick of a played deal goes to its winner."""

from __future__ import annotations

import random

import pytest

from folkdeck import load
from folkdeck.cards import Card
from folkdeck.engine.facts import TrickWon
from folkdeck.games.cangkul.events import DrewAndPlayed
from folkdeck.games.cangkul.rules import JOKER, STRIDE, deck_for, takes_trick, trick_winner

D = deck_for("french53")


def i(card: str) -> int:
    return D.index[Card.parse(card)]


@pytest.mark.parametrize(("card", "best", "led", "expected", "source"), [
    ("JH", "9H", "9H", True, "§2.5 the highest card of the led suit wins"),
    ("8H", "9H", "9H", False, "§2.5 a lower card of the led suit does not"),
    ("AS", "9H", "9H", False, "§2.5 another suit never wins, even an ace"),
    ("RJ", "AH", "9H", True, "§3.2 the joker is the highest card and wins"),
    ("2H", None, "2H", True, "§2.5 the lead is the best card so far"),
])
def test_takes_trick(card: str, best: str | None, led: str, expected: bool, source: str) -> None:
    assert takes_trick(i(card), -1 if best is None else i(best), i(led) // STRIDE) is expected, source


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
