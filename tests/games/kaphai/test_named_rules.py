"""Kap Hai's rules that bots, rollouts and the move generator call by name (issue 36,
item 3): bombs and cuts (docs/rules/kaphai.md §3.3), the throw of 2-2-2 (§3.4, §8.3), the
local low-single rules (§6) and the police's answer (§3.2, §3.3; ``low_police_void``, §6). Each row names its section; each rule is checked against
:func:`beats`, the statement of what may be played on what."""

from __future__ import annotations

import random
from typing import Any

import pytest

from folkdeck import load
from folkdeck.games.kaphai import rollout
from folkdeck.games.kaphai.moves import MoveTable
from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import (
    RULES,
    Combo,
    Kind,
    allowed,
    beats,
    can_throw,
    classify,
    cuts,
    cutting_shapes,
    is_bomb,
    low_single_relief,
    mask,
    may_answer_straight,
    may_throw_on,
)
from folkdeck.games.kaphai.shapes import hand_combos
from folkdeck.games.kaphai.state import KapHaiState


def combo(text: str) -> Combo:
    c = classify(mask(text))
    assert c is not None, text
    return c


@pytest.mark.parametrize(("cards", "bomb", "source"), [
    ("8S 8C 8D 8H", True, "§3.3 kare (Ⅳ④A, figure 5)"),
    ("9S 10S JS QS KS", True, "§3.3 tong-farson (Ⅳ⑥D, figure 8)"),
    ("7S 7C 8S 8D 9D 9H 10S 10D", True, "§3.3 pae-kare (Ⅳ⑥C, figure 7 corrected)"),
    ("5S 5C 6D 6H 7C 7H 8S 8C 9D 9H", False, "§3.3: five or more consecutive pairs are not bombs"),
    ("9S 10S JS QS KS AS", False, "§3.3: a police of 6 or more is not a tong-farson"),
    ("9S 10S JS QS", False, "§3.1: a 4-card police is no tong-farson"),
    ("9S 10C JS QS KS", False, "§3.1: an ordinary 5-card straight"),
    ("2S 2C 2D", False, "§3.4: 2-2-2 is thrown, it cuts nothing"),
    ("2H", False, "§3.1: a 2 is the highest single, not a bomb"),
])
def test_is_bomb(cards: str, bomb: bool, source: str) -> None:
    assert is_bomb(combo(cards)) is bomb, source


@pytest.mark.parametrize(("bomb", "kind", "expected", "source"), [
    ("8S 8C 8D 8H", Kind.SINGLE, True, "§3.3 a kare cuts any single, even a 2"),
    ("8S 8C 8D 8H", Kind.PAIR, False, "§3.3 a kare does not cut pairs"),
    ("8S 8C 8D 8H", Kind.TRIPLE, False, "§3.3 nor triples"),
    ("9S 10S JS QS KS", Kind.SINGLE, True, "§3.3 a tong-farson cuts any single"),
    ("9S 10S JS QS KS", Kind.KARE, True, "§3.3, §8.10 and any kare"),
    ("7S 7C 8S 8D 9D 9H 10S 10D", Kind.PAIR, True, "§3.3 a pae-kare cuts any pair"),
    ("7S 7C 8S 8D 9D 9H 10S 10D", Kind.KARE, False, "§8.9 pae-kare and kare never cut each other"),
    ("8S 8C 8D 8H", Kind.KARE, False, "§8.9: a higher kare beats a kare, it does not cut it"),
])
def test_cuts(bomb: str, kind: Kind, expected: bool, source: str) -> None:
    assert cuts(combo(bomb), kind) is expected, source


def test_a_cut_is_what_beats_lets_through_whatever_the_rank() -> None:
    """§3.3: a bomb answers the shape it cuts at any rank; :func:`beats` says the same."""
    for top in ("2H", "3S", "2S 2H", "AS AC AD AH"):
        t = combo(top)
        for bomb in ("3S 3C 3D 3H", "3S 4S 5S 6S 7S", "3S 3C 4S 4D 5D 5H 6S 6D"):
            b = combo(bomb)
            if cuts(b, t.kind):
                assert beats(b, t, RULES), (bomb, top)


def test_every_bomb_cuts_something_and_only_bombs_cut() -> None:
    """§3.3: the bombs are exactly the plays that cut another shape."""
    rng = random.Random(36)
    for _ in range(60):
        hand = sum(1 << i for i in rng.sample(range(52), 13))
        for c in hand_combos(hand, RULES):
            cut = [k for k in Kind if k is not c.kind and cuts(c, k)]
            assert bool(cut) is is_bomb(c), c


