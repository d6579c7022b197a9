"""End-to-end: the lobby starts a game's seats afresh when the game changes (another game's
bots are other bots, even where their names are the same), and keeps them when only the
number of players changes or the language is switched."""

from __future__ import annotations

from typing import Any


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
