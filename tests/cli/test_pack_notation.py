"""Issue 25: the Spanish and Portuguese packs shown with their own suits.

A Spanish ``12C`` (the rey of copas in the old letter display) reads as a club to an English
reader. Sources: pagat.com, *Card games in Spain* (the Spanish-suited pack: oros coins,
copas cups, espadas swords, bastos clubs) and *Card games in Portugal* (French-suited cards
are in general use; the Portuguese call hearts copas, diamonds ouros, spades espadas and
clubs paus; the ranks rei, valete, dama); docs/rules/cangkul.md §4.1 and §5.1 (which record
letter is which suit). Only the display changes: the notation a player types and records
hold stays the French-lettered record notation.
"""

from __future__ import annotations

import re

import pytest

from folkdeck.cli.render import TerminalRenderer, plain
from folkdeck.i18n import Renderer, catalog, display_card, notations

from .conftest import Play

FRENCH = set("♠♣♦♥")
SPANISH_NAMES = {"en": {"D": "oros", "H": "copas", "S": "espadas", "C": "bastos"},
                 "ja": {"D": "オロス（金貨）", "H": "コパス（聖杯）", "S": "エスパーダス（剣）", "C": "バストス（棍棒）"}}
PORTUGUESE_NAMES = {"en": {"D": "ouros", "H": "copas", "S": "espadas", "C": "paus"},
                    "ja": {"D": "オウロス（金貨）", "H": "コパス（聖杯）", "S": "エスパーダス（剣）", "C": "パウス（棍棒）"}}
GAME = {"spanish": "burro_es", "portuguese": "burro_pt"}
LETTER_CODE = re.compile(r"(?<![\w])(1[0-2]|[1-9])[EBOC](?![\w])")
"""A Spanish card in the old letter display (``12C``, ``6O``)."""


def test_spanish_suits_have_symbols_of_their_own() -> None:
    symbols = notations()["spanish"]["symbol"]
    assert set(symbols) == set("SCDH")
    assert len(set(symbols.values())) == 4  # one symbol a suit
    assert not set(symbols.values()) & FRENCH  # none a French suit's symbol
    assert not any(s.isascii() for s in symbols.values())  # and no letter to read as one


def test_the_portuguese_pack_is_french_suited() -> None:
    """Card games in Portugal: French-suited cards, the suits named copas (hearts)..."""
    assert notations()["portuguese"]["symbol"] == {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
    assert display_card("JC", "portuguese", symbols=True) == "V♣"  # valete de paus, not "VP"


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("pack", "names"), [("spanish", SPANISH_NAMES), ("portuguese", PORTUGUESE_NAMES)])
def test_each_suit_has_its_name_in_both_catalogs(lang: str, pack: str, names: dict[str, dict[str, str]]) -> None:
    # the game's own words, the same the browser shows (term.<game>.spades...)
    renderer = Renderer(lang, game=GAME[pack], notation=pack)
    assert {s: renderer.suit_name(s) for s in "SCDH"} == names[lang]


def test_the_record_notation_is_kept_and_only_the_display_changes() -> None:
    terminal = TerminalRenderer("en", game="burro_es", notation="spanish")
    assert plain(terminal.cards("KH QC AS 3D")) == "12🍷 11🪵 1⚔ 3🪙"
    assert display_card("KH", "spanish") == "12C"  # the compact code form is unchanged
    assert Renderer("en", game="burro_es", notation="spanish").cards("KH 3D") == "12 of copas · 3 of oros"
    assert Renderer("ja", game="burro_es", notation="spanish").cards("KH 3D") == "コパス（聖杯）の12、オロス（金貨）の3"
    assert Renderer("en").cards("KH 3D") == "KH 3D"  # a French card stays as it is typed


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_legend_names_every_symbol(lang: str) -> None:
    suits, ranks = Renderer(lang, game="burro_es", notation="spanish").pack_legend()
    for suit, symbol in notations()["spanish"]["symbol"].items():
        assert f"{symbol} {SPANISH_NAMES[lang][suit]}" in suits
    assert "11 " in ranks and "12 " in ranks
    assert Renderer(lang).pack_legend() == []  # French suits need no legend


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", ["burro_es", "burro_pt"])
def test_a_watched_burro_shows_the_packs_own_suits(scripted: Play, game: str, lang: str) -> None:
    status, out, _ = scripted(game, "--watch", "--deals", "1", "--seed", "3", "--delay", "0", "--lang", lang)
    assert status == 0
    legend = str(catalog(lang)["card.legend"]).split("{")[0]
    assert legend in out
    if game == "burro_es":
        assert not FRENCH & set(out), "a Spanish card shown with a French suit"
        assert not LETTER_CODE.findall(out), LETTER_CODE.findall(out)[:5]
        assert set(notations()["spanish"]["symbol"].values()) <= set(out)
    else:
        assert not re.search(r"\b[AVDR2-7][EPOC]\b", out)  # no "VP", "DE"