def test_the_move_table_lists_exactly_the_bombs_that_cut() -> None:
    """The move generator asks the rules (§3.3): its bombs for a shape are the hand's plays
    that cut it, in the shapes' order, with and without the table of every shape made."""
    rng = random.Random(3)
    for n in range(80):
        hand = sum(1 << i for i in rng.sample(range(52), rng.choice((13, 20, 26))))
        plays = [c for c in hand_combos(hand, RULES) if allowed(c, RULES)]
        table = MoveTable.of(hand, RULES)
        if n % 2:
            table.flat()
        for kind in Kind:
            expected = [c for shape in cutting_shapes(kind) for c in plays
                        if (c.kind, c.size) == shape and cuts(c, kind)]
            assert sorted(c.mask for c in table.bombs(kind)) == sorted(c.mask for c in expected), kind


def test_rollouts_keep_what_the_rules_call_bombs() -> None:
    """The rollout policy's "precious" plays are the 2s and the rules' bombs (§3.3, §7)."""
    for cards in ("8S 8C 8D 8H", "9S 10S JS QS KS", "7S 7C 8S 8D 9D 9H 10S 10D", "2S", "AS AC"):
        c = combo(cards)
        assert rollout._precious(c) is (is_bomb(c) or "2" in cards)


@pytest.mark.parametrize(("top", "options", "expected", "source"), [
    ("9S 9C 9D", {}, True, "§3.4 on a triple"),
    ("2S 2C 2D", {}, False, "§3.4: not on 2-2-2 itself"),
    ("6S 7D 8H", {}, False, "§8.3: not on a 3-card straight by default"),
    ("6S 7D 8H", {"throw_222_on_any_three": True}, True, "§8.3 throw_222_on_any_three"),
    ("6S 7D 8H 9C", {"throw_222_on_any_three": True}, False, "§8.3: three cards only"),
    ("9S 9C", {}, False, "§3.4: a pair is no triple"),
])
def test_may_throw_on(top: str, options: dict[str, Any], expected: bool, source: str) -> None:
    rules = KapHaiOptions(**options)
    assert may_throw_on(combo(top), rules) is expected, source
    assert can_throw(combo("2S 2C 2D"), combo(top), rules) is expected


@pytest.mark.parametrize(("top", "options", "expected", "source"), [
    ("5H", {"low_single_free": True}, True, "§6 low_single_free: on 5 or lower"),
    ("5H", {"low_single_same_rank": True}, True, "§6 low_single_same_rank"),
    ("6S", {"low_single_same_rank": True}, False, "§6: 6 and higher follow the basic rule"),
    ("3S", {}, False, "§3.2: without a local rule, only a higher single"),
    ("3S 3C", {"low_single_free": True}, False, "§6 speaks of singles only"),
])
def test_low_single_relief(top: str, options: dict[str, Any], expected: bool, source: str) -> None:
    rules = KapHaiOptions(**options)
    assert low_single_relief(combo(top), rules) is expected, source
    if top == "5H" and expected:  # a lower-or-equal single answers it only with the relief
        assert beats(combo("5C" if options.get("low_single_same_rank") else "3S"), combo(top), rules)


@pytest.mark.parametrize(("new", "top", "options", "expected", "source"), [
    ("7H 8D 9C", "6S 7S 8S", {}, False, "§3.2: a police is answered only by a police"),
    ("7H 8H 9H", "6S 7S 8S", {}, True, "§3.2: a police of the same length, any suit"),
    ("7H 8H 9H", "6S 7D 8H", {}, True, "§3.3: a police is a straight too"),
    ("7H 8D 9C", "6S 7D 8H", {}, True, "§3.2: any straight answers a straight"),
    ("4H 5D 6C", "3S 4S 5S", {}, False, "§3.2: 3-4-5 of one suit is a police"),
    ("4H 5D 6C", "3S 4S 5S", {"low_police_void": True}, True, "§6 low_police_void: 3-4-5 is no police"),
])
def test_may_answer_straight(new: str, top: str, options: dict[str, Any], expected: bool, source: str) -> None:
    rules = KapHaiOptions(**options)
    assert may_answer_straight(combo(new), combo(top), rules) is expected, source
    assert beats(combo(new), combo(top), rules) is expected, source


@pytest.mark.parametrize("preset", [None, "local"])
def test_the_legal_answers_to_a_straight_are_what_the_rules_allow(preset: str | None) -> None:
    """§3.2, §3.3: on a straight, the state lists the straights of the move table that
    :func:`may_answer_straight` lets through (and 2-2-2 where it may be thrown)."""
    game = load("kaphai", preset)
    rules = game.options
    assert isinstance(rules, KapHaiOptions)
    rng = random.Random(36)
    police = 0
    for seed in range(60):
        state = game.new_state(seed=seed)
        assert isinstance(state, KapHaiState)
        while not state.is_over():
            top = state.deal.top
            legal = state.legal_actions()
            if top is not None and top.kind is Kind.STRAIGHT:
                police += top.is_police(rules)
                for c in legal:
                    if isinstance(c, Combo) and c.kind is Kind.STRAIGHT:
                        assert c.size == top.size and c.key > top.key and may_answer_straight(c, top, rules)
            state.apply(legal[rng.randrange(len(legal))])
    assert police > 0
