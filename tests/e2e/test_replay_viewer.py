"""End-to-end: the replay viewer draws the table and steps through a deal or a whole match.

A record replays to the same game every time (docs/records.md, "Replaying"); the viewer shows
each step's public table with every hand face up, jumps to a trick (a trick ends where the
game reports the shared ``trick_won`` fact, docs/events.md), and walks a ``folkdeck-match/1``
record deal by deal with what the match reported around each deal and the final standings.
The files a table offers (a deal's record, the whole match's record) are downloaded from its
page and opened in the viewer, in English and Japanese.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, open_page, seeded_table
from tests.e2e.test_social import _ui


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


def _say(lang: str, key: str, **params: Any) -> str:
    """A plain message of the catalog with its parameters (no plural or select in it)."""
    return _ui(lang, key).format(**params)


def _trick_starts(page: Any) -> list[int]:
    """The first step of each trick, as the viewer's trick list jumps to them."""
    starts: list[int] = page.eval_on_selector_all(
        "#events li.trick-head + li", "els => els.map((e) => Number(e.dataset.step))")
    return starts


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_records_downloaded_from_a_table_step_forward_back_and_to_a_trick(server: str, browser: Any, lang: str,
                                                                         tmp_path: Path) -> None:
    """A finished match's page offers each deal's record and the whole match's record: both
    downloaded files open in the viewer, which steps forward and back, jumps to a trick,
    and walks the match across its deals (back over a deal's start too), in the reader's
    language."""
    t = seeded_table(server, "kaphai", seed=5, players=4, kinds=["bot"] * 4, deals=2)
    table = open_page(browser, server + t["spectator_link"], lang)
    try:
        table.wait_for_selector("#result-box .match-record a[download]", timeout=60_000)
        files = {}
        for name, link in (("deal", "#results li[data-deal='1'] a[download]"), ("match", "#match-record a[download]")):
            assert table.inner_text(link) == _ui(lang, "download" if name == "deal" else "download_match")
            with table.expect_download() as download:
                table.click(link)
            files[name] = tmp_path / f"{name}.json"
            download.value.save_as(files[name])
        assert json.loads(files["deal"].read_text())["format"] == "folkdeck-record/1"
        assert json.loads(files["match"].read_text())["format"] == "folkdeck-match/1"
        assert table.inner_text("#match-record a[href^='/replay']") == _ui(lang, "replay.open_match")
    finally:
        table.close()
    page = _open(browser, server, lang)
    try:
        for name in ("deal", "match"):
            page.set_input_files("#file", str(files[name]))
            deal = _say(lang, "replay.deal_of", deal=1, deals=2) if name == "match" else _ui(lang, "step")[:1]
            page.wait_for_function("t => document.getElementById('step').textContent.startsWith(t)", arg=deal)
            steps = int(page.get_attribute("#slider", "max") or 0)
            expect(page.locator("#event")).to_have_text(_ui(lang, "replay.start"))
            expect(page.locator("#step")).to_contain_text(_say(lang, "step", step=0, steps=steps))
            page.click("#next")
            page.click("#next")
            expect(page.locator("#step")).to_contain_text(_say(lang, "step", step=2, steps=steps))
            page.click("#prev")  # back a step
            expect(page.locator("#step")).to_contain_text(_say(lang, "step", step=1, steps=steps))
            expect(page.locator("#step")).to_contain_text(_say(lang, "replay.trick", n=1))
            starts = _trick_starts(page)
            assert len(starts) >= 3 and page.locator("#tricks button").count() == len(starts)
            page.locator("#tricks button").nth(2).click()  # jump to the third trick
            expect(page.locator("#step")).to_contain_text(_say(lang, "step", step=starts[2], steps=steps))
            expect(page.locator("#step")).to_contain_text(_say(lang, "replay.trick", n=3))
            assert page.inner_text("#tricks button.current") == "3"
            page.keyboard.press("ArrowLeft")  # the step before a trick is the last of the one before
            expect(page.locator("#step")).to_contain_text(_say(lang, "replay.trick", n=2))
            page.click("#last")
            expect(page.locator("#outcome")).to_contain_text(_ui(lang, "deal_over"))
            if name == "match":  # on into deal 2, a trick there, and back over its start into deal 1
                expect(page.locator("#outcome")).to_contain_text(_ui(lang, "replay.after_deal"))
                page.click("#next")
                expect(page.locator("#step")).to_contain_text(_say(lang, "replay.deal_of", deal=2, deals=2))
                page.locator("#tricks button").nth(1).click()
                expect(page.locator("#step")).to_contain_text(_say(lang, "replay.trick", n=2))
                page.click("#last")
                expect(page.locator("#outcome")).to_contain_text(_ui(lang, "standings"))
                page.click("#first")
                page.click("#prev")  # before deal 2's first step: deal 1's last
                expect(page.locator("#step")).to_contain_text(_say(lang, "replay.deal_of", deal=1, deals=2))
                expect(page.locator("#outcome")).to_contain_text(_ui(lang, "replay.after_deal"))
            page.screenshot(path=str(ARTIFACTS / f"replay-{name}-file-{lang}.png"), full_page=True)
    finally:
        page.close()


def test_a_later_gouji_deal_opens_on_the_dealt_hands(server: str, browser: Any, tmp_path: Path) -> None:
    """Issue 35 (6): a later Gou Ji deal opens with the Da La naming the drawer, and only then
    are the hands dealt (docs/rules/gouji.md §11.16). The viewer opens it on the dealt hands,
    never on six seats holding nothing marked "out, 1st"...; step 0, one step back, says
    nobody is out."""
    from tests.engine.test_match_record_checks import recorded

    data = recorded("gouji", deals=2, seed=3)
    assert data["deals"][1]["setup"].get("name_drawer"), "deal 2 of this seed names its drawer"
    path = tmp_path / "gouji-match.json"
    path.write_text(json.dumps(data), "utf-8")
    page = _open(browser, server, "en", "/replay")
    try:
        page.set_input_files("#file", str(path))
        page.wait_for_selector("#ring .replay-seat")
        page.select_option("#deal", "2")
        page.wait_for_function("document.querySelector('#step').textContent.includes('Deal 2 of 2 · Step 1/')")
        counts = page.eval_on_selector_all("#ring .replay-seat", "els => els.map((e) => e.querySelectorAll('.card').length)")
        assert counts == [36] * 6, counts
        assert "out" not in page.inner_text("#ring")
        page.click("#prev")
        expect(page.locator("#step")).to_contain_text("Deal 2 of 2 · Step 0/")
        assert "out" not in page.inner_text("#ring"), page.inner_text("#ring")
    finally:
        page.close()
