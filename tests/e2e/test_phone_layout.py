"""End-to-end: the table on a phone (390×844) and on a laptop (1280×800), in English and in
Japanese (issue 35): nothing is wider than the screen, every button, link and field a finger
taps is at least 44 CSS px tall and wide, and a hand of 2 to 5 cards lies side by side (not
fanned into a strip of overlapping edges). Screenshots go to the artifacts folder."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, open_page, seeded_table

TAP = 44
# The tables: a short hand (Burro's 5, Cambio's 1), a long one (Kap Hai's 12), and Gou Ji's 36.
TABLES = [("burro_es", 4), ("cambio", 4), ("kaphai", 4), ("gouji", 6)]
SIZES = [(390, 844), (1280, 800)]

# What a finger taps, visible: its box (an element wholly hidden, or inside a closed
# <details>/<dialog>, has none).
TARGETS = """() => [...document.querySelectorAll('button, a[href], select, input:not([type=hidden]), summary')]
  .filter((e) => e.offsetParent !== null && !e.closest('dialog:not([open])'))
  .map((e) => ({what: (e.id ? '#' + e.id : e.tagName.toLowerCase()) + ' ' + (e.textContent || e.value || '').trim().slice(0, 24),
                box: e.getBoundingClientRect().toJSON()}))"""


def _too_wide(page: Any) -> list[str]:
    """What sticks out of the screen to the right (the page scrolls sideways); a strip that
    scrolls in its own box (the legal plays on a phone) holds what it holds."""
    found: list[str] = page.evaluate("""() => {
      const w = document.documentElement.clientWidth;
      const out = [...document.querySelectorAll('body *')].filter((e) => e.offsetParent !== null && !e.closest('dialog:not([open])'))
        .filter((e) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.right > w + 1; })
        .filter((e) => !e.parentElement || e.parentElement.getBoundingClientRect().right <= w + 1)
        .filter((e) => { for (let p = e.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return false; return true; })
        .map((e) => (e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + e.className));
      return document.documentElement.scrollWidth > w + 1 ? ['scrollWidth', ...out] : out;
    }""")
    return found


@pytest.mark.parametrize(("game", "players"), TABLES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_table_fits_the_screen_and_a_finger(server: str, browser: Any, game: str, players: int, lang: str) -> None:
    t = seeded_table(server, game, seed=3, players=players, kinds=["human"] + ["bot"] * (players - 1))
    for width, height in SIZES:
        page = open_page(browser, server + t["seats"][0]["link"], lang, (width, height))
        try:
            page.wait_for_selector("#hand .card")
            page.wait_for_timeout(1600)  # the deal's motion, if any, is over
            page.screenshot(path=str(ARTIFACTS / f"layout-{game}-{lang}-{width}x{height}.png"), full_page=True)
            assert not _too_wide(page), (width, _too_wide(page))
            if width < 760:  # a phone: a finger's size
                small = [t["what"] for t in page.evaluate(TARGETS)
                         if t["box"]["width"] < TAP - 0.5 or t["box"]["height"] < TAP - 0.5]
                assert not small, (game, lang, small)
            cards = page.eval_on_selector_all("#hand .card", "els => els.map((e) => e.getBoundingClientRect().toJSON())")
            if 2 <= len(cards) <= 5:  # side by side, each whole
                lefts = sorted(c["left"] for c in cards)
                assert all(b - a >= cards[0]["width"] - 0.5 for a, b in zip(lefts, lefts[1:], strict=False)), (width, lefts)
        finally:
            page.close()
