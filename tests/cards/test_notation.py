"""The one card notation (foundation issue: ranks 3-10 J Q K A 2, suits S C D H, BJ RJ)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from folkdeck.cards import (
    CUCCO_40,
    FRENCH_52,
    GOUJI_216,
    PORTUGUESE_40,
    SPANISH_48,
    Card,
    CuccoRank,
    Rank,
    Suit,
    as_cards,
    format_cards,
    parse_card,
    parse_cards,
    pretty_card,
)
from folkdeck.engine.errors import InvalidNotationError


@pytest.mark.parametrize(("token", "canonical"), [
    ("10H", "10H"), ("TH", "10H"), ("th", "10H"), ("♥10", "10H"), ("10♥", "10H"),
    ("qs", "QS"), ("♠A", "AS"), ("2c", "2C"), ("bj", "BJ"), ("RJ", "RJ"),
    ("owl", "OWL"), ("15", "OWL"), ("-4", "FOOL"), ("0", "0"), ("7", "7"), ("HOUSE", "HOUSE"),
])
def test_tokens_in_and_canonical_out(token: str, canonical: str) -> None:
    assert str(parse_card(token)) == canonical


@pytest.mark.parametrize(("token", "message"), [
    ("1S", "bad rank '1'"), ("10X", "bad suit 'X'"), ("", "empty"), ("ZZ", "bad suit"),
    ("16", "bad"),
])
def test_unknown_cards_name_the_token(token: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message):
        parse_card(token)


def test_lists_keep_order_and_repeats_and_accept_commas() -> None:
    cards = parse_cards("3S, 3S 10H,2H")
    assert format_cards(cards) == "3S 3S 10H 2H"
    assert as_cards("4C") == as_cards(Card(Rank.FOUR, Suit.CLUBS))


def test_packs() -> None:
    assert len(FRENCH_52.cards) == 52 and len(set(FRENCH_52.cards)) == 52
    assert len(GOUJI_216.cards) == 216 and GOUJI_216.counts[parse_card("RJ")] == 4
    assert len(SPANISH_48.cards) == 48 and parse_card("10S") not in SPANISH_48.counts
    assert len(PORTUGUESE_40.cards) == 40 and parse_card("8S") not in PORTUGUESE_40.counts
    assert len(CUCCO_40.cards) == 40 and CUCCO_40.counts[Card(CuccoRank.OWL)] == 2
    assert PORTUGUESE_40.card_name(parse_card("JD")) == "valete de ouros"
    with pytest.raises(InvalidNotationError, match="appears 2 times"):
        FRENCH_52.check(parse_cards("3S 3S"))


def test_pretty_and_card_validation() -> None:
    assert pretty_card(parse_card("10H")) == "10♥"
    with pytest.raises(ValueError, match="needs suit"):
        Card(Rank.ACE)
    with pytest.raises(ValueError, match="takes no suit"):
        Card(Rank.RED_JOKER, Suit.HEARTS)


@given(st.lists(st.sampled_from(GOUJI_216.kinds + CUCCO_40.kinds), max_size=30))
def test_format_then_parse_round_trips(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == tuple(cards)


def test_every_card_prints_as_a_plain_str_of_its_rank_and_suit_values() -> None:
    # Card.__str__ joins the StrEnum members themselves (their value property was most of the
    # time of printing a card): what comes out must still be a plain str (the server's JSON
    # encoder looks values up by their exact type) spelling the rank's value and the suit's.
    from folkdeck.cards.packs import PACKS

    for pack in PACKS.values():
        for card in pack.cards:
            text = str(card)
            assert type(text) is str
            if isinstance(card.rank, CuccoRank):
                assert text == card.rank.notation
            else:
                assert text == card.rank.value + (card.suit.value if card.suit is not None else "")
            assert parse_card(text) == card
