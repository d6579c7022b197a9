"""Gou Ji pure rules, table-driven; each row names its section of docs/rules/gouji.md."""

from __future__ import annotations

from typing import Any

import pytest

from folkdeck.cards import parse_cards
from folkdeck.engine.errors import InvalidConfigError, InvalidNotationError
from folkdeck.games.gouji.actions import Burn, Return, parse_action
from folkdeck.games.gouji.dealing import first_drawer, is_sweep, three_claims, tribute_pairs
from folkdeck.games.gouji.moves import burn_plays, follow_plays, lead_plays
from folkdeck.games.gouji.options import GouJiOptions
from folkdeck.games.gouji.rules import (
    THRESHOLDS,
    beats,
    burn_remainder_ok,
    highest,
    is_gouji,
    parse_counts,
    parse_play,
)

P = parse_play

# (text, represented rank, naturals, wild 2s, wild BJs, wild RJs)
PARSES = [
    ("9 9 2", "9", 2, 1, 0, 0),          # docs/rules/gouji.md §3.1 wild 2 stands for the set's rank
    ("2 2", "2", 2, 0, 0, 0),            # docs/rules/gouji.md §3.1: 2s may be played on their own
    ("2 BJ", "2", 1, 0, 1, 0),           # docs/rules/gouji.md §11.8: 2s present → R = 2, jokers wild
    ("BJ RJ", "BJ", 1, 0, 0, 1),         # docs/rules/gouji.md §11.8: BJ + RJ = a BJ with a wild RJ
    ("RJ RJ", "RJ", 2, 0, 0, 0),         # docs/rules/gouji.md §11.8: else R = RJ
    ("A BJ RJ 2", "A", 1, 1, 1, 1),      # docs/rules/gouji.md §3.1: jokers and 2s as wild cards
    ("10s 10h", "10", 2, 0, 0, 0),       # docs/rules/gouji.md §1.3: suits accepted and ignored
]


@pytest.mark.parametrize(("text", "rank", "nat", "w2", "wbj", "wrj"), PARSES)
def test_parse_play(text: str, rank: str, nat: int, w2: int, wbj: int, wrj: int) -> None:
    p = P(text)
    assert (p.rank_word, p.natural, p.w2, p.wbj, p.wrj) == (rank, nat, w2, wbj, wrj)


@pytest.mark.parametrize("text", ["9 10", "3 4 2", "", "X", "1"])
def test_bad_sets_are_refused(text: str) -> None:
    # docs/rules/gouji.md §3.1: a set is one rank (no sequences, "シークエンスで出すことはできません")
    with pytest.raises(InvalidNotationError):
        P(text)


# (new, top, bj_wild_rule, beats?)
BEATS = [
    ("10 10", "9 9", "count", True),        # docs/rules/gouji.md §3.2: same number, stronger rank
    ("9 9", "9 9", "count", False),         # docs/rules/gouji.md §3.2: equal is not enough (同じ強さではだめ)
    ("10 10 10", "9 9", "count", False),    # docs/rules/gouji.md §3.2: the same number of cards
    ("9 2", "8 8", "count", True),          # docs/rules/gouji.md §3.2: a wild 2 is as strong as the natural card
    ("6 6", "5 BJ", "count", False),        # seed example: 6-6 may not follow 5+joker
    ("5 BJ", "6 6", "count", False),        # seed example: nor 5+joker follow 6-6
    ("K K", "5 RJ", "count", False),        # docs/rules/gouji.md §3.2: a wild RJ cannot be beaten
    ("RJ RJ", "5 RJ", "count", False),      # docs/rules/gouji.md §3.2: not even by red jokers
    ("BJ RJ", "A A", "count", True),        # docs/rules/gouji.md §11.8: BJ+RJ stands for BJ
    ("2 2", "BJ RJ", "count", False),       # docs/rules/gouji.md §11.8: BJ+RJ is unbeatable
    ("7 7", "6 BJ", "count", False),        # docs/rules/gouji.md §11.1 count: needs a joker
    ("7 BJ", "6 BJ", "count", True),        # count: one joker covers one wild BJ
    ("7 RJ", "6 BJ", "count", True),        # count: a RJ also counts
    ("7 7 BJ", "6 BJ BJ", "count", False),  # count: two wild BJs need two jokers
    ("BJ BJ", "A BJ", "count", True),       # count: natural jokers count
    ("7 7", "6 BJ", "any_joker", False),    # bj_wild_rule=any_joker
    ("7 7 BJ", "6 BJ BJ", "any_joker", True),
    ("BJ BJ", "A BJ", "coverage", False),   # coverage: natural joker sets carry no attached joker
    ("7 RJ", "6 BJ", "coverage", True),     # coverage: RJ covers BJ
]


