"""End-to-end: what a new player reads at the table.

- Kap Hai's first deal is a 3-game (docs/rules/kaphai.md §2.1): everyone puts out their 3s
  and the holder of 3♠ leads one card; the table says so, in English and in Japanese.
- The Burros' cards are named in their own packs everywhere: the faces, the legal plays and
  the history use the Spanish numbers and suits (12 oros, not KD nor 12O), the Portuguese
  letters and suits (R ouros, not K♦), each suit with its own sign (issue 25).
- A double click on *Play* plays once and shows no refusal (one action in flight at a time).
- The standings count in words: "1 point", "2 points" (never "1 points"), 1点 in Japanese.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, open_page, play_lines, seeded_table
from tests.e2e.test_out_of_turn import _catalog
from tests.e2e.test_records import _first_deal_lines


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_kaphai_three_game_start_is_explained(server: str, browser: Any, lang: str) -> None:
    t = seeded_table(server, "kaphai", seed=4, players=4, kinds=["human", "bot", "bot", "bot"])
    page = open_page(browser, server + t["seats"][0]["link"], lang)
    try:
        page.wait_for_selector("#facts li")
        facts = page.inner_text("#facts")
        assert ("3-game" in facts) if lang == "en" else ("「3」のゲーム" in facts), facts
        assert "♠" in facts  # who put out the 3♠ (or the lowest card) and leads
    finally:
        page.close()


# A French code (KD, 7S) where the pack has no such card: a French suit (♠ ♥ ♦: spades,
# hearts, diamonds) or face (J Q K) that neither Spanish nor Portuguese notation writes; and
# a Latin card written as a code, "12C" or "12E" (read as clubs, or as nothing, in English).
FRENCH_FACES = re.compile(r"\b(?:[2-9]|10|[JQKA])[SHD]\b|\b[JQK][SHDC]\b|[♠♥♦♣]")
FRENCH_CODES = re.compile(r"\b(?:[2-9]|10|[JQKA])[SHD]\b|\b[JQK][SHDC]\b")
"""A French code alone (KD): the Portuguese pack's faces keep their French pips, not codes."""
CODES = re.compile(r"\b(?:1[0-2]|[1-7]|[AVDR])[OCEBP]\b")
RANKS = {"burro_es": r"(?:1[0-2]|[1-7])",  # 1-7, 10-12 (sota, caballo, rey)
         "burro_pt": r"(?:[2-7]|[AVDR])"}   # ás, 2-7, valete, dama, rei
SUITS = ("diamonds", "hearts", "spades", "clubs")  # the suits' term keys: oros/ouros, copas, espadas, bastos/paus


def _native(game: str, lang: str) -> re.Pattern[str]:
    """A card as the pack names it: its rank, then its suit's own name from the game's catalog
    ("12 espadas", "R ouros"; "12 エスパーダス（剣）")."""
    names = "|".join(re.escape(_catalog(lang)[f"term.{game}.{suit}"]) for suit in SUITS)
    pip = "[♠♣♦♥]" if game == "burro_pt" else ""  # the Portuguese pack is French-suited: "R♣ paus"
    return re.compile(rf"^{RANKS[game]}{pip} (?:{names})$")



