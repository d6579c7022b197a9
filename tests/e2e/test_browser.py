"""End-to-end: Debian's chromium, driven by Playwright, plays a full deal of each game against bots.

The server and browser fixtures are in ``conftest.py`` (skipped with the reason when chromium or
playwright is missing); screenshots go to $FOLKDECK_ARTIFACTS.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

import folkdeck
from tests.e2e.conftest import ARTIFACTS, call


def _new_table(page: Any, server: str, game: str) -> None:
    page.goto(server + "/")
    page.select_option("#game", game)
    page.click("#create-btn")
    page.wait_for_selector("#created:not([hidden])")
    page.click("#mine")
    page.wait_for_selector(".seat")


def _play_deal(page: Any, game: str, budget: float) -> int:
    """Click through one deal: select cards (or press the action button) whenever it is our turn."""
    moves = 0
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        page.wait_for_selector("#status.mine, #result-box", timeout=30_000)
        if page.query_selector("#result-box"):
            return moves
        # The deal's action count as the page last rendered it (history lists may be capped).
        before = page.evaluate("document.body.dataset.progress || ''")
        chip = page.query_selector("#legal button[data-legal]")
        if chip is not None:
            chip.click()  # selects the cards of the first legal play
            index = page.get_attribute("#hand .card.selected", "data-index")
            card = page.locator(f"#hand .card[data-index='{index}']")
            card.click()  # deselect and select again by clicking the card itself
            card.click()
            page.click("#play")
        else:
            page.click("#actions button[data-action]")
        moves += 1
        page.wait_for_function(
            "([before]) => (document.body.dataset.progress || '') !== before"
            " || !!document.getElementById('result-box') || !document.getElementById('error').hidden",
            arg=[before], timeout=30_000)
        if moves == 1:
            page.screenshot(path=str(ARTIFACTS / f"{game}-playing.png"))
    raise AssertionError(f"{game}: the deal did not end in {budget} s ({moves} moves)")


GAMES = list(folkdeck.games())


@pytest.mark.parametrize("game", GAMES)
def test_play_a_full_deal_against_bots(server: str, browser: Any, game: str) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    try:
        _new_table(page, server, game)
        page.screenshot(path=str(ARTIFACTS / f"{game}-start.png"))
        _play_deal(page, game, budget=60 if game != "gouji" else 240)  # six players, ~300 actions
        page.wait_for_selector("#result-box a[download]")
        page.screenshot(path=str(ARTIFACTS / f"{game}-result.png"), full_page=True)
        assert page.inner_text("#results")
    finally:
        page.close()


def test_phone_japanese_refusal_rules_and_replay(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="ja-JP")
    try:
        page.goto(server + "/")
        page.evaluate("localStorage.setItem('folkdeck.lang', 'ja')")
        page.reload()
        assert "テーブルを作る" in page.inner_text("#create-btn")
        page.screenshot(path=str(ARTIFACTS / "lobby-phone-ja.png"), full_page=True)
        _new_table(page, server, "kaphai")
        page.wait_for_selector("#status.mine, #result-box", timeout=30_000)
        page.click("#rules-btn")
        page.wait_for_selector("#rules-body h2")
        page.screenshot(path=str(ARTIFACTS / "rules-phone-ja.png"))
        page.keyboard.press("Escape")
        if page.query_selector("#status.mine"):  # an illegal play is refused with the reason
            page.evaluate("""() => { const b = document.querySelector('#hand .card:not(.playable)');
                                     if (b) b.click(); }""")
            page.screenshot(path=str(ARTIFACTS / "kaphai-phone-ja.png"), full_page=True)
        _play_deal(page, "kaphai-phone", budget=60)
        page.click("#result-box a[href^='/replay']")
        page.wait_for_selector("#hands .card")
        page.click("#next")
        if int(page.get_attribute("#slider", "max") or 0) > 0:  # a putuh deal (random seed) has no action
            assert page.inner_text("#event") != "—"
        page.screenshot(path=str(ARTIFACTS / "replay-phone-ja.png"), full_page=True)
    finally:
        page.close()


NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]
ENGLISH = re.compile(r"\b(seat|wins?|trick|leads?|goes|cannot|draws?|takes?|deal|pass(es)?|the|and|holds?|"
                     r"points|chips|penalt\w+|played|over|phase|stock|showdown|refuses|discards?|out|"
                     r"undefined|null|NaN)\b", re.IGNORECASE)


@pytest.mark.parametrize("game", GAMES)
def test_japanese_table_reads_in_japanese(server: str, browser: Any, game: str) -> None:
    """A finished bot match watched in 日本語: the seats, the table, the history, the results and
    the standings carry no English word (card notation, numbers and the seats' names aside)."""
    n = folkdeck.get_spec(game).default_players
    seats = [{"kind": "bot", "bot": "first", "name": NAMES[i]} for i in range(n)]
    status, t = call(server, "POST", "/api/tables", {"game": game, "seed": 7, "deals": 1 if game == "gouji" else 2,
                                                     "seats": seats})
    assert status == 201, t
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(server + "/")
        page.evaluate("localStorage.setItem('folkdeck.lang', 'ja')")
        page.goto(server + t["spectator_link"])
        page.wait_for_function("() => (document.getElementById('result-box') || {}).textContent?.includes('対戦終了')",
                               timeout=60_000)
        for region in ("#title", "#seats", "#center", "#status", "#result", "#results", "#standings", "#history"):
            text = page.inner_text(region)
            english = sorted({m.group(0) for m in ENGLISH.finditer(text)})
            assert not english, f"{game} {region}: English left {english} in {text[:400]!r}"
        page.screenshot(path=str(ARTIFACTS / f"{game}-ja-phone.png"), full_page=True)
    finally:
        page.close()
