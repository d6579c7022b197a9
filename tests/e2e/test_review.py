"""End-to-end: after a deal, the player asks the search bot to weigh each of their
decisions; the table lists them, the search's choice beside the player's, and marks the
costly ones — in English and in Japanese."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, open_page, play_lines, seeded_table
from tests.e2e.test_records import _first_deal_lines
from tests.e2e.test_social import _ui


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_review_my_decisions_after_a_deal(server: str, browser: Any, lang: str) -> None:
    t = seeded_table(server, "kaphai", seed=3, players=4, deals=1)
    play_lines(server, t, _first_deal_lines("kaphai", 4, 3))
    page = open_page(browser, server + t["seats"][1]["link"], lang, (1280, 1000))
    try:
        page.wait_for_selector("#review-btn")
        assert page.inner_text("#review-btn") == _ui(lang, "review")
        page.click("#review-btn")
        page.wait_for_selector(".review-list li", timeout=60_000)
        items = page.locator(".review-list li")
        assert items.count() >= 1 and page.locator("#review-btn").count() == 0  # asked once
        assert all(f"{int(i) + 1}" in items.nth(k).inner_text()
                   for k, i in enumerate(items.evaluate_all("els => els.map((e) => e.dataset.index)")))
        costly = page.locator(".review-list li.costly").count()
        summary = page.inner_text("#review p")
        assert str(costly) in summary and str(items.count()) in summary
        if costly:
            assert _ui(lang, "review.costly") in page.inner_text(".review-list li.costly")
        page.screenshot(path=str(ARTIFACTS / f"review-{lang}.png"), full_page=True)
    finally:
        page.close()


def test_every_finished_deal_stays_reviewable(server: str, browser: Any) -> None:
    """Issue 25: the review lived only in the deal-over box, gone when the next deal starts.
    Deal 1's row in Results keeps its button during deal 2, and its review stays on screen."""
    t = seeded_table(server, "kaphai", seed=3, players=4, deals=3)
    play_lines(server, t, _first_deal_lines("kaphai", 4, 3))
    page = open_page(browser, server + t["seats"][1]["link"], "en", (1280, 1000))
    try:
        page.wait_for_function("() => document.body.dataset.progress && document.body.dataset.progress.startsWith('2:')")
        assert page.locator("#result-box").count() == 0  # deal 2 is on: no deal-over box
        button = page.locator("#results li[data-deal='1'] button.review-deal")
        assert button.inner_text() == _ui("en", "review")
        button.click()
        page.wait_for_selector(".review-list li", timeout=60_000)
        assert page.inner_text("#review h3") == _ui("en", "review.title").replace("{deal}", "1")
        assert page.locator("#results li[data-deal='1'] button.review-deal").count() == 0  # asked once
        page.click("#review button.close")
        assert page.is_hidden("#review") and page.locator("#results li[data-deal='1'] button.review-deal").count() == 1
    finally:
        page.close()
