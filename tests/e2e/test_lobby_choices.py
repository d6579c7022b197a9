"""End-to-end: the lobby starts a game's seats afresh when the game changes (another game's
bots are other bots, even where their names are the same), and keeps them when only the
number of players changes or the language is switched."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, open_page
from tests.e2e.test_social import _ui
from tests.test_citations import FORBIDDEN

KANA = re.compile(r"[\u3040-\u30ff]")


def test_switching_games_resets_the_seats_and_other_changes_keep_them(server: str, browser: Any) -> None:
    page = browser.new_page()
    try:
        page.add_init_script("localStorage.setItem('folkdeck.lang', 'en')")
        page.goto(server + "/")
        page.wait_for_selector(".seat-row")
        page.select_option("#game", "kaphai")
        second = page.locator(".seat-row").nth(1)
        second.locator(".bot").select_option("random")
        page.fill("#players", "5")
        page.dispatch_event("#players", "change")
        assert page.locator(".seat-row").nth(1).locator(".bot").input_value() == "random"  # kept
        page.click("#lang")
        page.wait_for_function("document.documentElement.lang === 'ja'")
        assert page.locator(".seat-row").nth(1).locator(".bot").input_value() == "random"  # kept
        page.select_option("#game", "gouji")
        default = page.evaluate("""async () => (await (await fetch('/api/games/gouji')).json()).default_bot""")
        bots = page.locator(".seat-row .bot")
        assert bots.count() == 6
        assert {bots.nth(i).input_value() for i in range(1, 6)} == {default}  # afresh
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_match_end_and_every_option_are_explained(server: str, browser: Any, lang: str) -> None:
    """A game whose match its own rule ends (Spanish Burro: a penalty limit; Cambio: the
    last player with chips) asks for no number of deals, only an optional cap, and says why;
    every rule option is named and explained in the player's language, with its own name
    beside it."""
    page = open_page(browser, server + "/", lang)
    try:
        page.wait_for_selector("#game option", state="attached")
        page.select_option("#game", "burro_es")
        assert page.inner_text("#deals-label") == _ui(lang, "deals_cap")
        assert page.input_value("#deals") == "" and page.is_visible("#deals-hint")
        hint = page.inner_text("#deals-hint")
        assert hint and "{" not in hint and (lang == "en" or KANA.search(hint)), hint
        page.click("#create summary")
        rows = page.locator("#options .field")
        games = {g["name"]: g for g in json.loads(page.evaluate("async () => JSON.stringify(await (await fetch('/api/games')).json())"))}
        assert rows.count() == len(games["burro_es"]["options"]) > 0
        for k in range(rows.count()):
            row = rows.nth(k)
            name = games["burro_es"]["options"][k]["name"]
            label = row.locator("label").inner_text()
            # a word for it in the page's language, its own name as the label's tooltip (issue 35:
            # no option name of the API beside the Japanese words)
            assert label != name and row.locator("label").get_attribute("title") == name, label
            help_text = row.locator(".help").inner_text()
            assert help_text and (lang == "en" or KANA.search(help_text)), (name, help_text)
        page.select_option("#game", "kaphai")  # a game that counts deals asks for their number
        assert page.inner_text("#deals-label") == _ui(lang, "deals") and page.input_value("#deals") == "5"
        assert page.is_hidden("#deals-hint")
        page.screenshot(path=str(ARTIFACTS / f"lobby-options-{lang}.png"), full_page=True)
        # Cambio's match is chips and a pot until one player is left: no count of deals; a
        # table made with the field left empty plays on past its first deal.
        page.select_option("#game", "cambio")
        assert page.inner_text("#deals-label") == _ui(lang, "deals_cap") and page.input_value("#deals") == ""
        assert page.is_visible("#deals-hint") and page.inner_text("#deals-hint") != hint
        page.click("#create-btn")
        page.wait_for_selector("#created:not([hidden])")
        table_id = (page.get_attribute("#mine", "href") or "").split("t=")[1].split("&")[0]
        _, public = call(server, "GET", f"/api/tables/{table_id}")
        assert public["game"] == "cambio" and public["deals"] is None
    finally:
        page.close()


# A file named in a rules panel that a reader of the repository cannot open (a team's notes,
# a saved page): any such name must be one of the repository's files, or a web address.
FILE_NAME = re.compile(r"(?<![/\w.])([\w-]+(?:/[\w-]+)*\.(?:md|txt|pdf|html?|docx?|json))\b")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_games_rules_open_with_a_quick_start_for_players(server: str, browser: Any, lang: str) -> None:
    """The lobby's rules panel of every game, in the reader's language: the title, then a
    quick start short enough for two minutes, and nowhere an internal reference (a test
    seed, the team's notes) or a document outside the repository."""
    page = open_page(browser, server + "/", lang)
    try:
        page.wait_for_selector("#game option", state="attached")
        games = page.eval_on_selector_all("#game option", "els => els.map((e) => e.value)")
        assert len(games) >= 6
        for game in games:
            page.select_option("#game", game)
            page.click("#rules-btn")
            page.wait_for_function("g => document.getElementById('rules').open && document.querySelector('#rules-body h2')",
                                   arg=game)
            heads = page.eval_on_selector_all("#rules-body h2, #rules-body h3",
                                              "els => els.map((e) => [e.tagName, e.textContent])")
            assert heads[0][0] == "H2" and (KANA.search(heads[0][1]) if lang == "ja" else not KANA.search(heads[0][1][:2]))
            quick = heads[1]
            assert quick == ["H3", "Quick start" if lang == "en" else "クイックスタート"], (game, heads[:3])
            start = page.evaluate("""() => { const h = [...document.querySelectorAll('#rules-body h3')][0]; let text = '';
                for (let n = h.nextElementSibling; n && n.tagName !== 'H3'; n = n.nextElementSibling) text += n.textContent + ' ';
                return text; }""")
            assert (len(start.split()) <= 300) if lang == "en" else (len(start) <= 900 and KANA.search(start)), (game, start)
            body = page.inner_text("#rules-body")
            assert not FORBIDDEN.search(body), (game, FORBIDDEN.search(body))
            for name in FILE_NAME.findall(body):
                assert (ROOT / name).exists() or any((ROOT / top / name).exists() for top in ("src", "src/folkdeck")), \
                    (game, name)
            if game == "gouji":
                page.screenshot(path=str(ARTIFACTS / f"rules-gouji-{lang}.png"))
            page.click("#rules button[data-t='close']")
            page.wait_for_function("() => !document.getElementById('rules').open")
    finally:
        page.close()


def test_the_japanese_lobby_is_japanese_and_plays_now(server: str, browser: Any) -> None:
    """Issue 35 (3, 10): ``/?lang=ja`` wins over an English browser; presets, choices and bots
    read in Japanese (no word of the API's names), Gou Ji asks its deals once, and *Play now
    against bots* opens a table at once."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-US")
    try:
        page.goto(server + "/?lang=ja")
        page.wait_for_selector("#quick button")
        assert page.get_attribute("html", "lang") == "ja"
        english = re.compile(r"[A-Za-z]{2,}")
        games: list[str] = page.eval_on_selector_all("#game option", "els => els.map((e) => e.value)")
        for game in games:
            page.select_option("#game", game)
            shown = page.eval_on_selector_all(
                "#preset option, #options select option, #seats .bot option, #options label",
                "els => els.map((e) => e.textContent)")
            words = [w for text in shown for w in english.findall(text) if w not in ("XI", "XII")]
            assert not words, (game, words)
            # Issue 35 (6): the lobby starts at the game's standard preset, its help in Japanese.
            assert page.input_value("#preset") == "standard"
            help_line = page.inner_text("#preset-help")
            assert help_line and not english.search(help_line), help_line
        page.select_option("#game", "gouji")
        assert page.is_visible("#deals-field") and page.is_hidden('#options [data-option="deals"]')
        page.select_option("#preset", "modern")
        assert page.inner_text("#preset-help") and not english.search(page.inner_text("#preset-help"))
        assert page.locator("#quick button").count() == len(games)
        page.click('#quick button[data-game="kaphai"]')
        page.wait_for_selector("#hand .card")
        assert "/table?" in page.url and page.get_attribute("html", "lang") == "ja"
    finally:
        page.close()
