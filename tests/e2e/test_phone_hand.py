"""End-to-end: a Gou Ji hand of 36 cards on a phone (390×844). The cards overlap like a fan,
so the hand takes a few short rows and the table stays in view; a selected card, lifted,
covers no card of the row above."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import ARTIFACTS, seeded_table


def test_a_gouji_hand_fits_a_phone_and_a_lifted_card_covers_no_row(server: str, browser: Any) -> None:
    t = seeded_table(server, "gouji", seed=2, players=6, kinds=["human"] + ["bot"] * 5)
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        page.goto(server + t["seats"][0]["link"])
        page.wait_for_selector("#hand .card")
        boxes = page.eval_on_selector_all("#hand .card", "els => els.map((e) => e.getBoundingClientRect().toJSON())")
        assert len(boxes) == 36
        rows = sorted({round(b["top"]) for b in boxes})
        assert len(rows) <= 4, rows  # three or four short rows, not the whole screen
        height = max(b["bottom"] for b in boxes) - min(b["top"] for b in boxes)
        assert height < 844 * 0.5, height
        # Lift a card of the second row: it must stay below every card of the first.
        second = [i for i, b in enumerate(boxes) if round(b["top"]) == rows[1]]
        card = page.locator("#hand .card").nth(second[len(second) // 2])
        card.click()
        page.wait_for_timeout(300)  # the lift's transition
        lifted = card.evaluate("e => e.getBoundingClientRect().toJSON()")
        after = page.eval_on_selector_all("#hand .card:not(.selected)", "els => els.map((e) => e.getBoundingClientRect().toJSON())")
        top_row = min(round(b["top"]) for b in after)
        first_bottom = max(b["bottom"] for b in after if round(b["top"]) == top_row)
        assert page.locator("#hand .card.selected").count() == 1
        assert lifted["top"] >= first_bottom - 1, (lifted["top"], first_bottom)
        page.screenshot(path=str(ARTIFACTS / "gouji-phone-hand.png"), full_page=True)
    finally:
        page.close()
