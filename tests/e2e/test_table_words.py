"""End-to-end: what a new player reads at the table.

- Kap Hai's first deal is a 3-game (docs/rules/kaphai.md §2.1): everyone puts out their 3s
  and the holder of 3♠ leads one card; the table says so, in English and in Japanese.
- Spanish Burro's cards are named in its own pack everywhere: the legal plays and the
  history use the Spanish numbers and suits (12 of oros, not KD) as the cards do.
- A double click on *Play* plays once and shows no refusal (one action in flight at a time).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, open_page, seeded_table


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


FRENCH_FACES = re.compile(r"\b(?:[2-9]|10|[JQKA])[SHDC]\b")
SPANISH = re.compile(r"^(?:1[0-2]|[1-7])[OCEB]$")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_spanish_burro_names_its_cards_in_its_own_pack(server: str, browser: Any, lang: str) -> None:
    t = seeded_table(server, "burro_es", seed=3, players=4, kinds=["human", "bot", "bot", "bot"])
    page = open_page(browser, server + t["seats"][0]["link"], lang)
    try:
        page.wait_for_selector("#legal .chip, #legal button, #legal span", timeout=30_000)
        chips = [c.strip() for c in page.eval_on_selector_all("#legal button, #legal .chip",
                                                               "els => els.map((e) => e.textContent)")]
        cards = [c for c in chips if c and not re.search(r"[a-z\u3040-\u30ff]", c)]  # not draw / pass
        assert cards and all(SPANISH.match(c) for c in cards), chips
        page.locator("#hand .card.playable").first.click()
        page.click("#play")
        page.wait_for_function("() => document.querySelectorAll('#history li').length > 0", timeout=30_000)
        history = page.inner_text("#history")
        assert not FRENCH_FACES.search(history), history
        page.screenshot(path=str(ARTIFACTS / f"burro-es-native-{lang}.png"))
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
