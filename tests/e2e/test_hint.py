"""End-to-end: the hint button. A person on turn asks what a good bot would play; the
table selects those cards (or marks the button) and says why, in the player's language,
from the values the search found (``folkdeck.agents.advice``); *Play* then plays it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, open_page, seeded_table
from tests.e2e.test_social import _ui


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_hint_selects_the_play_and_says_why(server: str, browser: Any, lang: str) -> None:
    t = seeded_table(server, "cangkul", seed=11, players=4, kinds=["human", "bot", "bot", "bot"])
    page = open_page(browser, server + t["seats"][0]["link"], lang)
    try:
        page.wait_for_selector("#hint-btn")
        assert _ui(lang, "hint") in page.inner_text("#hint-btn")
        page.click("#hint-btn")
        page.wait_for_function("() => !!(document.querySelector('#hand .card.selected') || document.querySelector('button.hinted'))")
        text = page.inner_text("#hint")
        assert text and text != _ui(lang, "hint.thinking")
        assert ("search bot" in text) if lang == "en" else ("探索ボット" in text)
        selected = page.eval_on_selector_all("#hand .card.selected", "els => els.map((e) => e.dataset.card)")
        hinted = page.eval_on_selector_all("button.hinted", "els => els.map((e) => e.dataset.action)")
        assert selected or hinted
        page.screenshot(path=str(ARTIFACTS / f"hint-{lang}.png"))
        before = page.evaluate("document.body.dataset.progress")
        if selected:
            page.click("#play")
        else:
            page.click("button.hinted")
        page.wait_for_function("b => document.body.dataset.progress !== b", arg=before)
        _, pub = call(server, "GET", f"/api/tables/{t['id']}")
        assert pub["actions"] >= 1
        assert page.is_hidden("#hint")  # the hint spoke of a position that has passed
    finally:
        page.close()
