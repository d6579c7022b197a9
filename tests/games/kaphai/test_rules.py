"""Kap Hai combination and comparison rules, row by row from docs/rules/kaphai.md §1, §3, §4, §6 and §8.

Each row names the section it comes from. Figures (図) have their own tests in
test_figures.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from folkdeck.engine.errors import InvalidNotationError
from folkdeck.games.kaphai.options import KapHaiOptions
from folkdeck.games.kaphai.rules import (
    RULES,
    Kind,
    allowed,
    beats,
    can_throw,
    classify,
    mask,
    notation,
    putuh,
)
from folkdeck.games.kaphai.shapes import hand_combos


def combo(text: str):  # type: ignore[no-untyped-def]
    c = classify(mask(text))
    assert c is not None, f"{text} should be a combination"
    return c


CLASSIFY = [
    # (cards, kind name, source)
    ("7D", "single", "docs/rules/kaphai.md §3.1 コーイ"),
    ("4C 4H", "pair", "docs/rules/kaphai.md §3.1 パエ"),
    ("8C 8D 8H", "triple", "docs/rules/kaphai.md §3.1 サーム"),
    ("2C 2D 2H", "triple", "docs/rules/kaphai.md §3.1 triple of 2s is still a triple"),
    ("4S 4C 4D 4H", "kare", "docs/rules/kaphai.md §3.1 カーレー"),
    ("6S 7D 8H", "straight", "docs/rules/kaphai.md §3.1 suits need not match"),
    ("3S 4C 5D", "straight", "docs/rules/kaphai.md §3.1 the lowest straight"),
    ("QS KD AH", "straight", "docs/rules/kaphai.md §3.1 the highest 3-card straight"),
    ("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "police", "docs/rules/kaphai.md §3.1 up to A: 12 cards"),
    ("5H 6H 7H", "police", "docs/rules/kaphai.md §3.1 ポリッヒ"),
    ("6D 7D 8D 9D 10D", "tong-farson", "docs/rules/kaphai.md §3.1 トングファーソン"),
    ("6D 7D 8D 9D 10D JD", "police", "docs/rules/kaphai.md §3.3 6+ cards are not tong-farson"),
    ("8C 8H 9S 9C", "aop", "docs/rules/kaphai.md §3.1 アオップ"),
    ("4D 4H 5C 5D 6D 6H", "consecutive pairs", "docs/rules/kaphai.md §3.1 three pairs"),
    ("4D 4H 5C 5D 6D 6H 7S 7C", "pae-kare", "docs/rules/kaphai.md §3.1 パエカーレー"),
    ("4D 4H 5C 5D 6D 6H 7S 7C 8C 8H", "consecutive pairs", "docs/rules/kaphai.md §3.1 five pairs"),
    ("5S 5H 6S 6D 6H", "polu", "docs/rules/kaphai.md §3.1 pair + triple"),
    ("5S 5C 5H 6S 6D", "polu", "docs/rules/kaphai.md §3.1 triple + pair"),
    ("5S 5D 5H 6S 6C 6H", "double triple", "docs/rules/kaphai.md §3.1, §6 double triple"),
]


@pytest.mark.parametrize(("cards", "name", "source"), CLASSIFY)
def test_classify(cards: str, name: str, source: str) -> None:
    assert combo(cards).name == name, source


NOT_COMBINATIONS = [
    ("KS AS 2S", "docs/rules/kaphai.md §3.1 2 never in a straight (K-A-2)"),
    ("AS 2S 3S", "docs/rules/kaphai.md §3.1 no wrap-around"),
    ("3S 4S", "docs/rules/kaphai.md §3.1 a straight has at least 3 cards"),
    ("3S 5S 6S", "docs/rules/kaphai.md §3.1 ranks must be consecutive"),
    ("8C 8H 10S 10C", "docs/rules/kaphai.md §3.1 aop ranks must be consecutive"),
    ("5S 5H 5C 6S", "docs/rules/kaphai.md §3.1 polu is a pair and a triple"),
    ("4C 4D 9S", "docs/rules/kaphai.md §3.1 shapes only"),
]


@pytest.mark.parametrize(("cards", "source"), NOT_COMBINATIONS)
def test_not_a_combination(cards: str, source: str) -> None:
    assert classify(mask(cards)) is None, source


BEATS = [
    # (new, top, expected, source)
    ("6C", "5C", True, "docs/rules/kaphai.md §3.2 a higher rank"),
    ("5D", "5C", True, "docs/rules/kaphai.md §3.2 same rank, higher suit"),
    ("5S", "5C", False, "docs/rules/kaphai.md §3.2 same rank, lower suit"),
    ("2S", "AH", True, "docs/rules/kaphai.md §1.1 2 is the highest rank"),
    ("2H", "2D", True, "docs/rules/kaphai.md §1.1 2H is the highest single"),
    ("5S 5C", "4C 4D", True, "docs/rules/kaphai.md §3.2 a higher pair"),
    ("4S 4H", "4C 4D", True, "docs/rules/kaphai.md §3.2 図2 same rank, higher top suit"),
    ("4S 4C", "4D 4H", False, "docs/rules/kaphai.md §3.2 lower top suit"),
    ("2S 2H", "2C 2D", True, "docs/rules/kaphai.md §3.2 2H with any 2 is the top pair"),
    ("9S 9C 9D", "8C 8D 8H", True, "docs/rules/kaphai.md §3.2 a higher triple"),
    ("3S 3C 3D", "2C 2D 2H", True, "docs/rules/kaphai.md §8.3 a led triple of 2s is beaten by any triple"),
    ("2C 2D 2H", "3S 3C 3D", False, "docs/rules/kaphai.md §3.4 2-2-2 beats no triple"),
    ("QD 10S JS", "10H JC QS", True, "docs/rules/kaphai.md §3.2 図4 higher suit of the top card"),
    ("9H 10H JH", "10H JC QS", False, "docs/rules/kaphai.md §3.2 図4 suits never beat ranks"),
    ("10S JS QS KS", "10H JC QS", False, "docs/rules/kaphai.md §3.2 4 cards never answer 3"),
    ("9S 10S JS", "5H 6H 7H", True, "docs/rules/kaphai.md §3.2 police answered by a police"),
    ("9C 10D JS", "5H 6H 7H", False, "docs/rules/kaphai.md §3.2 only a police answers a police"),
    ("9S 10S JS QS", "5H 6H 7H", False, "docs/rules/kaphai.md §3.2 same number of cards"),
    ("9S 10S JS", "5H 6D 7H", True, "docs/rules/kaphai.md §3.2 a police is a straight"),
    ("6S 6C 6D 6H", "2S", True, "docs/rules/kaphai.md §3.3 a kare cuts any single, even a 2"),
    ("3S 3C 3D 3H", "AH", True, "docs/rules/kaphai.md §3.3 a kare of any rank"),
    ("8S 8C 8D 8H", "6S 6C 6D 6H", True, "docs/rules/kaphai.md §3.3 図5 a higher kare"),
    ("6S 6C 6D 6H", "8S 8C 8D 8H", False, "docs/rules/kaphai.md §3.3 a lower kare"),
    ("6S 6C 6D 6H", "2S 2H", False, "docs/rules/kaphai.md §3.3 only singles: a kare does not cut pairs"),
    ("6S 6C 6D 6H", "KS KC KD", False, "docs/rules/kaphai.md §3.3 a kare does not cut triples"),
    ("10C JC QC KC AC", "8S 8C 8D 8H", True, "docs/rules/kaphai.md §3.3 図8 tong-farson cuts a kare"),
    ("10C JC QC KC AC", "2H", True, "docs/rules/kaphai.md §3.3 tong-farson cuts any single"),
    ("3S 4S 5S 6S 7S", "2H", True, "docs/rules/kaphai.md §3.3 any tong-farson"),
    ("10D JD QD KD AD", "10C JC QC KC AC", True, "docs/rules/kaphai.md §3.3 図8 a higher tong-farson"),
    ("9D 10D JD QD KD", "10C JC QC KC AC", False, "docs/rules/kaphai.md §3.3 a lower tong-farson"),
    ("3S 4S 5S 6S 7S 8S", "2H", False, "docs/rules/kaphai.md §3.3 6-card police is no bomb"),
    ("6S 6C 6D 6H", "10C JC QC KC AC", False, "docs/rules/kaphai.md §3.3 only a higher tong-farson"),
    ("9S 10S JS QS KS", "10H JC QS KD AS", False, "docs/rules/kaphai.md §8.11 a lower tong-farson on a higher straight"),
    ("10S JS QS KS AS", "9H 10C JS QD KS", True, "docs/rules/kaphai.md §3.2 a higher tong-farson is a straight"),
    ("6S 6C 7D 7H 8C 8H 9S 9C", "2S 2C", True, "docs/rules/kaphai.md §3.3 図7 pae-kare cuts any pair"),
    ("6S 6C 7D 7H 8C 8H 9S 9C", "3S 3C", True, "docs/rules/kaphai.md §3.3 any pair"),
    ("7S 7C 8S 8D 9D 9H 10S 10D", "6S 6C 7D 7H 8C 8H 9S 9C", True, "docs/rules/kaphai.md §3.3 図7 (corrected) higher pae-kare"),
    ("4D 4H 5C 5D 6D 6H 7S 7C 8C 8H", "2S 2C", False, "docs/rules/kaphai.md §3.3 five pairs have no bomb power"),
    ("6S 6C 7D 7H 8C 8H", "2S 2C", False, "docs/rules/kaphai.md §3.3 three pairs have no bomb power (unlike Tiến Lên, §10)"),
    ("6S 6C 7D 7H 8C 8H 9S 9C", "8S 8C 8D 8H", False, "docs/rules/kaphai.md §8.9 pae-kare does not cut a kare"),
    ("8S 8C 8D 8H", "6S 6C 7D 7H 8D 8H 9S 9C", False, "docs/rules/kaphai.md §8.9 kare does not cut a pae-kare"),
    ("8S 8D 9D 9H", "8C 8H 9S 9C", True, "docs/rules/kaphai.md §3.2 aop: top pair's highest suit"),
    ("10S 10C JS JC", "8C 8H 9S 9C", True, "docs/rules/kaphai.md §3.2 a higher aop"),
    ("10S 10C JS JC QS QC", "8C 8H 9S 9C", False, "docs/rules/kaphai.md §3.2 same number of pairs"),
    ("7C 7S 8C 8S 8D", "5S 5H 6S 6D 6H", True, "docs/rules/kaphai.md §3.2 図6 pair+triple on pair+triple"),
    ("7S 7C 7H 8S 8D", "5S 5H 6S 6D 6H", True, "docs/rules/kaphai.md §3.2 図6 triple+pair on pair+triple"),
    ("4S 4C 4H 5S 5D", "5C 5H 6S 6D 6H", False, "docs/rules/kaphai.md §3.2 polu compares the higher rank"),
    ("6S 6C 6H 7S 7C 7H", "4S 4D 4H 5S 5C 5H", True, "docs/rules/kaphai.md §3.2 double triple: the higher rank"),
    ("9S", "5S 5H", False, "docs/rules/kaphai.md §3.2 same number of cards"),
]


@pytest.mark.parametrize(("new", "top", "expected", "source"), BEATS)
def test_beats(new: str, top: str, expected: bool, source: str) -> None:
    assert beats(combo(new), combo(top), RULES) is expected, source


LOCAL_SINGLES = [
    # (option, new, top, expected, source)
    ("low_single_free", "3S", "5H", True, "docs/rules/kaphai.md §6 any 3-5 on a single of 5 or lower"),
    ("low_single_free", "4C", "4H", True, "docs/rules/kaphai.md §6 whatever the suit"),
    ("low_single_free", "3D", "6S", False, "docs/rules/kaphai.md §6 until someone plays a 6"),
    ("low_single_same_rank", "4S", "4H", True, "docs/rules/kaphai.md §6 same rank, any suit"),
    ("low_single_same_rank", "3H", "4S", False, "docs/rules/kaphai.md §6 a lower rank may not"),
    ("low_single_same_rank", "6S", "6H", False, "docs/rules/kaphai.md §6 only 5 or lower"),
]


@pytest.mark.parametrize(("option", "new", "top", "expected", "source"), LOCAL_SINGLES)
def test_local_single_rules(option: str, new: str, top: str, expected: bool, source: str) -> None:
    flags: dict[str, Any] = {option: True}
    rules = KapHaiOptions(**flags)
    assert beats(combo(new), combo(top), rules) is expected, source
    assert beats(combo(new), combo(top), RULES) is (combo(new).key > combo(top).key)


def test_low_police_void() -> None:
    """docs/rules/kaphai.md §6: a 3-4-5 of one suit is no police under the local rule (low_police_void)."""
    local = KapHaiOptions(low_police_void=True)
    assert beats(combo("4C 5D 6H"), combo("3S 4S 5S"), local)
    assert not beats(combo("4C 5D 6H"), combo("3S 4S 5S"), RULES)
    assert not beats(combo("5C 6D 7H"), combo("4S 5S 6S"), local), "4-5-6 is still a police"


def test_throwing_two_two_two() -> None:
    """docs/rules/kaphai.md §3.4 (図3) and §8.3: 2-2-2 is thrown on a triple, not on a straight."""
    twos = combo("2C 2D 2H")
    assert can_throw(twos, combo("3S 3C 3D"), RULES)
    assert not can_throw(twos, combo("3S 4C 5D"), RULES)
    assert can_throw(twos, combo("3S 4C 5D"), KapHaiOptions(throw_222_on_any_three=True))
    assert not can_throw(combo("4S 4C 4D"), combo("3S 3C 3D"), RULES)


def test_options_shape_rules() -> None:
    """docs/rules/kaphai.md §8.2 (2s in pair runs) and §6 (double triple): options."""
    assert not allowed(combo("AS AC 2S 2C"), RULES)
    assert allowed(combo("AS AC 2S 2C"), KapHaiOptions(twos_in_pair_runs=True))
    assert not allowed(combo("5S 5D 5H 6S 6C 6H"), RULES)
    assert allowed(combo("5S 5D 5H 6S 6C 6H"), KapHaiOptions(allow_double_triple=True))
    assert combo("5S 5D 5H 6S 6C 6H").kind is Kind.DOUBLE_TRIPLE


def test_hand_combos_lists_every_shape_once() -> None:
    hand = mask("3S 3C 4S 4D 5S 5H 6S 6C 6D 7S")
    combos = hand_combos(hand, RULES)
    assert len({c.mask for c in combos}) == len(combos)
    names = {c.name for c in combos}
    assert {"single", "pair", "triple", "straight", "police", "tong-farson", "aop",
            "consecutive pairs", "polu"} <= names
    # Brute force agrees: every subset that classifies and is allowed is listed.
    cards = [1 << i for i in range(52) if hand >> i & 1]
    subsets = set()
    for bits in range(1, 1 << len(cards)):
        m = sum(c for i, c in enumerate(cards) if bits >> i & 1)
        found = classify(m)
        if found is not None and allowed(found, RULES):
            subsets.add(m)
    assert subsets == {c.mask for c in combos}


PUTUH = [
    # (hand, three_game, level, source)
    ("5S 5C 7D 7S 8S 8C 10C 10H QD QH AC AH 3S", False, 0, "docs/rules/kaphai.md §4.1 six pairs"),
    ("6C 6D 6H 8S 8C 8D JS JD JH 3S 4S 5S 9H", False, 1, "docs/rules/kaphai.md §4.1 three triples"),
    ("4S 4C 4D 4H 9S 9C 9D 9H KS KC KD KH 3S", False, 2, "docs/rules/kaphai.md §4.1 three kares"),
    ("AC 2S 3S 4D 5C 6D 7S 8H 9C 10H JD QH KC", False, 3, "docs/rules/kaphai.md §4.1 ファー, one of each rank"),
    ("2S 2C 2D 2H 3S 4S 5S 6S 7S 8S 9S 10S JS", False, 4, "docs/rules/kaphai.md §4.1 four 2s"),
    ("3S 3C 3D 3H 5S 6S 7C 8S 9S 10S JS QS KD", True, 5, "docs/rules/kaphai.md §4.1 four 3s in a 3-game"),
    ("3S 3C 3D 3H 5S 6S 7C 8S 9S 10S JS QS KD", False, None, "docs/rules/kaphai.md §4.1 just a kare otherwise"),
    ("3S 3C 4D 5C 6D 7S 8H 9C 10H JD QH KC AS", False, None, "no pattern"),
    ("4S 4C 4D 4H 6S 6C 8D 8H 10S 10C QS QC KS", False, 0, "docs/rules/kaphai.md §4.1 a kare counts as 2 pairs"),
]


@pytest.mark.parametrize(("hand", "three_game", "level", "source"), PUTUH)
def test_putuh_patterns(hand: str, three_game: bool, level: int | None, source: str) -> None:
    found = putuh(mask(hand), three_game)
    assert (found[0] if found else None) == level, source


def test_putuh_best_pattern_counts() -> None:
    """docs/rules/kaphai.md §4.1: a hand meeting several patterns counts as its best one."""
    hand = mask("4S 4C 4D 4H 9S 9C 9D 9H KS KC KD KH 2S")  # three kares = also pairs, triples
    assert putuh(hand, False) == (2, 10)


def test_notation_is_canonical_and_refuses_unknown_cards() -> None:
    assert notation(mask("2h 3s th")) == "3S 10H 2H"
    with pytest.raises(InvalidNotationError, match="'1S'"):
        mask("1S")
    with pytest.raises(InvalidNotationError, match="twice"):
        mask("3S 3S")
    with pytest.raises(InvalidNotationError, match="not a card of Kap Hai"):
        mask("BJ")
