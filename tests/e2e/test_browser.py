"""End-to-end: Debian's chromium, driven by Playwright, plays and watches each game in English
and Japanese.

The server and browser fixtures are in ``conftest.py`` (skipped with the reason when chromium or
playwright is missing); screenshots go to $FOLKDECK_ARTIFACTS. The table renders every
sentence from the message catalogs (facts, coded refusals, terms): a Japanese table carries no
English word, an English one no "1 points" slip, whichever game it is.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

import folkdeck
from tests.e2e.conftest import ARTIFACTS, call, seeded_table
from tests.e2e.test_out_of_turn import _start


def _new_table(page: Any, server: str, game: str) -> None:
    """A one-deal table made in the lobby: seat 0 for us, the others the game's default bots.
    The deals field is there for a game whose match is a number of deals or has a cap."""
    page.goto(server + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", game)
    if page.is_visible("#deals"):
        page.fill("#deals", "1")
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
# Clicked through a whole deal: a shedding game, a one-card game and a trick game with a
# stock. The Burros' and Gou Ji's deals take 150-300 clicks (minutes): their pages are
# played by the refusal and out-of-turn tests and read whole in the watched matches.
CLICKED = ["kaphai", "cambio", "cangkul"]


@pytest.mark.parametrize("game", CLICKED)
def test_play_a_full_deal_against_bots(server: str, browser: Any, game: str) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 860})
    try:
        _new_table(page, server, game)
        page.screenshot(path=str(ARTIFACTS / f"{game}-start.png"))
        _play_deal(page, game, budget=60)
        page.wait_for_selector("#result-box a[download], #result-box .locked")
        page.screenshot(path=str(ARTIFACTS / f"{game}-result.png"), full_page=True)
        assert page.inner_text("#results")  # (the history is empty after a dealt putuh)
    finally:
        page.close()


def test_phone_japanese_refusal_rules_and_replay(server: str, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="ja-JP")
    try:
        page.goto(server + "/")
        page.evaluate("localStorage.setItem('folkdeck.lang', 'ja')")
        page.reload()
        page.wait_for_function("() => document.getElementById('create-btn').textContent.includes('テーブルを作る')")
        page.screenshot(path=str(ARTIFACTS / "lobby-phone-ja.png"), full_page=True)
        _new_table(page, server, "kaphai")
        page.wait_for_selector("#status.mine, #result-box", timeout=30_000)
        page.click("#rules-btn")
        page.wait_for_selector("#rules-body h2")
        heads = page.eval_on_selector_all("#rules-body h1, #rules-body h2, #rules-body h3", "els => els.map((e) => e.textContent)")
        assert heads[0].startswith("カップハイ") and "クイックスタート" in heads  # the Japanese rules
        page.screenshot(path=str(ARTIFACTS / "rules-phone-ja.png"))
        page.keyboard.press("Escape")
        _play_deal(page, "kaphai-phone", budget=60)
        page.click("#result-box a[href^='/replay']")
        page.wait_for_selector("#ring .card")
        # The lobby deals unseeded: about one Kap Hai shuffle in 16 is a putuh, over before any
        # action, and then there is no step to take (Next stays disabled).
        if int(page.get_attribute("#slider", "max") or 0) > 0:
            page.click("#next")
            event = page.inner_text("#event")
            assert event != "—" and not ENGLISH.search(event), event
        page.screenshot(path=str(ARTIFACTS / "replay-phone-ja.png"), full_page=True)
    finally:
        page.close()


NAMES = ["甲", "乙", "丙", "丁", "戊", "己", "庚", "辛"]
ENGLISH = re.compile(r"\b(seat|you|your|wins?|trick|leads?|goes|cannot|draws?|takes?|deal|pass(es)?|the|and|"
                     r"of|to|is|holds?|cards?|points?|chips?|penalt\w+|played|plays|over|phase|stock|showdown|"
                     r"refuses|discards?|out|turn|team|may|not|undefined|null|NaN|None|True|False)\b", re.IGNORECASE)
SLIP = re.compile(r"(?<![\d.])1 (points|chips|penalties|cards|tricks|seconds|discards)\b"
                  r"|(?<![\d.])(0|[2-9]|\d\d+) (point|chip|penalty|card|trick|second|discard)\b")
RAW = re.compile(r"undefined|NaN|\{\w+(:\w+)?\}|\b(fact|term|error|ui)\.[a-z_]+|\b[a-z]+\.[a-z]+_[a-z_]+\b")
REGIONS = ("#title", "#deal", "#seats", "#center", "#status", "#result", "#results", "#standings", "#history")


def _watch(browser: Any, server: str, link: str, lang: str) -> Any:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server + "/")
    page.evaluate(f"localStorage.setItem('folkdeck.lang', '{lang}')")
    page.goto(server + link)
    return page


@pytest.mark.parametrize("game", GAMES)
def test_a_watched_match_reads_in_each_language(server: str, browser: Any, game: str) -> None:
    """A finished bot match watched in 日本語 and in English: in Japanese the seats, the table,
    the status facts, the history, the results and the standings carry no English word (card
    notation, numbers and the seats' names aside); in English no count disagrees with its
    noun; in neither a raw key, a placeholder or an undefined value."""
    n = folkdeck.get_spec(game).default_players
    seats = [{"kind": "bot", "bot": "first", "name": NAMES[i]} for i in range(n)]
    status, t = call(server, "POST", "/api/tables", {"game": game, "seed": 7, "practice": True,
                                                     "deals": 1 if game == "gouji" else 2, "seats": seats})
    assert status == 201, t
    ja = _watch(browser, server, t["spectator_link"], "ja")
    en = _watch(browser, server, t["spectator_link"], "en")
    try:
        ja.wait_for_function("() => (document.getElementById('result-box') || {}).textContent?.includes('対戦終了')",
                             timeout=90_000)
        en.wait_for_function("() => (document.getElementById('result-box') || {}).textContent?.includes('Match over')",
                             timeout=30_000)
        assert ja.locator("#history li").count() > 0 and en.locator("#history li").count() > 0
        for region in REGIONS:
            text = ja.inner_text(region)
            english = sorted({m.group(0) for m in ENGLISH.finditer(text)})
            assert not english, f"{game} {region}: English left {english} in {text[:400]!r}"
            assert not RAW.search(text), f"{game} {region} (ja): {RAW.search(text)} in {text[:400]!r}"
            text = en.inner_text(region)
            assert not SLIP.search(text), f"{game} {region}: {SLIP.search(text)} in {text[:400]!r}"
            assert not RAW.search(text), f"{game} {region} (en): {RAW.search(text)} in {text[:400]!r}"
        ja.screenshot(path=str(ARTIFACTS / f"{game}-ja-phone.png"), full_page=True)
        en.screenshot(path=str(ARTIFACTS / f"{game}-en-phone.png"), full_page=True)
    finally:
        ja.close()
        en.close()


def _not_held(game: str, players: int, seed: int) -> tuple[int, str]:
    """The seat on turn in the seeded first deal, and a card it does not hold (a play the
    game refuses with its own coded reason)."""
    state = _start(game, players, {}, seed)
    seat = state.to_act[0]
    hand = {str(c) for c in state.observe(seat).hand or ()}
    card = next(c for c in ("2S", "3H", "4D", "5C", "6S", "7H") if c not in hand)
    return seat, card


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("game", GAMES)
def test_a_refused_play_shows_the_coded_reason_in_the_players_language(
        server: str, browser: Any, game: str, lang: str) -> None:
    """A play of a card the seat does not hold, sent over the page's own socket: the server
    refuses it with the game's reason key and parameters, and the page renders them from the
    catalog of its language (never the server's English ``message``)."""
    players = folkdeck.get_spec(game).default_players
    seat, card = _not_held(game, players, seed=5)
    t = seeded_table(server, game, 5, players)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    sockets: list[Any] = []
    try:
        page.route_web_socket("**/ws/**", lambda ws: sockets.append(ws.connect_to_server()))
        page.goto(server + "/")
        page.evaluate(f"localStorage.setItem('folkdeck.lang', '{lang}')")
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("body[data-progress] .seat")
        sockets[-1].send(json.dumps({"type": "action", "action": card, "ref": 99}))
        page.wait_for_selector("#error:not([hidden])")
        text = page.inner_text("#error")
        code = page.get_attribute("#error", "data-code")
        page.screenshot(path=str(ARTIFACTS / f"{game}-refusal-{lang}.png"), full_page=True)
        assert code and not RAW.search(text), (code, text)
        if lang == "ja":
            names = re.sub(r"Player \d+", "", text)
            assert re.search(r"[ぁ-んァ-ン一-龯]", text) and not ENGLISH.search(names), text
        else:
            assert re.search(r"[a-z]{3,}", text) and not SLIP.search(text), text
        _, pub = call(server, "GET", f"/api/tables/{t['id']}")
        assert pub["actions"] == 0  # the refused play changed nothing
    finally:
        page.close()
