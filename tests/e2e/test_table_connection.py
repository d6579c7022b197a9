"""End-to-end: what a player sees when the connection drops, and what becomes of a click.

The table shows a banner while the connection is down (the seats' dots go grey), keeps an
action clicked meanwhile and sends it when the connection is back; an action whose fate is
unknown (lost on its way to the server, or its acknowledgement lost on the way back) is sent
again with the same ``ref`` after reconnecting, and the server answers a ``ref`` it has
committed with the same acknowledgement, so it is played exactly once (docs/web.md,
"Protocol"). The tab's title says when the player is wanted; a tone on one's turn is off
until asked for, and remembered. A link that opens no seat says so, once. The header's way
to a new table is a named link, not a bare "＋".
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, open_page, seeded_table
from tests.e2e.test_out_of_turn import _catalog, _start
from tests.e2e.test_social import _ui


def _kind(message: Any) -> str | None:
    """A WebSocket message's ``type`` (the server sends compact JSON: no string matching)."""
    try:
        data = json.loads(message)
    except (TypeError, ValueError):
        return None
    return data.get("type") if isinstance(data, dict) else None


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
    again, lose the page's next action on its way to the server or the server's next
    acknowledgement on its way back (then it cuts the line, as a network does). It keeps
    what reached the page."""

    def __init__(self, page: Any) -> None:
        self.routes: list[Any] = []
        self.refuse = False
        self.lose_ack = False
        self.lose_action = False
        self.lost: list[dict[str, Any]] = []
        self.delivered: list[dict[str, Any]] = []
        page.route_web_socket(re.compile(r".*/ws/.*"), self._route)

    def _route(self, ws: Any) -> None:
        if self.refuse:
            ws.close()
            return
        server = ws.connect_to_server()

        def from_page(message: Any) -> None:
            if self.lose_action and _kind(message) == "action":
                self.lose_action = False
                self.lost.append(json.loads(message))
                ws.close()
                return
            server.send(message)

        def from_server(message: Any) -> None:
            kind = _kind(message)
            if self.lose_ack and kind == "ack":
                self.lose_ack = False
                self.lost.append(json.loads(message))
                ws.close()
                return
            if kind in ("ack", "error"):
                self.delivered.append(json.loads(message))
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)
        self.routes.append(ws)

    def cut(self) -> None:
        self.routes[-1].close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_click_while_offline_is_sent_once_when_the_connection_is_back(server: str, browser: Any, lang: str) -> None:
    t, seat = _table_on_turn(server)
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    page.add_init_script(f"localStorage.setItem('folkdeck.lang', '{lang}')")
    line = FlakyLine(page)
    grey = "rgb(136, 136, 136)"
    dot = "() => getComputedStyle(document.querySelector('#seats .seat.me .dot')).backgroundColor"
    try:
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
        assert page.title().startswith(f"● {_ui(lang, 'your_turn')}")
        assert page.evaluate(dot) != grey  # connected: a green dot
        before = _actions(server, t)
        line.refuse = True
        line.cut()
        page.wait_for_selector("#conn.down", timeout=10_000)
        assert page.inner_text("#conn") == _ui(lang, "table.offline")
        assert page.evaluate(dot) == grey  # nobody is shown as connected while we are not
        page.locator("#legal button[data-legal]").first.click()
        page.click("#play")
        assert page.inner_text("#conn") == _ui(lang, "table.offline_pending")  # the move is kept
        assert page.locator("#play").is_disabled()  # one action in flight: a second click sends nothing
        assert _actions(server, t) == before  # nothing reached the server
        page.screenshot(path=str(ARTIFACTS / f"connection-lost-{lang}.png"))
        line.refuse = False
        page.wait_for_selector("#conn.up", timeout=15_000)
        assert page.inner_text("#conn") == _ui(lang, "table.reconnected")
        page.wait_for_function(f"document.body.dataset.progress.endsWith(':{before + 1}')", timeout=10_000)
        assert _actions(server, t) == before + 1
        assert page.evaluate(dot) != grey
        assert not page.title().startswith("●")  # the turn moved on
    finally:
        page.close()


@pytest.mark.parametrize("lost", ["action", "ack"])
def test_an_action_in_flight_when_the_line_drops_is_played_exactly_once(server: str, browser: Any, lost: str) -> None:
    """The line drops while an action is in flight: lost on its way to the server (never
    played), or played and its acknowledgement lost. Either way the page sends it again
    with the same ``ref`` once reconnected, and it is played exactly once: the answer is
    one acknowledgement (``repeated`` when the server had played it), never a refusal."""
    t, seat = _table_on_turn(server)
    page = open_page(browser, "about:blank", "en", (1200, 860))
    line = FlakyLine(page)
    try:
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("#hand .card")
        before = _actions(server, t)
        setattr(line, f"lose_{lost}", True)
        page.locator("#legal button[data-legal]").first.click()
        page.click("#play")
        page.wait_for_function("() => document.getElementById('conn').className === 'conn up'", timeout=15_000)
        page.wait_for_function(f"document.body.dataset.progress.endsWith(':{before + 1}')", timeout=10_000)
        page.wait_for_timeout(300)  # time for a second answer, were there one
        assert len(line.lost) == 1
        ref = line.lost[0]["ref"]
        answers = [m for m in line.delivered if m.get("ref") == ref]
        assert answers == [{"type": "ack", "ref": ref, "line": answers[0]["line"],
                            **({"repeated": True} if lost == "ack" else {})}], line.delivered
        assert _actions(server, t) == before + 1  # played once, though sent twice
        assert page.is_hidden("#error")
    finally:
        page.close()


# A tone, counted: WebAudio's oscillators as the page starts them.
TONES = """window.__tones = 0;
window.AudioContext = class { constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { return { frequency: {}, connect: (n) => n, start: () => { window.__tones += 1; }, stop() {} }; }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n }; } };
window.__titles = [];  // every title the page shows, however briefly
document.addEventListener("DOMContentLoaded", () => new MutationObserver(() => window.__titles.push(document.title))
  .observe(document.querySelector("title"), { childList: true, characterData: true, subtree: true }));"""


def _play_until_a_bot_is_on_turn(page: Any, shown: int, wanted: str) -> None:
    """Plays the first playable card; a play that wins the trick leads the next one (the turn
    stays, rightly never "not wanted"): then plays again, until a title since ``shown`` says
    the player is not wanted."""
    for _ in range(8):
        at = page.evaluate("document.body.dataset.progress")
        page.locator("#hand .card.playable").first.click()
        page.click("#play")
        page.wait_for_function(f"() => document.body.dataset.progress !== '{at}'", timeout=10_000)
        if page.evaluate(f"window.__titles.slice({shown}).some((t) => !t.startsWith('{wanted}'))"):
            return
        page.wait_for_selector("#hand .card.playable")
    raise AssertionError("the player kept the lead for eight plays")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_your_turn_in_the_title_and_a_tone_only_when_asked_for(server: str, browser: Any, lang: str) -> None:
    """The tab's title starts with "● Your turn" exactly while the player is wanted, turn
    after turn; the tone is off at first (no sound on one's turn), the ♪ button turns it on
    (it sounds once, and then on every return of one's turn) and the browser remembers it."""
    t = seeded_table(server, "cangkul", seed=5, players=4, kinds=["human", "bot", "bot", "bot"])
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    page.add_init_script(f"localStorage.setItem('folkdeck.lang', '{lang}'); {TONES}")
    wanted = f"● {_ui(lang, 'your_turn')}"
    mine = f"() => document.title.startsWith('{wanted}')"
    try:
        page.goto(server + t["seats"][0]["link"])
        page.wait_for_selector("#hand .card.playable")
        assert page.title().startswith(wanted) and _ui(lang, "your_turn") in page.inner_text("#status")
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        assert page.get_attribute("#sound", "aria-label") == _ui(lang, "table.sound_off")
        for tone in (False, True):
            if tone:
                page.click("#sound")  # on: a tone to hear what it is
                assert page.get_attribute("#sound", "aria-label") == _ui(lang, "table.sound_on")
                assert page.evaluate("window.__tones") == 1
            tones = page.evaluate("window.__tones")
            shown = page.evaluate("window.__titles.length")
            _play_until_a_bot_is_on_turn(page, shown, wanted)
            # The bots' turns: not wanted (however briefly), then wanted again.
            page.wait_for_function(f"""() => window.__titles.slice({shown}).some((t) => !t.startsWith('{wanted}'))
                && ({mine})()""", timeout=20_000)
            assert page.evaluate("window.__tones") == tones + tone
        page.reload()
        page.wait_for_selector("#hand .card")
        assert page.get_attribute("#sound", "aria-pressed") == "true"  # remembered
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_link_that_opens_no_seat_says_so_once(server: str, browser: Any, lang: str) -> None:
    t, _ = _table_on_turn(server)
    page = open_page(browser, f"{server}/table?t={t['id']}&k=not-a-seat", lang)
    try:
        page.wait_for_selector("#error:not([hidden])")
        expected = _reason(lang, "server.bad_token")
        shown = page.inner_text("#error")
        assert shown.lower() == expected.lower() and shown.lower().count(expected.lower()) == 1, shown
        assert page.inner_text("#status") == shown  # it stays said when the toast goes
        page.wait_for_timeout(1500)
        assert page.is_hidden("#conn")  # no reconnecting to a seat that is not there
    finally:
        page.close()


def _reason(lang: str, key: str) -> str:
    text: str = _catalog(lang)[f"error.{key}"]
    return text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_header_links_to_a_new_table_by_name_and_the_icon_is_served(server: str, browser: Any, lang: str) -> None:
    with urllib.request.urlopen(server + "/favicon.ico") as resp:
        assert resp.status == 200 and resp.headers["Content-Type"].startswith("image/svg+xml")
        assert b"<svg" in resp.read()
    t, seat = _table_on_turn(server)
    page = open_page(browser, server + t["seats"][seat]["link"], lang)
    try:
        page.wait_for_selector("#hand .card")
        name = _ui(lang, "table.new_table")
        assert page.inner_text("#lobby-link") == name and len(name) > 2  # words, not a bare sign
        assert page.get_by_role("link", name=name).count() == 1
        # Never underlined: an underlined "＋" reads as 土.
        assert page.eval_on_selector("#lobby-link", "e => getComputedStyle(e).textDecorationLine") == "none"
        page.locator("#lobby-link").screenshot(path=str(ARTIFACTS / f"new-table-link-{lang}.png"))
    finally:
        page.close()