@pytest.mark.parametrize(("new", "top", "rule", "expected"), BEATS)
def test_beats(new: str, top: str, rule: str, expected: bool) -> None:
    assert beats(P(new), P(top), rule) is expected


# (set, gouji?)  docs/rules/gouji.md §4.1 thresholds 10×5 J×4 Q×3 K×2 A×2 2×1 and any joker
GOUJI = [
    ("10 10 10 10 10", True), ("10 10 10 10", False), ("10 10 10 10 2", True),
    ("J J J J", True), ("J J J", False), ("Q Q Q", True), ("Q Q", False),
    ("K K", True), ("K", False), ("A A", True), ("A", False),
    ("2", True), ("3 BJ", True), ("BJ", True), ("RJ", True),
    ("9 9 9 9 9 9 9 9", False), ("9 9 2 2", False),   # docs/rules/gouji.md §4.1: 9 or lower without jokers never
]


@pytest.mark.parametrize(("text", "expected"), GOUJI)
def test_gouji_thresholds(text: str, expected: bool) -> None:
    assert is_gouji(P(text), THRESHOLDS) is expected


def test_gouji_single_two_and_custom_thresholds() -> None:
    # docs/rules/gouji.md §11.2 options gouji_single_two and gouji_thresholds
    assert not is_gouji(P("2"), GouJiOptions(gouji_single_two=False).thresholds())
    assert is_gouji(P("2 2"), GouJiOptions(gouji_single_two=False).thresholds())
    custom = GouJiOptions(gouji_thresholds=("9:4",)).thresholds()
    assert is_gouji(P("9 9 9 9"), custom) and not is_gouji(P("K K"), custom)
    with pytest.raises(InvalidConfigError):
        GouJiOptions(gouji_thresholds=("Z:3",))


def test_lead_and_follow_listing() -> None:
    hand = parse_counts("5 5 9 2 BJ")
    leads = [str(p) for p in lead_plays(hand)]
    assert "5 5 2 BJ" in leads and "9 BJ" in leads and "2 BJ" in leads and "BJ" in leads
    assert len(leads) == len(set(leads))
    follows = [str(p) for p in follow_plays(hand, P("4 4"), "count")]
    assert follows == ["5 BJ", "5 2", "5 5", "9 BJ", "9 2", "2 BJ"]
    assert follow_plays(hand, P("4 RJ"), "count") == []     # docs/rules/gouji.md §3.2: nothing on a wild RJ
    assert [str(p) for p in follow_plays(hand, P("4 BJ"), "count")] == ["5 BJ", "9 BJ", "2 BJ"]


def test_listing_is_every_distinct_rank_multiset() -> None:
    # a play is written by ranks: distinct actions are distinct rank multisets
    hand = parse_counts("7 7 7 2 2 BJ RJ")
    leads = lead_plays(hand)
    assert len(leads) == 3 * 3 * 2 * 2 + 2 * 2 * 2 + 1 * 2 + 1
    for p in leads:
        assert all(hand[r] >= n for r, n in p.counts())


# (hand, gouji set, burnable sets) docs/rules/gouji.md §5 (シャオパイ)
BURNS = [
    ("K K 4 4 4", "Q Q", ["K K"]),              # the rest is one set: it can go out
    ("K K 4 5", "Q Q", []),                      # two ranks left, no joker
    ("K K 4 BJ 5 RJ", "Q Q", ["K K"]),           # joker form: 4 BJ and 5 RJ each hold a joker
    ("A A", "K K", ["A A"]),                     # burning with the last cards
]


