"""End-to-end: small things a player noticed at the table (issue 25, "Table"):

- at deal over, no note of the position stays (Kap Hai's 3-game start, docs/rules/kaphai.md §2.1);
- the spectator's page says it is watching;
- while a play waits to be sent (the connection is down), Pass cannot be clicked either;
- a chat line the server refuses (too fast) stays in the box, to be sent again.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import open_page, play_lines, seeded_table
from tests.e2e.test_out_of_turn import _start
from tests.e2e.test_records import _first_deal_lines
from tests.e2e.test_social import _ui
from tests.e2e.test_table_connection import FlakyLine


def test_no_note_of_the_position_stays_at_deal_over(server: str, browser: Any) -> None:
    t = seeded_table(server, "kaphai", seed=4, players=4)
    lines = _first_deal_lines("kaphai", 4, 4)
    play_lines(server, t, lines[:1])
    page = open_page(browser, server + t["seats"][0]["link"])
    try:
        page.wait_for_selector("#facts li")  # the 3-game start is explained while it matters
        play_lines(server, t, lines[1:])
        page.wait_for_selector("#result-box")
        assert page.locator("#facts li").count() == 0, page.inner_text("#facts")
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_spectator_page_says_it_is_watching(server: str, browser: Any, lang: str) -> None:
    t = seeded_table(server, "kaphai", seed=4, players=4)
    watcher = open_page(browser, server + t["spectator_link"], lang)
    player = open_page(browser, server + t["seats"][0]["link"], lang)
    try:
        watcher.wait_for_selector("#seats .seat")
        assert watcher.is_visible("#watching") and watcher.inner_text("#watching") == _ui(lang, "spectating")
        player.wait_for_selector("#hand .card")
        assert player.is_hidden("#watching")
    finally:
        watcher.close()
        player.close()


def test_pass_waits_while_a_play_waits_to_be_sent(server: str, browser: Any) -> None:
    t = seeded_table(server, "kaphai", seed=11, players=4)
    state = _start("kaphai", 4, {}, 11)
    lead = state.current_seat
    assert lead is not None
    first = state.legal_actions(lead)[0]
    state.apply(first, lead)
    play_lines(server, t, [(lead, str(first))])
    seat = state.current_seat
    assert seat is not None and "pass" in {str(a) for a in state.legal_actions(seat)}
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    line = FlakyLine(page)
    try:
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("#actions button[data-action='pass']")
        line.refuse = True
        line.cut()
        page.wait_for_selector("#conn.down", timeout=10_000)
        page.locator("#legal button[data-legal]").first.click()
        page.click("#play")
        assert page.locator("#actions button[data-action='pass']").is_disabled()
    finally:
        page.close()


def test_a_refused_chat_line_stays_in_the_box(server: str, browser: Any) -> None:
    t = seeded_table(server, "kaphai", seed=4, players=4)
    page = open_page(browser, server + t["seats"][0]["link"])
    try:
        page.wait_for_selector("#chat-form:not([hidden])")
        for k in range(20):
            page.fill("#chat-text", f"line {k}")
            page.click("#chat-send")
            page.wait_for_function("n => document.querySelectorAll('#chat li').length > n || !document.getElementById('error').hidden",
                                   arg=k)
            if page.is_visible("#error"):
                break
            assert page.input_value("#chat-text") == ""  # shown to the table: the box is cleared
        assert page.get_attribute("#error", "data-code") == "rate_limited"
        assert page.input_value("#chat-text") == f"line {k}"
    finally:
        page.close()
