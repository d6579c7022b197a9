"""End-to-end: a table people enjoy (issue 35). On a Gou Ji table at 1280×800 the other
players sit around an oval with distinct names of the page's language and a badge for their
kind, no card is shown as a code (a joker by its name), an English table has no katakana and
a Japanese one no English word apart from names and the language switch; the legal plays and
the Play button are in view without scrolling. On a phone (390×844) every control is at least
44×44 CSS px, and so is each card of a hand that has room; the hand is played by keyboard,
and a live region says each play and whose turn it is."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, open_page, seeded_table

CARD_CODE = re.compile(r"(?<![\w♠♣♦♥])(?:BJ|RJ|(?:10|[2-9JQKA])[SCDH])(?![\w])")
KATAKANA = re.compile(r"[\u30a0-\u30ff]")
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
TEXT_REGIONS = ("#seats", "#center", "#status", "#actions", "#legal", "#history", "#standings")


def _to_play(page: Any) -> None:
    """Answers Gou Ji's windows (each "no" button) until the person's first play."""
    for _ in range(12):
        page.wait_for_selector("#play, #actions button[data-action]", timeout=20000)
        if page.locator("#play").count():
            return
        page.locator("#actions button[data-action]").first.click()
        page.wait_for_timeout(400)
    raise AssertionError("no play offered after the windows")


def _shown_text(page: Any) -> str:
    return "\n".join(page.inner_text(sel) for sel in TEXT_REGIONS)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_gouji_table_reads_as_a_table_in_the_page_language(server: str, browser: Any, lang: str) -> None:
    t = seeded_table(server, "gouji", seed=11, players=6, kinds=["human"] + ["bot"] * 5)
    page = open_page(browser, server + t["seats"][0]["link"], lang, (1280, 800))
    try:
        _to_play(page)
        page.wait_for_selector("#legal button")
        names = page.eval_on_selector_all("#seats .seat:not(.me) .name strong", "els => els.map((e) => e.textContent)")
        assert len(names) == 5 and len(set(names)) == 5, names  # five bots, five names
        assert not any("bot" in n for n in names), names
        badges = page.eval_on_selector_all("#seats .tag.bot-badge", "els => els.map((e) => e.textContent)")
        assert len(badges) == 5 and all(badges), badges
        # No scrolling to reach the legal plays and the Play button.
        for sel in ("#play", "#legal"):
            box = page.locator(sel).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 800, (sel, box)
        text = _shown_text(page) + "\n" + "\n".join(
            page.eval_on_selector_all("#legal button, #hand .card", "els => els.map((e) => e.title)"))
        assert not CARD_CODE.search(text), CARD_CODE.search(text)
        if lang == "en":
            assert not KATAKANA.search(text), KATAKANA.search(text)
        else:
            human = page.inner_text("#seats .seat.me .name strong")
            words = [w for w in ENGLISH_WORD.findall(text.replace(human, "")) if w not in human.split()]
            assert not words, words
        page.screenshot(path=str(ARTIFACTS / f"table-gouji-{lang}.png"))
    finally:
        page.close()


def test_a_phone_table_has_tap_sized_controls_and_plays_by_keyboard(server: str, browser: Any) -> None:
    t = seeded_table(server, "kaphai", seed=4, players=4, kinds=["human"] + ["bot"] * 3)
    page = open_page(browser, server + t["seats"][0]["link"], "en", (390, 844))
    try:
        page.wait_for_selector("#hand .card.playable")
        small = page.evaluate("""() => [...document.querySelectorAll('button, select, input, a.primary')]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => [n, r.width, r.height])""")
        assert not small, small
        # Each card of a hand with room shows at least 44 px to tap: the strip up to the next card.
        strips = page.evaluate("""() => { const cards = [...document.querySelectorAll('#hand .card')];
            const width = document.getElementById('hand').clientWidth;
            return [cards.length, width, cards.map((c, i) => { const r = c.getBoundingClientRect();
              const next = cards[i + 1] && cards[i + 1].getBoundingClientRect().top === r.top ? cards[i + 1].getBoundingClientRect().left : r.right;
              return [Math.min(r.right, next) - r.left, r.height]; })]; }""")
        count, width, sizes = strips
        card = 46  # --card-w on a phone
        if count <= 4 * ((width - 16 - card) // 44 + 1):  # room for 44 px strips in four rows
            assert all(w >= 44 and h >= 44 for w, h in sizes), (count, width, sizes)
        assert all(w >= 26 for w, _ in sizes), sizes
        # Keyboard play: focus a playable card, pick it with Space, play with Enter.
        before = page.evaluate("document.body.dataset.progress")
        page.focus("#hand .card.playable")
        page.keyboard.press("Space")
        page.wait_for_selector("#hand .card.selected")
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
        page.wait_for_function("!document.getElementById('play').disabled")
        page.focus("#play")
        page.keyboard.press("Enter")
        page.wait_for_function("b => document.body.dataset.progress !== b", arg=before)
        page.wait_for_function("document.getElementById('announce').textContent.length > 0")
        said = page.inner_text("#announce") if page.locator("#announce").is_visible() else page.text_content("#announce")
        assert said and ("You" in said or "Seat" in said or any(n in said for n in ("Ben", "Cleo", "Dev"))), said
        page.screenshot(path=str(ARTIFACTS / "table-phone-kaphai.png"))
    finally:
        page.close()
