"""End-to-end: a finished deal's record in the browser before the match is over.

Kap Hai shuffles afresh each deal (docs/rules/kaphai.md §1.2), so deal 1's record is offered (download
and replay) as soon as deal 1 ends; Cambio's stock carries over (docs/rules/cambio.md §3.6), so its deal
records stay locked until the match ends and the table says why.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, seeded_table
from tests.e2e.test_out_of_turn import _start


def _first_deal_lines(game: str, players: int, seed: int) -> list[tuple[int, str]]:
    """Deal 1 played to its end by the seat on turn's first legal action, as the server deals it."""
    state = _start(game, players, {}, seed)
    lines = []
    while not state.is_over():
        seat = state.to_act[0]
        action = state.legal_actions(seat)[0]
        state.apply(action, seat)
        lines.append((seat, str(action)))
    return lines


@pytest.mark.parametrize("game", ["kaphai", "cambio"])
def test_deal_records_before_the_match_ends(server: str, browser: Any, game: str) -> None:
    t = seeded_table(server, game, seed=3, players=4, deals=3)
    for seat, action in _first_deal_lines(game, 4, 3):
        status, body = call(server, "POST", f"/api/tables/{t['id']}/actions",
                            {"token": t["seats"][seat]["token"], "action": action})
        assert status == 200, body
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    try:
        page.goto(server + t["seats"][0]["link"])
        page.wait_for_selector("#results li[data-deal='1']")
        assert "Deal 2/" in page.inner_text("#deal")  # the match goes on
        link = page.locator("#results li[data-deal='1'] a[download]")
        if game == "kaphai":
            assert link.count() == 1 and page.is_hidden("#locked")
            href = link.get_attribute("href")
            status, record = call(server, "GET", href)
            assert status == 200 and record["format"] == "folkdeck-record/1" and record["deal"] == 1
            page.screenshot(path=str(ARTIFACTS / "kaphai-deal-record.png"), full_page=True)
            page.click("#results li[data-deal='1'] a[href^='/replay']")
            page.wait_for_selector("#ring .card")
            page.click("#next")
            assert page.inner_text("#event") != "—"
        else:
            assert link.count() == 0
            assert "stock carries over" in page.inner_text("#locked")
            status, body = call(server, "GET", f"/api/tables/{t['id']}/records/1")
            assert status == 409 and body["detail"]["error"] == "locked"
            page.screenshot(path=str(ARTIFACTS / "cambio-deal-record-locked.png"), full_page=True)
    finally:
        page.close()
