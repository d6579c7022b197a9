"""End-to-end: Gou Ji's result says each player's own place points, as the quick start
explains ("places score +4, +2, 0, 0, −2, −4 for your team", docs/rules/gouji.md, Quick start
and §8, from the Japanese Gou Ji page's score table), then the teams' totals: never the team's
total beside each player ("you 6th (−6)"). In the replay viewer and at the table."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from tests.e2e.conftest import call, open_page, seeded_table

RECORDS = Path(__file__).resolve().parents[2] / "examples" / "records"
PLACE_POINTS = (4, 2, 0, 0, -2, -4)  # 1st … 6th, the rules' default score_table


def _points(line: str) -> list[int]:
    """The points in brackets after each seat's place, in seat order."""
    return [int(p) for p in re.findall(r"\(([+-]?\d+)\)", line)]


def test_the_replay_gives_each_place_its_points(server: str, browser: Any) -> None:
    record = json.loads((RECORDS / "gouji-normal-deal.json").read_text())
    placings, team_scores = record["result"]["placings"], record["result"]["team_scores"]
    page = open_page(browser, server + "/replay")
    try:
        page.set_input_files("#file", str(RECORDS / "gouji-normal-deal.json"))
        page.wait_for_selector("#ring .replay-seat")
        page.keyboard.press("End")
        page.wait_for_selector("#outcome div")
        lines = page.eval_on_selector_all("#outcome div", "els => els.map((e) => e.textContent)")
        rows = next(line for line in lines if "1st" in line)
        assert _points(rows) == [PLACE_POINTS[p - 1] for p in placings], rows
        teams = next(line for line in lines if line.startswith("Team scores"))
        assert [int(v) for v in re.findall(r"[+-]?\d+$|[+-]?\d+(?=,)", teams)] == team_scores, teams
    finally:
        page.close()


def test_the_table_gives_each_place_its_points(server: str, browser: Any) -> None:
    t = seeded_table(server, "gouji", seed=2, players=6, kinds=["bot"] * 6)
    deadline = time.monotonic() + 90
    while True:  # the bots play the deal out
        status, public = call(server, "GET", f"/api/tables/{t['id']}")
        if status == 200 and public["results"]:
            break
        assert time.monotonic() < deadline, public
        time.sleep(0.3)
    result = public["results"][0]
    page = open_page(browser, server + t["spectator_link"])
    try:
        page.wait_for_selector("#result-box .rows")
        rows, teams = page.eval_on_selector_all("#result-box .rows", "els => els.map((e) => e.textContent)")
        placings = result.get("placings") or []
        assert placings and _points(rows) == [PLACE_POINTS[p - 1] for p in placings], (rows, result)
        assert teams.startswith("Team scores"), teams
    finally:
        page.close()
