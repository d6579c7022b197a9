"""End-to-end: the table page and the replay viewer draw with one renderer (web/view.js) that
patches the page instead of rebuilding it (issue 24): across a message, or a step of a
replay, every seat stays the same element, each card still held stays the same element (keyed
by its code), the card played is gone from the hand, and the history keeps its old lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.conftest import open_page, seeded_table

RECORDS = Path(__file__).resolve().parents[2] / "examples" / "records"

# Marks every seat, card and history line with a property of the element itself: a rebuilt
# element is a new object without it.
MARK = """() => { for (const el of document.querySelectorAll('#seats .seat, #ring .replay-seat, #hand .card, #ring .replay-seat .card, #history li'))
  el.__kept = true; }"""
KEPT = """(sel) => [...document.querySelectorAll(sel)].map((el) => [el.dataset.card || el.dataset.seat || el.textContent, !!el.__kept])"""


def test_a_message_patches_the_table_page(server: str, browser: Any) -> None:
    t = seeded_table(server, "cangkul", seed=5, players=4, kinds=["human", "bot", "bot", "bot"])
    page = open_page(browser, server + t["seats"][0]["link"])
    try:
        page.wait_for_selector("#hand .card.playable")
        hand = page.eval_on_selector_all("#hand .card", "els => els.map((e) => e.dataset.card)")
        page.evaluate(MARK)
        played = page.get_attribute("#hand .card.playable", "data-card")
        at = page.evaluate("document.body.dataset.progress")
        page.click("#hand .card.playable")
        page.click("#play")
        page.wait_for_function(f"() => document.body.dataset.progress !== '{at}' && document.querySelector('#history li')")
        seats = page.evaluate(KEPT, "#seats .seat")
        assert len(seats) == 4 and all(kept for _, kept in seats), seats
        cards = page.evaluate(KEPT, "#hand .card")
        assert played not in [code for code, _ in cards], (played, cards)
        held = [(code, kept) for code, kept in cards if code in hand]  # a card drawn since is new
        assert held and all(kept for _, kept in held), cards
        assert len(held) == len(hand) - 1
    finally:
        page.close()


def test_a_step_patches_the_replay(server: str, browser: Any) -> None:
    record = RECORDS / "kaphai-greedy-deal.json"
    assert json.loads(record.read_text())["actions"]
    page = open_page(browser, server + "/replay")
    try:
        page.set_input_files("#file", str(record))
        page.wait_for_selector("#ring .replay-seat")
        page.click("#next")
        page.wait_for_selector("#ring .replay-seat.just-acted")
        before = page.evaluate(KEPT, "#ring .replay-seat .card")
        page.evaluate(MARK)
        page.click("#next")
        page.wait_for_function("document.querySelector('#step').textContent.includes('2/')")
        seats = page.evaluate(KEPT, "#ring .replay-seat")
        assert len(seats) == 4 and all(kept for _, kept in seats), seats
        after = page.evaluate(KEPT, "#ring .replay-seat .card")
        assert len(after) == len(before) - 1  # one card went from a hand to the table
        assert all(kept for _, kept in after), after
    finally:
        page.close()