@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", ["burro_es", "burro_pt"])
def test_a_burro_names_its_cards_in_its_own_pack(server: str, browser: Any, game: str, lang: str) -> None:
    """The Spanish pack's oros, copas, espadas, bastos by their own signs and names on the faces,
    the chips of the legal plays, the history: never a French ♠ or code, never "12C". The
    Portuguese pack is French-suited (pagat.com, "Card games in Portugal"), its suits named
    ouros, copas, espadas, paus (docs/rules/cangkul.md §5.1): its ♣ comes with "paus"."""
    assert [_catalog("en")[f"term.{game}.{s}"] for s in SUITS] == (
        ["oros", "copas", "espadas", "bastos"] if game == "burro_es" else ["ouros", "copas", "espadas", "paus"])
    t = seeded_table(server, game, seed=3, players=4, kinds=["human", "bot", "bot", "bot"])
    page = open_page(browser, server + t["seats"][0]["link"], lang)
    try:
        page.wait_for_selector("#legal button[data-legal]", timeout=30_000)
        chips = page.eval_on_selector_all("#legal button[data-legal]", "els => els.map((e) => e.textContent.trim())")
        assert chips and all(_native(game, lang).match(c) for c in chips), chips
        # Each chip shows its suit's sign, the one drawn on the faces (a sword for espadas).
        signs = page.eval_on_selector_all("#legal button[data-legal]", "els => els.map((e) => e.querySelectorAll('svg.suit-sign').length)")
        assert signs == [1 if game == "burro_es" else 0] * len(chips), signs
        titles = page.eval_on_selector_all("#legal button[data-legal]", "els => els.map((e) => e.title)")
        assert titles == chips, (titles, chips)  # the hover says the same
        faces = page.eval_on_selector_all("#hand .card svg", "els => els.map((e) => e.textContent + ' ' + e.getAttribute('aria-label'))")
        french = FRENCH_FACES if game == "burro_es" else FRENCH_CODES
        assert faces and not any(french.search(f) or CODES.search(f) for f in faces), faces  # no French code in a corner
        labels = page.eval_on_selector_all("#hand .card svg", "els => els.map((e) => e.getAttribute('aria-label'))")
        assert all(_native(game, lang).match(label) for label in labels), labels  # as its chip says it
        page.locator("#hand .card.playable").first.click()
        page.click("#play")
        page.wait_for_function("() => document.querySelectorAll('#history li').length > 0", timeout=30_000)
        history = page.inner_text("#history")
        assert not french.search(history) and not CODES.search(history), history
        assert any(_catalog(lang)[f"term.{game}.{suit}"] in history for suit in SUITS), history
        page.screenshot(path=str(ARTIFACTS / f"{game}-native-{lang}.png"))
    finally:
        page.close()


def test_a_double_click_on_play_plays_once(server: str, browser: Any) -> None:
    t = seeded_table(server, "cangkul", seed=5, players=4, kinds=["human", "bot", "bot", "bot"])
    page = open_page(browser, server + t["seats"][0]["link"], "en")
    try:
        page.wait_for_selector("#hand .card.playable")
        page.locator("#hand .card.playable").first.click()
        page.dblclick("#play")
        page.wait_for_function("() => [...document.querySelectorAll('#history li')].some((li) => li.textContent.startsWith('You play'))")
        page.wait_for_timeout(800)
        mine = [li for li in page.eval_on_selector_all("#history li", "els => els.map((e) => e.textContent)")
                if li.startswith("You ")]
        assert len(mine) == 1, mine
        assert page.is_hidden("#error"), page.inner_text("#error")
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_standings_count_each_score_in_words(server: str, browser: Any, lang: str) -> None:
    """A finished Kap Hai deal scores 3, 2, 1 and 0 points by place: the standings say "1
    point" but "0 points" and "2 points" in English, "1点" in Japanese, and the reader's own
    seat as "you" (あなた)."""
    t = seeded_table(server, "kaphai", seed=3, players=4, deals=1)
    play_lines(server, t, _first_deal_lines("kaphai", 4, 3))
    page = open_page(browser, server + t["seats"][2]["link"], lang)
    try:
        page.wait_for_selector("#standings div:nth-child(5)")
        rows = page.eval_on_selector_all("#standings div", "els => els.map((e) => e.textContent)")
        _, public = call(server, "GET", f"/api/tables/{t['id']}")
        st = public["standings"]
        assert st["unit"] == "points" and sorted(st["scores"]) == [0, 1, 2, 3]
        you = _catalog(lang)["seat.you"]
        expected = []
        for place, seat in enumerate(st["ranking"], 1):
            name = you if seat == 2 else public["seats"][seat]["name"]
            score = int(st["scores"][seat])
            expected.append(f"{place}. {name}: {score} point{'' if score == 1 else 's'}" if lang == "en"
                            else f"{place}位 {name}: {score}点")
        assert rows[1:] == expected, rows
        assert not re.search(r"\b1 points\b", " ".join(rows))
    finally:
        page.close()
