"""The renderer: the template language shared with the browser (web/i18n.js)."""

from __future__ import annotations

import pytest

from folkdeck.engine.errors import IllegalActionError
from folkdeck.engine.facts import PotWon, TrickWon, WentOut
from folkdeck.i18n import Renderer, catalog, display_card, ordinal


def test_person_forms_agree_with_the_subject() -> None:
    en = Renderer("en", viewer=0)
    assert en.fact(WentOut(seat=0, place=1)) == "You go out in 1st place"
    assert en.fact(WentOut(seat=2, place=3)) == "Seat 2 goes out in 3rd place"


def test_plurals_follow_the_count() -> None:
    en = Renderer("en")
    assert en.fact(PotWon(seats=(1,), amount=4)) == "Seat 1 takes the pot of 4 chips"
    assert en.fact(PotWon(seats=(1, 2), amount=4)) == "Seat 1 and seat 2 share the pot of 4 chips"
    assert en.message("x", {}) == "X"  # an unknown key renders as itself (the tests catch it)


def test_same_and_select_forms() -> None:
    en = Renderer("en")
    assert en.fact(TrickWon(seat=1, leader=2)) == "Seat 1 wins the trick; seat 2 leads"
    assert en.format({"select": "k", "a": "A!", "other": "?"}, {"k": "a"}) == "A!"
    assert en.format({"select": "k", "a": "A!", "other": "?"}, {"k": "b"}) == "?"
    with pytest.raises(ValueError, match="plural, person"):
        en.format({"nothing": "here"}, {})


def test_names_lists_places_and_cards() -> None:
    r = Renderer("en", game="burro_es", names=["Ana", "", "Budi"], notation="spanish")
    assert r.format("{s:seats}", {"s": [0, 1, 2]}) == "Ana, seat 1 and Budi"
    assert r.format("{c:cards}", {"c": ["QC", "AH"]}) == "11 of bastos · 1 of copas"  # named: no French reading
    assert Renderer("ja").format("{s:seats}", {"s": [0, 1]}) == "席0、席1"
    assert [ordinal("en", n) for n in (1, 2, 3, 4, 11, 101)] == ["1st", "2nd", "3rd", "4th", "11th", "101st"]
    assert display_card("OWL", "cucco") == "OWL"


def test_terms_fall_back_from_the_game_to_the_shared_ones() -> None:
    assert Renderer("en", game="nogame").term("points") == "points"
    assert Renderer("ja", game="nogame").term("points") == "点"
    assert Renderer("en").term("no_such_term") == "no_such_term"


def test_errors_render_in_either_language() -> None:
    err = IllegalActionError("no_such_seat", seat=9, players=4)
    assert str(err) == "there is no seat 9 in a 4-player game"
    assert err.render("ja") == "4人のゲームに席9はありません"


def test_unknown_language() -> None:
    with pytest.raises(ValueError, match="no message catalog"):
        catalog("xx")
