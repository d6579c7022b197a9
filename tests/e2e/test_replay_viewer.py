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
        assert page.inner_text("#event") == "The cards are dealt"
        assert page.inner_text("#step").startswith(f"Step 0/{steps}")
        page.click("#next")
        assert page.inner_text("#step").startswith(f"Step 1/{steps}") and "Trick 1" in page.inner_text("#step")
        assert page.locator("#ring .replay-seat.just-acted").count() == 1
        page.keyboard.press("ArrowLeft")
        assert page.inner_text("#step").startswith(f"Step 0/{steps}")
        tricks = page.locator("#tricks button")
        assert tricks.count() >= 2
        tricks.nth(1).click()
        assert "Trick 2" in page.inner_text("#step")
        assert page.locator("#tricks button.current").inner_text() == "2"
        page.keyboard.press("End")
        assert page.inner_text("#step").startswith(f"Step {steps}/{steps}")
        assert "Deal over" in page.inner_text("#outcome")
        page.locator("#events li[data-step='3']").click()
        assert page.inner_text("#step").startswith(f"Step 3/{steps}")
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
        assert page.inner_text("#event") == "カードが配られました"
        assert page.inner_text("#step").startswith("手 0/")
        page.click("#last")
        assert "ディール終了" in page.inner_text("#outcome")
        page.set_input_files("#file", str(bad))
        page.wait_for_selector("#error:not([hidden])")
        assert "nosuchgame" in page.inner_text("#error")
        assert not any(w in page.inner_text("#error") for w in ("unknown", "Traceback"))
    finally:
        page.close()


def test_a_whole_match_deal_by_deal_with_its_standings(server: str, browser: Any) -> None:
    t = seeded_table(server, "kaphai", seed=5, players=4, kinds=["bot"] * 4, deals=2)
    deadline = time.monotonic() + 60
    while True:
        status, body = call(server, "GET", f"/api/tables/{t['id']}/record")
        if status == 200:
            break
        assert time.monotonic() < deadline, body
        time.sleep(0.2)
    assert len(body["deals"]) == 2
    page = _open(browser, server, "en", f"/replay?t={t['id']}&match=1")
    try:
        page.wait_for_selector("#ring .replay-seat")
        assert page.locator("#deal option").count() == 2
        assert "Deal 1 of 2" in page.inner_text("#step")
        page.keyboard.press("End")
        assert "After this deal" in page.inner_text("#outcome")
        page.click("#next")  # past the end of deal 1: deal 2 begins
        page.wait_for_function("document.querySelector('#step').textContent.includes('Deal 2 of 2')")
        assert page.inner_text("#step").startswith("Deal 2 of 2 · Step 0/")
        page.click("#last")
        outcome = page.inner_text("#outcome")
        assert "Standings" in outcome and "Deals played: 2" in outcome
        page.click("#prev")
        page.click("#first")
        page.click("#first")  # at the first step of deal 2: back to deal 1
        page.wait_for_function("document.querySelector('#step').textContent.includes('Deal 1 of 2')")
        page.screenshot(path=str(ARTIFACTS / "replay-match.png"), full_page=True)
    finally:
        page.close()
