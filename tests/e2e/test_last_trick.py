"""End-to-end: the trick just won stays on the table, faded and captioned with who won it,
until the next play (the typed history's ``played`` acts and ``trick_won`` fact; no game
name in the browser), in English and in Japanese."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import ARTIFACTS, call, open_page, play_lines, seeded_table
from tests.e2e.test_out_of_turn import _start


def _to_first_trick(game: str, seed: int) -> tuple[list[tuple[int, str]], int, list[str], tuple[int, str]]:
    """The actions up to the first trick won (each seat's first legal action), the winner,
    the cards of that trick, and the next action."""
    state = _start(game, 4, {}, seed)
    lines: list[tuple[int, str]] = []
    cards: list[str] = []
    while not state.is_over():
        seat = state.to_act[0]
        action = state.legal_actions(seat)[0]
        state.apply(action, seat)
        lines.append((seat, str(action)))
        seen: dict[str, Any] = state.observe(None).history[-1].to_dict()  # the event as the table shows it
        for fact in [seen["act"] or {}, *seen["facts"]]:
            if fact.get("type") == "played" or fact.get("type", "").endswith("_played"):
                cards += fact.get("cards") or [fact["card"]]
        won = [f for f in seen["facts"] if f["type"] == "trick_won"]
        if won and cards:
            nxt = state.to_act[0]
            return lines, won[0]["seat"], cards, (nxt, str(state.legal_actions(nxt)[0]))
    raise AssertionError("no trick was won")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_last_trick_stays_until_the_next_play(server: str, browser: Any, lang: str) -> None:
    lines, winner, cards, (seat, action) = _to_first_trick("cangkul", 7)
    t = seeded_table(server, "cangkul", seed=7, players=4)
    play_lines(server, t, lines)
    page = open_page(browser, server + t["seats"][(winner + 1) % 4]["link"], lang)
    try:
        page.wait_for_selector("#last-trick")
        shown = page.eval_on_selector_all("#last-trick .card", "els => els.map((e) => e.dataset.card)")
        assert sorted(shown) == sorted(cards)
        caption = page.inner_text(".last-caption")
        name = page.inner_text(f"#seats .seat[data-seat='{winner}'] .name").split("(")[0].strip()
        assert name in caption, caption
        assert ("won by" in caption) if lang == "en" else ("直前のトリック" in caption)
        page.screenshot(path=str(ARTIFACTS / f"last-trick-{lang}.png"))
        before = page.evaluate("document.body.dataset.progress")
        status, body = call(server, "POST", f"/api/tables/{t['id']}/actions", {"token": t["seats"][seat]["token"], "action": action})
        assert status == 200, body
        page.wait_for_function("b => document.body.dataset.progress !== b", arg=before)
        if action != "draw":  # a card played: the new trick replaces the last one, the play slides in
            assert page.locator("#last-trick").count() == 0 and page.locator("#trick").count() == 1
            assert page.locator("#trick figure.fresh").count() == 1
    finally:
        page.close()
