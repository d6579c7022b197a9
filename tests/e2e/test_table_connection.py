"""End-to-end: what a player sees when the connection drops, and what becomes of a click.

The table shows a banner while the connection is down, keeps an action clicked meanwhile and
sends it when the connection is back; the server answers a resent ``ref`` it has committed
with the same acknowledgement, so nothing is played twice (docs/web.md, "Protocol"). The tab's
title says when the player is wanted; a sound on one's turn is off until asked for.
"""

from __future__ import annotations

import re
import urllib.request
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, seeded_table
from tests.e2e.test_out_of_turn import _start


def _table_on_turn(server: str) -> tuple[dict[str, Any], int]:
    t = seeded_table(server, "kaphai", seed=11, players=4, kinds=["human"] * 4)
    seat = _start("kaphai", 4, {}, 11).current_seat
    assert seat is not None
    return t, seat


def _actions(server: str, t: dict[str, Any]) -> int:
    status, public = call(server, "GET", f"/api/tables/{t['id']}")
    assert status == 200, public
    return int(public["actions"])


class FlakyLine:
    """The page's WebSocket through Playwright's router: it can be cut, refuse to connect
    again, or lose the server's acknowledgements (then it cuts the line, as a network does)."""

    def __init__(self, page: Any) -> None:
        self.routes: list[Any] = []
        self.refuse = False
        self.lose_acks = False
        self.lost = 0
        page.route_web_socket(re.compile(r".*/ws/.*"), self._route)

    def _route(self, ws: Any) -> None:
        if self.refuse:
            ws.close()
            return
        server = ws.connect_to_server()
        ws.on_message(lambda message: server.send(message))

        def from_server(message: Any) -> None:
            if self.lose_acks and '"type": "ack"' in str(message):
                self.lost += 1
                self.lose_acks = False
                ws.close()
                return
            ws.send(message)

        server.on_message(from_server)
        self.routes.append(ws)

    def cut(self) -> None:
        self.routes[-1].close()


@pytest.mark.parametrize(("lang", "down", "back", "turn"), [
    ("en", "Connection lost", "Connected again.", "Your turn"),
    ("ja", "接続が切れました", "再接続しました。", "あなたの番"),
])
def test_a_click_while_offline_is_sent_once_when_the_connection_is_back(
        server: str, browser: Any, lang: str, down: str, back: str, turn: str) -> None:
    t, seat = _table_on_turn(server)
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    page.add_init_script(f"localStorage.setItem('folkdeck.lang', '{lang}')")
    line = FlakyLine(page)
    try:
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
        assert page.title().startswith(f"● {turn}")
        before = _actions(server, t)
        line.refuse = True
        line.cut()
        page.wait_for_selector("#conn.down", timeout=10_000)
        assert down in page.inner_text("#conn")
        page.locator("#legal button[data-legal]").first.click()
        page.click("#play")
        assert page.locator("#play").is_disabled()  # one action in flight: a second click sends nothing
        assert _actions(server, t) == before  # nothing reached the server
        page.screenshot(path=str(ARTIFACTS / f"connection-lost-{lang}.png"))
        line.refuse = False
        page.wait_for_selector("#conn.up", timeout=15_000)
        assert page.inner_text("#conn") == back
        page.wait_for_function(f"document.body.dataset.progress.endsWith(':{before + 1}')", timeout=10_000)
        assert _actions(server, t) == before + 1
        assert not page.title().startswith("●")  # the turn moved on
    finally:
        page.close()


def test_an_action_whose_answer_was_lost_is_resent_and_played_once(server: str, browser: Any) -> None:
    t, seat = _table_on_turn(server)
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    line = FlakyLine(page)
    try:
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
        before = _actions(server, t)
        line.lose_acks = True
        page.locator("#legal button[data-legal]").first.click()
        page.click("#play")
        page.wait_for_selector("#conn.up", timeout=15_000)  # cut, reconnected, resent
        assert line.lost == 1
        page.wait_for_function(f"document.body.dataset.progress.endsWith(':{before + 1}')", timeout=10_000)
        assert _actions(server, t) == before + 1  # played once, though sent twice
        assert page.is_hidden("#error")  # the resend was answered, not refused
    finally:
        page.close()


def test_sound_is_off_until_asked_and_remembered(server: str, browser: Any) -> None:
    t, seat = _table_on_turn(server)
    page = browser.new_page()
    try:
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        assert page.get_attribute("#sound", "aria-label") == "Sound on your turn: off"
        page.click("#sound")
        assert page.get_attribute("#sound", "aria-pressed") == "true"
        page.reload()
        page.wait_for_selector("#hand .card")
        assert page.get_attribute("#sound", "aria-pressed") == "true"
    finally:
        page.close()


def test_the_header_links_to_a_new_table_by_name_and_the_icon_is_served(server: str, browser: Any) -> None:
    with urllib.request.urlopen(server + "/favicon.ico") as resp:
        assert resp.status == 200 and resp.headers["Content-Type"].startswith("image/svg+xml")
        assert b"<svg" in resp.read()
    t, seat = _table_on_turn(server)
    page = browser.new_page()
    try:
        page.add_init_script("localStorage.setItem('folkdeck.lang', 'ja')")
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
        assert page.inner_text("#lobby-link") == "＋ 新しいテーブル"
        assert page.get_by_role("link", name="＋ 新しいテーブル").count() == 1
    finally:
        page.close()
