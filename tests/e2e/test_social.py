"""End-to-end: playing with people. A name typed in the lobby, a table with an open seat in
the list of open tables, a second person joining it from their own browser under their own
name, chat between the two (shown as text, never as markup, and cut off with a refusal when
it comes too fast), and the next match with the same seats once the match is over — in
English and in Japanese."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, open_page, play_lines, seeded_table
from tests.e2e.test_out_of_turn import _catalog
from tests.e2e.test_records import _first_deal_lines

CATALOGS = Path(__file__).resolve().parents[2] / "src" / "folkdeck" / "i18n"


def _ui(lang: str, key: str) -> str:
    value: str = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))[f"ui.{key}"]
    return value


def _two_people(browser: Any, lang: str) -> tuple[Any, Any]:
    """Two browsers of their own (a creator and a friend), both set to ``lang``."""
    people = []
    for _ in range(2):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.add_init_script(f"localStorage.setItem('folkdeck.lang', '{lang}')")
        people.append(ctx)
    return people[0], people[1]


def _kaphai_lobby(person: Any, server: str, name: str) -> Any:
    """The lobby in ``person``'s browser, with their name typed and Kap Hai chosen."""
    lobby = person.new_page()
    lobby.goto(server + "/")
    lobby.wait_for_selector("#game option", state="attached")
    lobby.fill("#your-name", name)
    lobby.select_option("#game", "kaphai")
    return lobby


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_friend_joins_an_open_table_by_name_and_they_chat(server: str, browser: Any, lang: str) -> None:
    host, guest = _two_people(browser, lang)
    try:
        lobby = _kaphai_lobby(host, server, "Dara")
        rows = lobby.locator(".seat-row .kind")
        rows.nth(1).select_option("open")
        rows.nth(2).select_option("bot")
        rows.nth(3).select_option("bot")
        lobby.click("#create-btn")
        lobby.wait_for_selector("#created:not([hidden])")
        table_id = lobby.get_attribute("#mine", "href").split("t=")[1].split("&")[0]
        lobby.click("#mine")
        lobby.wait_for_selector("#hand .card")
        assert "Dara" in lobby.inner_text("#seats") and _ui(lang, "table.open_seat") in lobby.inner_text("#seats")

        page = guest.new_page()
        page.goto(server + "/")
        entry = page.locator(f"#open-tables li[data-table='{table_id}']")
        entry.wait_for()
        assert "Dara" in entry.inner_text()
        entry.locator("button.join").click()  # no name yet: asked for one, nothing sent
        page.wait_for_selector("#error:not([hidden])")
        assert page.inner_text("#error") == _ui(lang, "name_needed")
        page.fill("#your-name", "Mei")
        entry.locator("button.join").click()
        page.wait_for_url("**/table?t=*")
        page.wait_for_selector("#hand .card")
        lobby.wait_for_function("() => document.getElementById('seats').innerText.includes('Mei')")
        creator = page.inner_text("#seats .seat[data-seat='0'] .name")
        assert "Dara" in creator and _ui(lang, "you") not in creator  # the creator is Dara to the others, not "You"
        _, listed = call(server, "GET", "/api/tables")
        assert table_id not in {x["id"] for x in listed}  # its one open seat is taken

        assert page.inner_text("#chat-empty") == _ui(lang, "table.chat_empty")
        page.fill("#chat-text", "<b>sua s'dei</b> 你好")
        page.click("#chat-send")
        lobby.wait_for_selector("#chat li")
        assert lobby.inner_text("#chat li") == "Mei: <b>sua s'dei</b> 你好"
        assert lobby.locator("#chat b").count() == 0 and lobby.is_hidden("#chat-empty")
        # Short chat: a burst of messages is cut off with a refusal in the player's language.
        for k in range(12):
            page.fill("#chat-text", f"{k}")
            page.click("#chat-send")
            if page.is_visible("#error"):
                break
        page.wait_for_selector("#error:not([hidden])")
        assert page.get_attribute("#error", "data-code") == "rate_limited"
        assert page.inner_text("#error").startswith(_ui(lang, "error.rate_limited"))
        page.wait_for_timeout(300)
        assert lobby.locator("#chat li").count() < 1 + k + 1  # the refused message reached nobody
        lobby.fill("#my-name", "Dara K.")
        lobby.click("#name-save")
        page.wait_for_function("() => document.getElementById('seats').innerText.includes('Dara K.')")
        assert _ui(lang, "table.chat") in page.inner_text("aside")
        page.screenshot(path=str(ARTIFACTS / f"table-chat-{lang}.png"), full_page=True)
    finally:
        host.close()
        guest.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_play_again_with_the_same_seats(server: str, browser: Any, lang: str) -> None:
    t = seeded_table(server, "kaphai", seed=3, players=4, deals=1)
    play_lines(server, t, _first_deal_lines("kaphai", 4, 3))
    page = open_page(browser, server + t["seats"][2]["link"], lang, (1200, 860))
    try:
        button = page.locator("#rematch")
        button.wait_for()
        assert button.inner_text() == _ui(lang, "table.rematch") and page.is_hidden("#next-match")
        # Issue 35 (5): the match-over box names the winner (ties ranked equal) and keeps
        # "Play again" in view without scrolling.
        _, public = call(server, "GET", f"/api/tables/{t['id']}")
        scores = public["standings"]["scores"]
        best = max(scores) if public["standings"]["higher_wins"] else min(scores)
        you = "You" if lang == "en" else "あなた"  # this page's seat, seat 2, is "you"
        first = [public["seats"][s]["name"] if s != 2 else you for s, v in enumerate(scores) if v == best]
        winner = page.inner_text("#result-box #winner")
        assert first and all(name in winner for name in first), (winner, first, scores)
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 860, box
        button.click()
        page.wait_for_function(f"() => !location.search.includes('t={t['id']}')")
        page.wait_for_selector("#hand .card")
        assert f"k={t['seats'][2]['token']}" in page.url  # the same seat, by the same link's token
        assert page.is_hidden("#rematch") and page.locator("#results li").count() == 0
        _, old = call(server, "GET", f"/api/tables/{t['id']}")
        assert old["rematch"] and old["rematch"] in page.url
        other = open_page(browser, server + t["seats"][0]["link"], lang, (1200, 860))
        try:  # another seat of the old table is offered the way to the next match
            link = other.locator("#next-match")
            link.wait_for()
            assert link.inner_text() == _ui(lang, "table.next_match") and other.is_hidden("#rematch")
            link.click()
            other.wait_for_selector("#hand .card")
            assert old["rematch"] in other.url and f"k={t['seats'][0]['token']}" in other.url
        finally:
            other.close()
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_invited_person_has_the_name_given_and_sees_the_creator_by_name(server: str, browser: Any,
                                                                           lang: str) -> None:
    """The creator names the person they invite in the lobby: the table shows that name, not
    "Player 2"; the invited person sees the creator by name everywhere, the history included
    (where the creator reads "you" the invited person reads the creator's name)."""
    host, guest = _two_people(browser, lang)
    you = _catalog(lang)["seat.you"]
    try:
        lobby = _kaphai_lobby(host, server, "Dara")
        rows = lobby.locator(".seat-row")
        rows.nth(1).locator(".kind").select_option("human")
        rows.nth(1).locator(".seat-name").fill("Mei")
        lobby.click("#create-btn")
        lobby.wait_for_selector("#created:not([hidden])")
        invite = lobby.locator("#links li").nth(1).locator("a").get_attribute("href")
        lobby.click("#mine")
        lobby.wait_for_selector("#hand .card")
        page = guest.new_page()
        page.goto(server + (invite or ""))
        page.wait_for_selector("#hand .card")
        for p in (lobby, page):
            names = [n.split("(")[0].strip() for n in p.eval_on_selector_all("#seats .name", "els => els.map((e) => e.textContent)")]
            assert "Dara" in names and "Mei" in names and "Player 2" not in names, names
        # Both play their turns until the creator has played something.
        mine = f"() => [...document.querySelectorAll('#history li')].some((li) => li.textContent.startsWith('{you[0].upper() + you[1:]}'))"
        deadline = time.monotonic() + 60
        while not lobby.evaluate(mine):
            assert time.monotonic() < deadline
            for p in (lobby, page):
                if p.query_selector("#status.mine"):
                    if p.query_selector("#legal button[data-legal]"):
                        p.click("#legal button[data-legal]")
                        p.click("#play")
                    elif p.query_selector("#actions button[data-action]"):
                        p.click("#actions button[data-action]")
            lobby.wait_for_timeout(200)
        progress = lobby.evaluate("document.body.dataset.progress")
        page.wait_for_function("p => document.body.dataset.progress === p", arg=progress)
        theirs = lobby.eval_on_selector_all("#history li", "els => els.map((e) => e.textContent)")
        seen = page.eval_on_selector_all("#history li", "els => els.map((e) => e.textContent)")
        assert len(theirs) == len(seen)
        creator = [(a, b) for a, b in zip(theirs, seen, strict=True) if a.lower().startswith(you.lower())]
        assert creator and all(b.startswith("Dara") for _, b in creator), creator
        page.screenshot(path=str(ARTIFACTS / f"invited-{lang}.png"), full_page=True)
    finally:
        host.close()
        guest.close()
