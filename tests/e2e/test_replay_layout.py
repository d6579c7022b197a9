"""End-to-end: the replay viewer lays out every seat without overlap (issue 25: at 1280×900
Gou Ji's seat 5 covered seat 4, and Kap Hai's seat 3 was a one-card-wide column over the
result), for 2 to 8 seats and a 39-seat Cambio record, on a desktop and on a phone, and
names the seats as the record names its players (a table's records keep them)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.record import Record
from folkdeck.json_types import JSONValue

CASES = [("kaphai", 2), ("kaphai", 3), ("kaphai", 4), ("cangkul", 5), ("gouji", 6), ("burro_es", 7),
         ("burro_pt", 8), ("cambio", 39)]
SIZES = [(1280, 900), (390, 844)]


def _record(game: str, players: int, steps: int) -> dict[str, Any]:
    """A seeded deal of ``game`` played ``steps`` random moves in, with its players' names."""
    g = folkdeck.load(game, players=players)
    state = g.new_match(deals=1, rng=random.Random(players)).next_deal()
    rng = random.Random(1)
    agents = [make_agent(g.spec, "random") for _ in range(players)]
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_act[0]
        state.apply(agents[seat].act(state.observe(seat), state.legal_actions(seat), rng), seat)
    names: list[JSONValue] = [f"Player {chr(65 + i % 26)}{i // 26 or ''}" for i in range(players)]
    return Record.from_state(state, players=names).to_dict()


def _replay_page(browser: Any, server: str, path: Path, width: int, height: int) -> Any:
    """A new page of the replay viewer at this size, showing the record in ``path``."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.add_init_script("localStorage.setItem('folkdeck.lang', 'en')")
    page.goto(server + "/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("#ring .replay-seat")
    return page


def _overlaps(boxes: list[dict[str, float]]) -> list[tuple[int, int]]:
    def meet(a: dict[str, float], b: dict[str, float]) -> bool:
        return (a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5
                and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5)
    return [(i, j) for i in range(len(boxes)) for j in range(i + 1, len(boxes)) if meet(boxes[i], boxes[j])]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_no_seat_covers_another_and_seats_have_names(server: str, browser: Any, tmp_path: Path,
                                                     game: str, players: int) -> None:
    path = tmp_path / f"{game}-{players}.json"
    record = _record(game, players, steps=6)
    path.write_text(json.dumps(record))
    for width, height in SIZES:
        page = _replay_page(browser, server, path, width, height)
        try:
            seats = page.locator("#ring .replay-seat")
            assert seats.count() == players
            boxes = page.eval_on_selector_all("#ring .replay-seat, #ring .replay-centre, .replay-controls, #outcome",
                                              "els => els.filter((e) => e.offsetParent).map((e) => e.getBoundingClientRect().toJSON())")
            assert not _overlaps(boxes), (width, _overlaps(boxes))
            for box in boxes[:players]:
                assert box["width"] >= 100, (width, box)  # never a one-card-wide column
            heads = page.eval_on_selector_all(  # each seat by its number (they sit round the oval)
                "#ring .replay-seat", "els => els.sort((a, b) => a.dataset.seat - b.dataset.seat)"
                ".map((e) => e.querySelector('.replay-seat-head strong').textContent)")
            assert heads == record["players"], heads
        finally:
            page.close()


def _ring_place(k: int, n: int) -> tuple[float, float]:
    """seats.js ringPlace: where the k-th seat from the viewer sits round the oval (per cent)."""
    angle = math.pi / 2 + 2 * math.pi * k / n
    return round(50 + 41 * math.cos(angle)), round(50 + 39 * math.sin(angle))


def _ring_side(k: int, n: int) -> str:
    """seats.js ringSide."""
    x, y = _ring_place(k, n)
    return "bottom" if y >= 75 else "top" if y <= 25 else "left" if x < 50 else "right"


def _lines(seats: list[int], boxes: dict[int, dict[str, float]]) -> list[list[int]]:
    """The seats of a wrapped row, line by line: the seats whose boxes share height."""
    lines: list[list[int]] = []
    for k in sorted(seats, key=lambda k: boxes[k]["top"]):
        if lines and boxes[k]["top"] < max(boxes[j]["bottom"] for j in lines[-1]) - 0.5:
            lines[-1].append(k)
        else:
            lines.append([k])
    return lines


@pytest.mark.parametrize(("game", "players"), CASES)
def test_seats_are_in_seat_order_and_sit_round_the_oval(server: str, browser: Any, tmp_path: Path,
                                                        game: str, players: int) -> None:
    """The page holds the seats in seat order, as the live table does (a spectator's view: seat
    0 first; a screen reader and the Tab key meet them in playing order), and each side still
    shows its seats in the order they sit round the oval (seats.js ringPlace)."""
    path = tmp_path / f"{game}-{players}.json"
    path.write_text(json.dumps(_record(game, players, steps=3)))
    for width, height in SIZES:
        page = _replay_page(browser, server, path, width, height)
        try:
            found = page.eval_on_selector_all(
                "#ring .replay-seat", "els => els.map((e) => [Number(e.dataset.seat), e.getBoundingClientRect().toJSON()])")
            assert [seat for seat, _ in found] == list(range(players)), (width, [seat for seat, _ in found])
            boxes = dict(found)
            for side in ("top", "bottom", "left", "right"):
                here = [k for k in range(players) if _ring_side(k, players) == side]
                if side in ("left", "right"):  # a column, top to bottom
                    lines = [here]
                    along, start = 1, "top"
                else:  # a row, left to right, wrapped into lines when it is long
                    lines = _lines(here, boxes)
                    along, start = 0, "left"
                for line in lines:
                    by_oval = sorted(line, key=lambda k: _ring_place(k, players)[along])
                    by_page = sorted(line, key=lambda k: boxes[k][start])
                    assert by_page == by_oval, (width, side, by_page, by_oval)
        finally:
            page.close()
