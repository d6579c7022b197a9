"""End-to-end: an axe-core scan (tests/e2e/vendor/axe.min.js) of the lobby, a table in play
and the replay viewer with a record open, in English and Japanese, finds no serious or
critical violation (issue 35: contrast, names, roles)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import open_page, seeded_table

AXE = Path(__file__).with_name("vendor") / "axe.min.js"
RECORDS = Path(__file__).resolve().parents[2] / "examples" / "records"
SCAN = """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
  .filter((v) => v.impact === "serious" || v.impact === "critical")
  .map((v) => [v.id, v.impact, v.nodes.slice(0, 3).map((n) => n.target.join(" "))])"""


def _violations(page: Any) -> list[Any]:
    page.add_script_tag(path=str(AXE))
    found: list[Any] = page.evaluate(SCAN)
    return found


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_lobby_a_table_and_the_replay_pass_axe(server: str, browser: Any, lang: str) -> None:
    table = seeded_table(server, "kaphai", seed=4, players=4, kinds=["human"] + ["bot"] * 3)
    pages = {"lobby": ("/", "#quick button"), "table": (table["seats"][0]["link"], "#hand .card"),
             "replay": ("/replay", "#file")}
    for name, (path, ready) in pages.items():
        page = open_page(browser, server + path, lang, (1280, 800))
        try:
            page.wait_for_selector(ready, state="attached")
            if name == "replay":
                page.set_input_files("#file", str(RECORDS / "kaphai-study.json"))
                page.wait_for_selector("#ring .replay-seat")
            assert _violations(page) == [], name
        finally:
            page.close()
