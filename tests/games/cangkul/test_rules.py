"""Pure Cangkul/Burro rules, table-driven; each row names its section of docs/rules/cangkul.md."""

from __future__ import annotations

from typing import Any

import pytest

from folkdeck import load
from folkdeck.cards import Card
from folkdeck.engine.errors import InvalidConfigError, InvalidNotationError
from folkdeck.games.cangkul.actions import DRAW, DRAW_LEFT, DRAW_RIGHT, PASS, parse_action
from folkdeck.games.cangkul.options import BurroEsOptions, BurroPtOptions, CangkulOptions
from folkdeck.games.cangkul.rules import (
    JOKER,
    JOKER_BIT,
    NO_SUIT,
    cards_of,
    choices,
    deck_for,
    mask,
    notation,
    ruleset,
    share_out,
    split_stock,
    trick_winner,
)

# --- rank orders ---------------------------------------------------------------------
ORDERS = [
    # (pack, ace_high, cards weakest → strongest, source)
    ("french52", False, "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "docs/rules/cangkul.md §7.1: A K Q J 10 … 2"),
    ("spanish48", False, "AC 2C 3C 4C 5C 6C 7C 8C 9C JC QC KC", "docs/rules/cangkul.md §4.1: Rey > Caballo > Sota > 9 … As"),
    ("portuguese40", False, "AD 2D 3D 4D 5D 6D 7D QD JD KD", "docs/rules/cangkul.md §5.1: Rei > Valete > Dama > 7 … Ás"),
    ("portuguese40", True, "2D 3D 4D 5D 6D 7D QD JD KD AD", "docs/rules/cangkul.md §7.8 option pt_ace_high"),
]


@pytest.mark.parametrize(("pack", "ace_high", "ascending", "source"), ORDERS)
def test_rank_order(pack: str, ace_high: bool, ascending: str, source: str) -> None:
    deck = deck_for(pack, ace_high)  # type: ignore[arg-type]
    shuffled = " ".join(reversed(ascending.split()))
    assert notation(mask(shuffled, deck), deck) == ascending, source
    assert deck.size == {"french52": 52, "spanish48": 48, "portuguese40": 40}[pack]


@pytest.mark.parametrize(("pack", "card"), [("spanish48", "10S"), ("portuguese40", "8H"),
                                            ("portuguese40", "9C"), ("french52", "RJ")])
def test_cards_outside_the_pack(pack: str, card: str) -> None:
    # docs/rules/cangkul.md §4.1, §5.1: the 48- and 40-card packs have no 10s (nor 8s, 9s); no joker unless `joker`
    with pytest.raises(InvalidNotationError, match=card):
        mask(card, deck_for(pack))  # type: ignore[arg-type]


# --- following suit and digging ---------------------------------------------------
D = deck_for("french53")
CHOICES = [
    # (hand, led suit, joker_play, playable, dig, source)
    ("3H 9H 4S", 3, "anytime", "3H 9H", False, "docs/rules/cangkul.md §2.3: must follow suit, may not draw"),
    ("3H 9H 4S", 1, "anytime", "", True, "docs/rules/cangkul.md §2.3: unable to follow, draw"),
    ("3H 9H 4S", NO_SUIT, "anytime", "4S 3H 9H", False, "docs/rules/cangkul.md §2.3: the leader plays any card"),
    ("3H 4S RJ", 3, "anytime", "3H RJ", False, "docs/rules/cangkul.md §3.2 joker_play=anytime"),
    ("3H 4S RJ", 3, "only_void", "3H", False, "docs/rules/cangkul.md §3.2 joker_play=only_void: not while holding the suit"),
    ("3H 4S RJ", 3, "must_when_void", "3H", False, "docs/rules/cangkul.md §3.2 joker_play=must_when_void"),
    ("4S RJ", 3, "anytime", "RJ", True, "docs/rules/cangkul.md §3.2 joker_play=anytime: joker or dig"),
    ("4S RJ", 3, "only_void", "RJ", True, "docs/rules/cangkul.md §3.2 joker_play=only_void: joker instead of digging"),
    ("4S RJ", 3, "must_when_void", "RJ", False, "docs/rules/cangkul.md §3.2 joker_play=must_when_void: must play it"),
]


@pytest.mark.parametrize(("hand", "led", "jp", "playable", "dig", "source"), CHOICES)
def test_choices(hand: str, led: int, jp: str, playable: str, dig: bool, source: str) -> None:
    allowed, digs = choices(mask(hand, D), led, jp)  # type: ignore[arg-type]
    assert (notation(allowed, D), digs) == (playable, dig), source


WINNERS = [
    # (plays "seat:card", winner, source)
    ("0:9H 1:AS 2:JH", 2, "docs/rules/cangkul.md §2.5: the highest card of the led suit wins"),
    ("0:2H 1:AS 2:KS", 0, "docs/rules/cangkul.md §2.5: off-suit cards never win"),
    ("0:9H 1:RJ 2:AH", 1, "docs/rules/cangkul.md §3.2: the joker is the highest card"),
    ("0:RJ 1:3C 2:AC", 0, "docs/rules/cangkul.md §7.11: the joker's leader wins"),
]


@pytest.mark.parametrize(("plays", "winner", "source"), WINNERS)
def test_trick_winner(plays: str, winner: int, source: str) -> None:
    seq = [(int(p.split(":")[0]), D.index[Card.parse(p.split(":")[1])]) for p in plays.split()]
    assert trick_winner(seq) == winner, source


SHARES = [
    # (played, passers, expected shares, source)
    ([1, 2, 3], [2], [[1, 2, 3]], "docs/rules/cangkul.md §2.5: the played cards all go to the passer"),
    ([1, 2, 3], [2, 0], [[1, 3], [2]], "docs/rules/cangkul.md §2.5: first passer takes the first card, round again"),
    ([1, 2, 3, 4, 5], [3, 1, 2], [[1, 4], [2, 5], [3]], "docs/rules/cangkul.md §2.5: deal on round from the first passer"),
    ([1], [0, 2], [[1], []], "docs/rules/cangkul.md §2.5: fewer cards than passers"),
]


@pytest.mark.parametrize(("played", "passers", "shares", "source"), SHARES)
def test_share_out(played: list[int], passers: list[int], shares: list[list[int]], source: str) -> None:
    assert share_out(played, passers) == shares, source


def test_split_stock() -> None:
    # docs/rules/cangkul.md §5.2, §7.12: two roughly equal halves; engine choice: left = the first ceil(n/2) cards
    assert split_stock(list(range(20)), 2) == [list(range(10)), list(range(10, 20))]
    assert split_stock([1, 2, 3], 2) == [[1, 2], [3]]


def test_joker_index_and_cards() -> None:
    assert cards_of(JOKER_BIT, D) == (Card.parse("RJ"),)
    assert D.index[Card.parse("RJ")] == JOKER


# --- options ------------------------------------------------------------------------
DEFAULTS = [
    (CangkulOptions(), {"cangkul_drop_out": False, "joker": False, "joker_play": "anytime",
                        "lead_after_pass": "winner", "lead_after_out": "next_active",
                        "score": "win_count"}, "docs/rules/cangkul.md §8 (Cangkul)"),
    (BurroEsOptions(), {"hand_size": 5, "penalty_limit": 5, "lead_after_out": "next_active"},
     "docs/rules/cangkul.md §8 (Spanish Burro)"),
    (BurroPtOptions(), {"pt_ace_high": False, "two_stock_piles": True, "stock_knock_prob": 0.0,
                        "hand_size": 5}, "docs/rules/cangkul.md §8 (Portuguese Burro)"),
]


@pytest.mark.parametrize(("options", "expected", "source"), DEFAULTS)
def test_option_defaults(options: object, expected: dict[str, object], source: str) -> None:
    for key, value in expected.items():
        assert getattr(options, key) == value, (source, key)


RULESETS = [
    ("cangkul", {}, {"hand_size": 7, "pack": "french52", "passers_collect": True, "drop_out": False,
                     "piles": 1, "direction": "clockwise"}, "docs/rules/cangkul.md §1.2, §2.1, §2.2"),
    ("cangkul", {"joker": True}, {"pack": "french53"}, "docs/rules/cangkul.md §3.2: 53 cards"),
    ("cangkul", {"cangkul_drop_out": True}, {"drop_out": True}, "docs/rules/cangkul.md §3.1"),
    ("burro_es", {}, {"hand_size": 5, "pack": "spanish48", "passers_collect": False, "drop_out": True,
                      "piles": 1, "direction": "counter-clockwise"}, "docs/rules/cangkul.md §4"),
    ("burro_es", {"hand_size": 4}, {"hand_size": 4}, "docs/rules/cangkul.md §7.6 hand_size 4 (gamerules)"),
    ("burro_pt", {}, {"pack": "portuguese40", "piles": 2, "passers_collect": False, "drop_out": True,
                      "knock_prob": 0.0}, "docs/rules/cangkul.md §5"),
    ("burro_pt", {"two_stock_piles": False}, {"piles": 1}, "docs/rules/cangkul.md §8 two_stock_piles"),
]


@pytest.mark.parametrize(("name", "opts", "expected", "source"), RULESETS)
def test_rulesets(name: str, opts: dict[str, Any], expected: dict[str, object], source: str) -> None:
    rules = ruleset(load(name, **opts).options)
    for key, value in expected.items():
        assert getattr(rules, key) == value, (source, key)


@pytest.mark.parametrize(("name", "opts", "message"), [
    ("cangkul", {"players": 2}, "Cangkul is for 3 to 5 players"),     # docs/rules/cangkul.md §2.1: 3-5
    ("cangkul", {"players": 6}, "Cangkul is for 3 to 5 players"),
    ("burro_es", {"players": 9}, "Spanish Burro is for 3 to 8 players"),  # docs/rules/cangkul.md §4.1: 3-8
    ("burro_pt", {"players": 2}, "Portuguese Burro is for 3 to 8 players"),
    ("burro_pt", {"players": 8, "hand_size": 6}, "need more than the 40 cards"),
    ("burro_es", {"penalty_limit": 0}, "penalty_limit=0"),
    ("cangkul", {"joker_play": "sometimes"}, "must be one of anytime, only_void, must_when_void"),
    ("burro_pt", {"stock_knock_prob": -0.1}, "must be from 0 to 1"),
])
def test_bad_options(name: str, opts: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidConfigError, match=message):
        load(name, **opts)


# --- action grammar -----------------------------------------------------------------
@pytest.mark.parametrize(("text", "action"), [
    ("draw", DRAW), ("  DRAW ", DRAW), ("draw left", DRAW_LEFT), ("draw   right", DRAW_RIGHT),
    ("pass", PASS), ("7h", Card.parse("7H")), ("joker", Card.parse("RJ")), ("rj", Card.parse("RJ")),
])
def test_parse_action(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert str(parse_action(str(action))) == str(action)


@pytest.mark.parametrize("text", ["", "draw middle", "play 7H", "7X", "7H 8H"])
def test_parse_action_refuses(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_action(text)
