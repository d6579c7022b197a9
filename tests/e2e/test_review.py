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
