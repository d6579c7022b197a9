"""End-to-end: the replay viewer draws the table and steps through a deal or a whole match.

A record replays to the same game every time (docs/records.md, "Replaying"); the viewer shows
each step's public table with every hand face up, jumps to a trick (a trick ends where the
game reports the shared ``trick_won`` fact, docs/events.md), and walks a ``folkdeck-match/1``
record deal by deal with what the match reported around each deal and the final standings.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.e2e.conftest import ARTIFACTS, call, seeded_table


def expect(target: Any) -> Any:
    """Playwright's auto-waiting assertions, imported when a browser test runs (the fast suite
    collects this module without the e2e extra)."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)

RECORDS = Path(__file__).resolve().parents[2] / "examples" / "records"


def _open(browser: Any, server: str, lang: str, path: str = "/replay") -> Any:
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.add_init_script(f"localStorage.setItem('folkdeck.lang', '{lang}')")
    page.goto(server + path)
    return page


def test_a_deal_record_steps_forward_back_and_to_a_trick(server: str, browser: Any) -> None:
    record = RECORDS / "kaphai-greedy-deal.json"
    steps = len(json.loads(record.read_text())["actions"])
    page = _open(browser, server, "en")
    try:
        page.set_input_files("#file", str(record))
        page.wait_for_selector("#ring .replay-seat")
        assert page.locator("#ring .replay-seat").count() == 4
        expect(page.locator("#event")).to_have_text("The cards are dealt")
        expect(page.locator("#step")).to_contain_text(f"Step 0/{steps}")
        page.click("#next")
        expect(page.locator("#step")).to_contain_text(f"Step 1/{steps}")
        expect(page.locator("#step")).to_contain_text("Trick 1")
        assert page.locator("#ring .replay-seat.just-acted").count() == 1
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#step")).to_contain_text(f"Step 0/{steps}")
        tricks = page.locator("#tricks button")
        assert tricks.count() >= 2
        tricks.nth(1).click()
        expect(page.locator("#step")).to_contain_text("Trick 2")
        assert page.locator("#tricks button.current").inner_text() == "2"
        page.keyboard.press("End")
        expect(page.locator("#step")).to_contain_text(f"Step {steps}/{steps}")
        expect(page.locator("#outcome")).to_contain_text("Deal over")
        page.locator("#events li[data-step='3']").click()
        expect(page.locator("#step")).to_contain_text(f"Step 3/{steps}")
        page.screenshot(path=str(ARTIFACTS / "replay-kaphai.png"), full_page=True)
    finally:
        page.close()


def test_the_viewer_speaks_japanese_and_refuses_a_bad_file_with_a_reason(server: str, browser: Any,
                                                                         tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "folkdeck-record/1", "game": "nosuchgame", "seed": 1, "actions": []}')
    page = _open(browser, server, "ja")
    try:
        page.set_input_files("#file", str(RECORDS / "cangkul-study.json"))
        page.wait_for_selector("#ring .replay-seat")
        expect(page.locator("#event")).to_have_text("カードが配られました")
        expect(page.locator("#step")).to_contain_text("手 0/")
        page.click("#last")
        expect(page.locator("#outcome")).to_contain_text("ディール終了")
        page.set_input_files("#file", str(bad))
        page.wait_for_selector("#error:not([hidden])")
        expect(page.locator("#error")).to_contain_text("nosuchgame")
        assert not any(w in page.inner_text("#error") for w in ("unknown", "Traceback"))
    finally:
        page.close()


def test_a_whole_match_deal_by_deal_with_its_standings(server: str, browser: Any) -> None:
    t = seeded_table(server, "kaphai", seed=5, players=4, kinds=["bot"] * 4, deals=2)
    deadline = time.monotonic() + 60
    while True:
        status, body = call(server, "GET", f"/api/tables/{t['id']}/record")
        if status == 200 and len(body["deals"]) == 2:  # the record of a match so far grows deal by deal
            break
        assert time.monotonic() < deadline, body
        time.sleep(0.2)
    assert len(body["deals"]) == 2
    page = _open(browser, server, "en", f"/replay?t={t['id']}&match=1")
    try:
        page.wait_for_selector("#ring .replay-seat")
        assert page.locator("#deal option").count() == 2
        expect(page.locator("#step")).to_contain_text("Deal 1 of 2")
        page.keyboard.press("End")
        expect(page.locator("#outcome")).to_contain_text("After this deal")
        page.click("#next")  # past the end of deal 1: deal 2 begins
        page.wait_for_function("document.querySelector('#step').textContent.includes('Deal 2 of 2')")
        expect(page.locator("#step")).to_contain_text("Deal 2 of 2 · Step 0/")
        page.click("#last")
        expect(page.locator("#outcome")).to_contain_text("Standings")
        expect(page.locator("#outcome")).to_contain_text("Deals played: 2")
        page.click("#prev")
        page.click("#first")
        page.click("#first")  # at the first step of deal 2: back to deal 1
        page.wait_for_function("document.querySelector('#step').textContent.includes('Deal 1 of 2')")
        page.screenshot(path=str(ARTIFACTS / "replay-match.png"), full_page=True)
    finally:
        page.close()
