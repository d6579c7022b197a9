"""End-to-end: the lobby offers a game's free first seat under its own name (``first_seat`` in
``/api/games``): Gou Ji's first kai pai (docs/rules/gouji.md §2.2, anyone), Cangkul's first
dealer (docs/rules/cangkul.md §1.2); none for Kap Hai. Left at "at random", the request names
no seat and the live table draws one."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.conftest import open_page
from tests.e2e.test_social import _ui


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lobby_sends_the_chosen_first_kai_pai(server: str, browser: Any, lang: str) -> None:
    page = open_page(browser, server + "/", lang)
    try:
        page.wait_for_selector("#game option", state="attached")
        page.select_option("#game", "kaphai")
        assert page.is_hidden("#first-dealer-field")
        page.select_option("#game", "cangkul")
        assert page.inner_text("#first-dealer-label") == _ui(lang, "first_dealer")
        page.select_option("#game", "gouji")
        assert page.is_visible("#first-dealer-field")
        assert page.inner_text("#first-dealer-label") == _ui(lang, "first_kai_pai")
        options = page.eval_on_selector_all("#first-dealer option", "els => els.map((e) => e.textContent)")
        assert options[0] == _ui(lang, "first_seat_random") and len(options) == 7
        page.select_option("#first-dealer", "3")
        with page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as sent:
            page.click("#create-btn")
        body = json.loads(sent.value.post_data or "{}")
        assert body["first_kai_pai"] == 3 and "first_dealer" not in body
        page.wait_for_selector("#created:not([hidden])")
    finally:
        page.close()