@pytest.mark.parametrize(("hand", "top", "expected"), BURNS)
def test_burn_plays(hand: str, top: str, expected: list[str]) -> None:
    got = [str(p) for p in burn_plays(parse_counts(hand), P(top), "count")]
    assert sorted(got) == sorted(expected)


def test_burn_remainder() -> None:
    assert burn_remainder_ok(parse_counts("6 6 2 2"))     # one set: 6s with wild 2s
    assert not burn_remainder_ok(parse_counts("6 7 BJ"))   # two ranks, one joker
    assert burn_remainder_ok(parse_counts("6 7 BJ BJ"))


def test_highest_for_tribute() -> None:
    # docs/rules/gouji.md §2.6: "highest" by rank RJ > BJ > 2 > A
    assert highest(parse_counts("3 A 2 BJ"), 2) == [13, 12]
    assert highest(parse_counts("3 3"), 1) == [0]


def test_kai_pai() -> None:
    # docs/rules/gouji.md §2.2: count from the kai pai as 1; 2 → right neighbour; 9 → two seats right after a lap
    assert first_drawer(0, parse_cards("2S")) == (0, 1, 1)
    assert first_drawer(4, parse_cards("9H")) == (4, 0, 1)
    assert first_drawer(0, parse_cards("AS")) == (0, 0, 1)      # A = 1
    assert first_drawer(0, parse_cards("KS")) == (0, 0, 1)      # K = 13 → 12 seats on
    assert first_drawer(5, parse_cards("RJ BJ QD")) == (1, 0, 3)  # jokers pass kai pai on


def test_three_claims_in_draw_order() -> None:
    # docs/rules/gouji.md §2.4: the first to hold two 3s of one suit during the draw may declare
    hands = [parse_cards(h) for h in ("4S 3C 3C", "3H 3H 5S", "4S 4S 4S", "3D 5D 3D",
                                      "5S 5S 5S", "6S 6S 6S")]
    assert three_claims(hands, 0) == [1, 0, 3]
    assert three_claims(hands, 3) == [1, 3, 0]   # round 3 is drawn from seat 3 on


# (places by seat, pairs) docs/rules/gouji.md §2.6
TRIBUTES = [
    ((1, 2, 3, 4, 5, 6), {}, [(5, 0, 2), (4, 1, 1)]),          # 6th→1st two, 5th→2nd one
    ((2, 1, 4, 3, 6, 5), {}, [(4, 1, 2), (5, 0, 1)]),
    ((1, 4, 2, 5, 3, 6), {}, [(3, 0, 1), (1, 4, 1)] + [(5, 2, 1)]),  # sweep: opposites
    ((1, 2, 3, 4, 6, 5), {"tribute_swap_losers": True}, [(4, 0, 2), (5, 1, 1)]),
]


@pytest.mark.parametrize(("places", "opts", "pairs"), TRIBUTES)
def test_tribute_pairs(places: tuple[int, ...], opts: dict[str, Any],
                       pairs: list[tuple[int, int, int]]) -> None:
    assert tribute_pairs(places, GouJiOptions(**opts)) == pairs


def test_sweep() -> None:
    assert is_sweep((1, 4, 2, 5, 3, 6)) and not is_sweep((1, 2, 3, 4, 5, 6))


@pytest.mark.parametrize(("text", "expected"), [
    ("9 9 2", "9 9 2"), ("pass", "pass"), ("burn K K", "burn K K"), ("return 7 5", "return 5 7"),
    ("xian", "xian"), ("revolution", "revolution"), ("no", "no"), ("declare", "declare")])
def test_action_grammar(text: str, expected: str) -> None:
    assert str(parse_action(text)) == expected


def test_action_grammar_errors() -> None:
    assert isinstance(parse_action("burn A A"), Burn) and isinstance(parse_action("return 3"), Return)
    for bad in ("burn", "return", "pass 3", "", "9 10"):
        with pytest.raises(InvalidNotationError):
            parse_action(bad)
