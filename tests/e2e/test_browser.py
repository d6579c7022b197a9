"""End-to-end: Debian's chromium, driven by Playwright, plays a full deal of each game against bots.

Skipped (with the reason) when /usr/bin/chromium or playwright is missing; .ci/run installs both.
Screenshots go to $FOLKDECK_ARTIFACTS (default: <tmp>/folkdeck-e2e), never into the repository.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import folkdeck

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (the server extra)")

ARTIFACTS = Path(os.environ.get("FOLKDECK_ARTIFACTS", Path(tempfile.gettempdir()) / "folkdeck-e2e"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "folkdeck", "serve", "--port", "0", "--db", str(db),
                             "--bot-delay", "0", "--deal-pause", "0"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "http://" in line, line
    yield line.split()[3].rstrip("/")
    proc.kill()
    proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


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
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
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
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
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
        assert page.inner_text("#event") != "—"
        page.screenshot(path=str(ARTIFACTS / "replay-phone-ja.png"), full_page=True)
    finally:
        page.close()
