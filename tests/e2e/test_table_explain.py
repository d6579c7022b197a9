"""End-to-end: the table says why the selected cards cannot be played, as the engine refuses
them (a ``check`` message: nothing is played), in the player's language; a selection that is
a legal play says nothing. Kap Hai's combinations: docs/rules/kaphai.md §3.1."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, seeded_table
from tests.e2e.test_out_of_turn import _start


def expect(target: Any) -> Any:
    """Playwright's auto-waiting assertions, imported when a browser test runs (the fast suite
    collects this module without the e2e extra)."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


ENGLISH = re.compile(r"[A-Za-z]{4,}")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_selection_that_is_no_play_is_explained(server: str, browser: Any, lang: str) -> None:
    t = seeded_table(server, "kaphai", seed=11, players=4, kinds=["human"] * 4)
    state = _start("kaphai", 4, {}, 11)
    seat = state.current_seat
    assert seat is not None
    legal = {str(a) for a in state.legal_actions()}
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    page.add_init_script(f"localStorage.setItem('folkdeck.lang', '{lang}')")
    try:
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
        cards = page.locator("#hand .card")
        codes = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
        # Two cards of different ranks and suits far apart: no combination of Kap Hai.
        pair = next((i, j) for i in range(len(codes)) for j in range(len(codes) - 1, i, -1)
                    if f"{codes[i]} {codes[j]}" not in legal and codes[i][:-1] != codes[j][:-1])
        cards.nth(pair[0]).click()
        cards.nth(pair[1]).click()
        why = page.locator("#why")
        expect(why).to_be_visible()
        text = why.inner_text()
        assert text
        page.screenshot(path=str(ARTIFACTS / f"explain-{lang}.png"))
        if lang == "ja":
            assert not ENGLISH.search(text.replace(codes[pair[0]], "").replace(codes[pair[1]], "")), text
        before = call(server, "GET", f"/api/tables/{t['id']}")[1]["actions"]
        assert before == 0  # nothing was played by asking
        page.click("#actions button:not(#play)")  # Clear
        expect(why).to_be_hidden()
        single = next(i for i, c in enumerate(codes) if c in legal)
        cards.nth(single).click()
        expect(page.locator("#play")).to_be_enabled()
        expect(why).to_be_hidden()
    finally:
        page.close()
