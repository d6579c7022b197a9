"""End-to-end: out-of-turn actions in chromium, shown only to the seat entitled to them.

Each case seeds a table (every seat a person, so no bot closes the window), reaches the
window (by REST actions computed with the engine for the same seed when it needs play),
opens the entitled seat's page and another seat's, checks that only the first shows the
button, clicks it and checks the result:

- Cambio: a seat holding the OWL may call cucco (クク) out of turn (docs/rules/cambio.md §4.3).
- Kap Hai with ``putuh_optional=true``: a seat dealt a putuh (プトゥッフ) pattern may declare
  it before the first lead, "自分の順番を待つ必要はありません" (docs/rules/kaphai.md §4.3).
- Gou Ji: burning (烧牌, シャオパイ): after a gouji play, a seat of the other team may burn it
  instead of the opposite (docs/rules/gouji.md §5); the window seat sees ``burn <set>``, no one else does.
- Gou Ji: 先让让, after i played, i+1 and i+2 passed and the opposite i+3 played, seat i may
  ask to go first (docs/rules/gouji.md §6).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.protocol import State
from tests.e2e.conftest import ARTIFACTS, call, seeded_table


@dataclass
class Window:
    """A seeded position where ``entitled`` may take ``action`` and ``others`` may not."""

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    entitled: int
    action: str
    others: list[int]
    """The other seats, the seat on turn first."""
    lines: list[tuple[int, str]] = field(default_factory=list)


def _start(game: str, players: int, options: dict[str, Any], seed: int) -> State:
    """The first deal exactly as the server deals it for this seed (``Table.new``)."""
    g = folkdeck.load(game, players=players, **options)
    return g.new_match(deals=1, rng=random.Random(seed)).next_deal()


def _window(state: State, action: str) -> tuple[int, list[int]] | None:
    """The seat that may take ``action`` now and the seats that may not, if exactly one may."""
    entitled = [s for s in range(state.num_players) if s in state.to_act
                and action in {str(a) for a in state.legal_actions(s)}]
    if len(entitled) != 1:
        return None
    others = [s for s in range(state.num_players) if s != entitled[0]]
    return entitled[0], sorted(others, key=lambda s: (s != state.to_act[0], s))  # the seat on turn first


def _find(game: str, players: int, options: dict[str, Any], action: str,
          play: Callable[[State, random.Random], Any] | None = None, seeds: int = 400) -> Window:
    """The first seed whose deal reaches a window for ``action`` (after ``play`` moves, if given)."""
    for seed in range(seeds):
        state = _start(game, players, options, seed)
        rng = random.Random(seed)
        lines: list[tuple[int, str]] = []
        for _ in range(3000 if play else 1):
            if state.is_over():
                break
            found = _window(state, action)
            if found:
                return Window(game, players, seed, options, found[0], action, found[1], lines)
            if play is None:
                break
            seat = state.to_act[0]
            chosen = play(state, rng)
            state.apply(chosen, seat)
            lines.append((seat, str(chosen)))
    raise AssertionError(f"no seed in 0..{seeds} reaches a {action!r} window in {game}")


def _plain(state: State, rng: random.Random) -> Any:
    """A random legal action of the seat on turn, never a special call."""
    legal = state.legal_actions(state.to_act[0])
    plain = [a for a in legal if str(a) not in ("xian", "open") and not str(a).startswith("burn")]
    return rng.choice(plain or list(legal))


def _greedy(state: State, rng: random.Random) -> Any:
    """The greedy bot's choice for the seat on turn (it makes the big plays that open burning)."""
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    plain = [a for a in legal if str(a) not in ("xian", "open") and not str(a).startswith("burn")]
    agent = make_agent(folkdeck.get_spec(state.observe(None).to_dict()["game"]), "greedy")
    return agent.act(state.observe(seat), tuple(plain or legal), rng)


CASES = {
    "cambio-cucco": lambda: _find("cambio", 4, {}, "cucco"),
    "kaphai-putuh": lambda: _find("kaphai", 4, {"putuh_optional": True}, "putuh"),
    "gouji-xian": lambda: _find("gouji", 6, {}, "xian", play=_plain, seeds=40),
    "gouji-burn": lambda: _find_burn(),
}


def _find_burn() -> Window:
    """Burning (烧牌, docs/rules/gouji.md §5): after a gouji play, a seat of the other team may play
    over it instead of the opposite; the window offers ``burn <set>`` and ``no``."""
    for seed in range(60):
        state = _start("gouji", 6, {}, seed)
        rng = random.Random(seed)
        lines: list[tuple[int, str]] = []
        while not state.is_over() and len(lines) < 3000:
            seat = state.to_act[0]
            burns = [str(a) for a in state.legal_actions(seat) if str(a).startswith("burn")]
            if burns:
                return Window("gouji", 6, seed, {}, seat, burns[0], [s for s in range(6) if s != seat], lines)
            chosen = _greedy(state, rng)
            state.apply(chosen, seat)
            lines.append((seat, str(chosen)))
    raise AssertionError("no seed in 0..60 reaches a burning window")


