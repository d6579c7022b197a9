"""End-to-end: a preset picked in the lobby shows its values in the rule-options panel, and
the table is made with the preset, overridden only by the options the person changed (issue
25: the lobby sent every option at its default beside the preset, and the defaults won)."""

from __future__ import annotations

import json
from typing import Any

from tests.e2e.conftest import open_page


def _created_body(page: Any) -> dict[str, Any]:
    """Create a table; the request's body, once the lobby has drawn this table's links.

    Waiting for ``#created`` to be shown is not enough after the first table: it is shown
    already, and the lobby would then draw (and scroll to) this table's links while the next
    steps run, moving the button under the next click.
    """
    with page.expect_response(lambda r: r.url.endswith("/api/tables") and r.request.method == "POST") as answer:
        page.click("#create-btn")
    link = answer.value.json()["spectator_link"]
    page.wait_for_function("link => document.querySelector('#spectator a')?.getAttribute('href') === link", arg=link)
    body: dict[str, Any] = json.loads(answer.value.request.post_data or "{}")
    return body


def test_a_preset_fills_the_panel_and_only_changes_override_it(server: str, browser: Any) -> None:
    page = open_page(browser, server + "/")
    try:
        page.wait_for_selector(".seat-row")
        page.select_option("#game", "kaphai")
        page.click("#create summary")
        assert page.input_value("#opt-putuh_optional") == "false"
        page.select_option("#preset", "declared_putuh")  # Kap Hai's preset: {putuh_optional: true}
        assert page.input_value("#opt-putuh_optional") == "true"
        body = _created_body(page)
        assert body["preset"] == "declared_putuh" and body["options"] == {}, body
        # A preset of several options (Gou Ji's modern), one of them then changed by the person.
        page.select_option("#game", "gouji")
        page.select_option("#preset", "modern")
        assert page.input_value("#opt-bj_wild_rule") == "coverage"
        assert page.input_value("#opt-score_table") == "2,1,0,0,-1,-2"
        assert page.input_value("#opt-end_when_team_out") == "true"
        page.select_option("#opt-sweep_double", "false")
        body = _created_body(page)
        assert body["preset"] == "modern" and body["options"] == {"sweep_double": "false"}
        # Back to no preset: the defaults again, and nothing sent.
        page.select_option("#preset", "")
        assert page.input_value("#opt-bj_wild_rule") == "count" and page.input_value("#opt-sweep_double") == "false"
        body = _created_body(page)
        assert "preset" not in body and body["options"] == {}
    finally:
        page.close()