def _answers_after(w: Window) -> list[int]:
    """The seats that pass, in turn, after the window's action until the deal is over (a
    putuh window asks every seat in turn, docs/rules/kaphai.md §4.4; the cucco call ends the deal)."""
    state = _start(w.game, w.players, w.options, w.seed)
    for seat, line in [*w.lines, (w.entitled, w.action)]:
        state.apply(next(a for a in state.legal_actions(seat) if str(a) == line), seat)
    seats: list[int] = []
    while not state.is_over() and len(seats) < w.players:
        seat = state.to_act[0]
        state.apply(next(a for a in state.legal_actions(seat) if str(a) == "pass"), seat)
        seats.append(seat)
    assert state.is_over(), "the deal goes on after the window"
    return seats


def _open(browser: Any, server: str, link: str, size: tuple[int, int]) -> Any:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(server + link)
    page.wait_for_selector("body[data-progress] .seat")
    return page


@pytest.mark.parametrize("case", list(CASES))
def test_out_of_turn_button_only_for_the_entitled_seat(server: str, browser: Any, case: str) -> None:
    w = CASES[case]()
    t = seeded_table(server, w.game, w.seed, w.players, w.options)
    for seat, action in w.lines:  # reach the window: the moves the engine made for this seed
        status, body = call(server, "POST", f"/api/tables/{t['id']}/actions",
                            {"token": t["seats"][seat]["token"], "action": action})
        assert status == 200, (seat, action, body)
    button = f"button[data-action='{w.action}']"
    mine = _open(browser, server, t["seats"][w.entitled]["link"], (390, 844))
    others = [_open(browser, server, t["seats"][s]["link"], (1200, 860)) for s in w.others[:2]]
    spectator = _open(browser, server, t["spectator_link"], (1200, 860))
    try:
        mine.wait_for_selector(f"#oot {button}")
        assert "oot" in (mine.get_attribute(f"#oot {button}", "class") or "")
        mine.screenshot(path=str(ARTIFACTS / f"{case}-entitled-phone.png"), full_page=True)
        for i, page in enumerate([*others, spectator]):
            assert page.locator(button).count() == 0, f"seat {w.others[i] if i < len(others) else 'spectator'}"
        others[0].screenshot(path=str(ARTIFACTS / f"{case}-other-seat.png"), full_page=True)
        before = mine.evaluate("document.body.dataset.progress")
        mine.click(f"#oot {button}")
        mine.wait_for_function("b => document.body.dataset.progress !== b", arg=before)
        assert mine.locator(button).count() == 0  # the call is made once
        if w.action.startswith("burn"):  # the burn is played over the gouji
            mine.wait_for_function("() => document.querySelector('#history li')?.textContent.includes('烧牌')")
        elif w.game == "gouji":  # the seat on turn is asked to let the caller go first
            asked = others[0]  # the seat on turn: the request is among the status facts
            asked.wait_for_function("() => document.getElementById('facts')?.textContent.includes('先让让')")
            asked.screenshot(path=str(ARTIFACTS / f"{case}-asked.png"), full_page=True)
        else:  # cucco ends the deal at once; after a putuh the other seats in turn may answer
            passes = _answers_after(w)
            for seat in passes:
                status, body = call(server, "POST", f"/api/tables/{t['id']}/actions",
                                    {"token": t["seats"][seat]["token"], "action": "pass"})
                assert status == 200, (seat, body)
            mine.wait_for_selector("#result-box")
            assert w.action in mine.inner_text("#result-box").lower()
            assert mine.locator("#result-box a[download]").count() >= 1 or w.game == "cambio"
        mine.screenshot(path=str(ARTIFACTS / f"{case}-after-phone.png"), full_page=True)
        _, pub = call(server, "GET", f"/api/tables/{t['id']}")
        assert pub["actions"] == len(w.lines) + 1 + (len(passes) if w.action in ("cucco", "putuh") else 0)
    finally:
        for page in [mine, *others, spectator]:
            page.close()


def test_a_refused_action_shows_the_reason_in_japanese(server: str, browser: Any) -> None:
    """Two tabs of one seat: the seat acts in one, then the stale tab's button is refused by the
    server (the engine's reason, headed by its code in 日本語). The stale tab is kept stale by
    dropping the server's state messages after the first."""
    w = CASES["cambio-cucco"]()
    t = seeded_table(server, w.game, w.seed, w.players, w.options)
    seat = w.others[0]  # the seat on turn: change or keep
    page = browser.new_page(viewport={"width": 390, "height": 844})

    def stale(ws: Any) -> None:
        upstream = ws.connect_to_server()
        seen = {"states": 0}

        def from_server(message: Any) -> None:
            if '"type": "state"' in str(message):
                seen["states"] += 1
                if seen["states"] > 1:
                    return
            ws.send(message)

        upstream.on_message(from_server)

    try:
        page.route_web_socket("**/ws/**", stale)
        page.goto(server + "/")
        page.evaluate("localStorage.setItem('folkdeck.lang', 'ja')")
        page.goto(server + t["seats"][seat]["link"])
        page.wait_for_selector("#actions button[data-action='keep']")
        status, _ = call(server, "POST", f"/api/tables/{t['id']}/actions",
                         {"token": t["seats"][seat]["token"], "action": "keep"})
        assert status == 200
        page.click("#actions button[data-action='change']")
        page.wait_for_selector("#error:not([hidden])")
        text = page.inner_text("#error")
        assert text.startswith("あなたの番ではありません") and str(seat) in text, text
        page.screenshot(path=str(ARTIFACTS / "refusal-phone-ja.png"), full_page=True)
        _, pub = call(server, "GET", f"/api/tables/{t['id']}")
        assert pub["actions"] == 1  # the refused action changed nothing
    finally:
        page.close()
