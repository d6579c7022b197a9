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

Then each right at a table of bots (the revolution too, docs/rules/gouji.md §2.5): the table
waits for the person who holds it (no reflexes needed), and for a right that comes from a
hidden card a person without it gets the very same wait, so no page can tell who holds it.
"""

from __future__ import annotations

import functools
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

import pytest

import folkdeck
from folkdeck.agents import make_agent
from folkdeck.engine.protocol import State
from tests.e2e.conftest import ARTIFACTS, call, open_page, seeded_table


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
    agent = make_agent(state.game.spec, "greedy")
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
            mine.wait_for_function("() => document.querySelector('#history li')?.textContent.includes(' burn')")
        elif w.game == "gouji":  # the seat on turn is asked to let the caller go first
            asked = others[0]  # the seat on turn: the request is among the status facts
            asked.wait_for_function("() => document.getElementById('facts')?.textContent.includes('go first')")
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
    dropping the server's state and delta messages after the first."""
    w = CASES["cambio-cucco"]()
    t = seeded_table(server, w.game, w.seed, w.players, w.options)
    seat = w.others[0]  # the seat on turn: change or keep
    page = browser.new_page(viewport={"width": 390, "height": 844})

    def stale(ws: Any) -> None:
        upstream = ws.connect_to_server()
        seen = {"states": 0}

        def from_server(message: Any) -> None:
            if isinstance(message, str) and json.loads(message).get("type") in ("state", "delta"):
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


# --- among bots: each right without reflexes, and no wait that tells who holds it ----------

SPECIAL = ("xian", "open", "revolution", "putuh", "cucco", "declare", "object", "withdraw")
CATALOGS = Path(folkdeck.__file__).parent / "i18n"


def _catalog(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def _words(lang: str, key: str) -> str:
    """The longest stretch of a message's words without its placeholders and units: what
    any rendering of it contains."""
    message = _catalog(lang)[key]
    text = message["other"] if isinstance(message, dict) else message
    return max((w.strip() for w in re.split(r"\{[^}]*\}|seconds|秒|（|）|残り", text)), key=len)


@dataclass
class Among:
    """A seeded deal played among "first" bots up to a position where the search's test
    holds for ``person``: ``lines`` are every action before it (the people's are sent by the
    test, the bots make theirs on the server), ``helpers`` other people whose moves the test
    sends."""

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    person: int
    helpers: tuple[int, ...]
    lines: list[tuple[int, str]]
    open_first: bool = False
    """The person's page must be open before any bot moves (the table gives only a connected
    person a moment to call); otherwise it opens at the position (fewer states to draw)."""

    @property
    def people(self) -> tuple[int, ...]:
        return (self.person, *self.helpers)


def _legal(state: State, seat: int) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def _phase(state: State) -> str:
    return str(state.observe(None).to_dict()["phase"])


@functools.cache
def _greedy_bot(game: str) -> Any:
    spec = folkdeck.get_spec(game)
    return make_agent(spec, "greedy") if "greedy" in spec.bots else None


def _people_play(state: State, seat: int, rng: random.Random) -> Any:
    """A person's move on the way to the position: the greedy bot's choice (a random one
    in a game without it), never a special call."""
    legal = state.legal_actions(seat)
    plain = [a for a in legal if str(a) not in SPECIAL and not str(a).startswith(("burn", "foul"))] or list(legal)
    agent = _greedy_bot(state.game.spec.name)
    return agent.act(state.observe(seat), tuple(plain), rng) if agent else rng.choice(plain)


def _among_bots(game: str, players: int, options: dict[str, Any], at: Callable[[State, tuple[int, ...]], bool],
                helpers: int = 0, first_is_person: bool = False, within: int = 3000, seeds: int = 100) -> Among:
    """The first seed, person and helper (with ``helpers=1``) whose deal reaches a position
    where ``at(state, (person, *helpers))`` holds, the other seats "first" bots (their first
    legal action, as the server's "first" bot plays). ``first_is_person``: the deal's first
    turn is a person's, so that no bot moves before the pages are open; ``within``: the most
    actions before the position (a window of the deal's start is looked for there only)."""
    for seed in range(seeds):
        for person in range(players):
            for helper in [()] if not helpers else [(h,) for h in range(players) if h != person]:
                state = _start(game, players, options, seed)
                people = (person, *helper)
                if first_is_person and state.to_act[0] not in people:
                    continue
                rng = random.Random(seed)
                lines: list[tuple[int, str]] = []
                while not state.is_over() and len(lines) <= within:
                    if at(state, people):
                        return Among(game, players, seed, options, person, helper, lines, first_is_person)
                    seat = state.to_act[0]
                    action = _people_play(state, seat, rng) if seat in people else state.legal_actions(seat)[0]
                    state.apply(action, seat)
                    lines.append((seat, str(action)))
    raise AssertionError(f"no seed in 0..{seeds} reaches the position in {game}")


def _asked(state: State, person: int, phase: str, answers: list[str] | None = None) -> bool:
    """``person`` is asked in a ``phase`` window, with exactly ``answers`` (None: any)."""
    return state.to_act[:1] == (person,) and _phase(state) == phase and \
        (answers is None or _legal(state, person) == answers)


def _may_call(state: State, people: tuple[int, ...], owl: bool) -> bool:
    """Cambio: a bot on turn, and the person one a request could still reach, with an OWL or without."""
    callers: tuple[int, ...] = cast(Any, state).possible_callers()
    person = people[0]
    return state.to_act[0] not in people and person in callers and ("cucco" in _legal(state, person)) is owl


def _burn(state: State, people: tuple[int, ...]) -> bool:
    return state.to_act[:1] == people[:1] and any(a.startswith("burn") for a in _legal(state, people[0]))


def _xian(state: State, people: tuple[int, ...]) -> bool:
    return state.to_act[1:] == people[:1] and "xian" in _legal(state, people[0])


PUTUH = {"putuh_optional": True}
RIGHTS: dict[str, tuple[str, Callable[[], Among], Callable[[], Among] | None]] = {
    # the right's action: the search for its holder, and for a person asked without it (None:
    # the right is public by the rules: the trick shows who may ask 先让让)
    # (xian's pages open before the bots move: the table waits only the window's 3 s for a
    # public right whether the person is connected or not, and two pages opened at the
    # position took 1-1.4 s of it on a loaded machine; once it was spent, the test failed)
    "gouji-xian": ("xian", lambda: replace(_among_bots("gouji", 6, {}, _xian), open_first=True), None),
    "gouji-burn": ("burn", lambda: _among_bots("gouji", 6, {}, _burn, helpers=1),
                   lambda: _among_bots("gouji", 6, {}, lambda s, p: _asked(s, p[0], "play", ["no"]))),
    "gouji-revolution": ("revolution", lambda: _among_bots("gouji", 6, {}, lambda s, p: _asked(s, p[0], "revolution")
                                                           and "revolution" in _legal(s, p[0]), within=40),
                         lambda: _among_bots("gouji", 6, {}, lambda s, p: _asked(s, p[0], "revolution", ["no"]),
                                      within=40)),
    "kaphai-putuh": ("putuh", lambda: _among_bots("kaphai", 4, PUTUH, lambda s, p: _asked(s, p[0], "putuh")
                                                  and "putuh" in _legal(s, p[0]), within=8),
                     lambda: _among_bots("kaphai", 4, PUTUH, lambda s, p: _asked(s, p[0], "putuh", ["pass"]))),
    "cambio-cucco": ("cucco", lambda: _among_bots("cambio", 4, {}, lambda s, p: _may_call(s, p, True),
                                                  helpers=1, first_is_person=True),
                     lambda: _among_bots("cambio", 4, {}, lambda s, p: _may_call(s, p, False),
                                         helpers=1, first_is_person=True)),
}


def _actions_now(server: str, t: dict[str, Any]) -> int:
    status, public = call(server, "GET", f"/api/tables/{t['id']}")
    assert status == 200, public
    return int(public["actions"])


def _follow(server: str, t: dict[str, Any], a: Among) -> float:
    """Send the people's moves of ``a.lines``, each when its turn comes (the bots play in
    between), then wait for the bots to reach the position; when it was reached."""
    for index, (seat, action) in enumerate([*a.lines, (-1, "")]):
        if seat not in a.people and seat >= 0:
            continue
        deadline = time.monotonic() + 30
        while (now := _actions_now(server, t)) != index:
            assert now < index, f"the bots played past action {index} ({seat}: {action}): they did not wait"
            assert time.monotonic() < deadline, (index, seat, action)
            time.sleep(0.05)
        if seat >= 0:
            status, body = call(server, "POST", f"/api/tables/{t['id']}/actions",
                                {"token": t["seats"][seat]["token"], "action": action})
            assert status == 200, (seat, action, body)
    return time.monotonic()


def _at_the_position(server: str, browser: Any, a: Among, lang: str) -> tuple[Any, Any, list[str], float]:
    """The person's page (the acknowledgements it receives collected) and a spectator's
    page at ``a``'s position, at a table of "first" bots, and when the table reached it."""
    kinds = ["human" if s in a.people else "bot" for s in range(a.players)]
    t = seeded_table(server, a.game, a.seed, a.players, a.options, kinds=kinds)
    acks: list[str] = []

    def listen(ws: Any) -> None:
        def received(frame: Any) -> None:
            message = json.loads(frame) if isinstance(frame, str) else None
            if isinstance(message, dict) and message.get("type") == "ack":
                acks.append(message["line"])

        ws.on("framereceived", received)

    mine = browser.new_page(viewport={"width": 1200, "height": 860})
    mine.add_init_script(f"localStorage.setItem('folkdeck.lang', '{lang}')")
    mine.on("websocket", listen)

    def open_pages() -> Any:
        mine.goto(server + t["seats"][a.person]["link"])
        watcher = open_page(browser, server + t["spectator_link"], lang, (1200, 860))
        for page in (mine, watcher):
            page.wait_for_selector("body[data-progress] .seat")
        return watcher

    watcher = open_pages() if a.open_first else None
    reached = _follow(server, t, a)
    watcher = watcher or open_pages()
    position = f"1:{len(a.lines)}"
    for page in (mine, watcher):
        page.wait_for_function(f"() => document.body.dataset.progress === '{position}'")
    return mine, watcher, acks, reached


def _shape(text: str, names: list[str]) -> str:
    """A status line without the seats' names and the numbers: what it says, not of whom nor
    when (the countdown of calls may read "1 second" on one page and "2 seconds" on the other)."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "·")
    return re.sub(r"#( \w+?)s\b", r"#\1", re.sub(r"\d+", "#", text))


@pytest.mark.parametrize(("right", "lang"), [("gouji-xian", "en"), ("gouji-burn", "ja"), ("gouji-revolution", "en"),
                                             ("kaphai-putuh", "ja"), ("cambio-cucco", "en"), ("cambio-cucco", "ja")])
def test_a_right_among_bots_waits_for_the_person_and_tells_no_one(server: str, browser: Any, right: str,
                                                                   lang: str) -> None:
    """A person holds a right at a table of bots: the table waits for them (no reflexes
    needed: after a while the button is still there and no bot has moved) and the call is
    made. A right from a hidden card: a person without it gets the very same wait (asked in
    turn with only the decline, or Cambio's moment for calls before a bot speaks), so a
    spectator's page reads the same whoever holds it."""
    action, holder, other = RIGHTS[right]
    seen: list[str] = []
    for a in [holder(), *([other()] if other else [])]:
        holds = not seen
        mine, watcher, acks, reached = _at_the_position(server, browser, a, lang)
        try:
            at = mine.evaluate("document.body.dataset.progress")
            # A person who takes their time (the bots play at once; the table waits 3 s here).
            mine.wait_for_timeout(max(0, 1.2 - (time.monotonic() - reached)) * 1000)
            assert mine.evaluate("document.body.dataset.progress") == at, "a bot played over the right"
            buttons = mine.eval_on_selector_all("button[data-action]", "els => els.map((e) => e.dataset.action)")
            assert watcher.locator("button[data-action]").count() == 0
            status = watcher.inner_text("#status")
            if action == "cucco":  # the bot on turn waits for calls, and every page says so alike
                words = _words(lang, "ui.calls_wait")
                assert words in status and words in mine.inner_text("#status"), (status, words)
            if holds:  # the call, while the table still waits (the tab's title says so)
                assert mine.title().startswith("● "), mine.title()
                choice = next(b for b in buttons if b.split()[0] == action)
                mine.click(f"button[data-action='{choice}']")
            else:
                mine.screenshot(path=str(ARTIFACTS / f"among-bots-{right}-{lang}-waiting.png"))
            names = [n.split("(")[0].strip() for n in watcher.eval_on_selector_all(
                "#seats .name", "els => els.map((e) => e.textContent)")]
            seen.append(_shape(status, names))
            if holds:
                deadline = time.monotonic() + 10
                while f"{a.person}: {choice}" not in acks:  # the server took the call
                    assert time.monotonic() < deadline, acks
                    mine.wait_for_timeout(50)
            else:
                assert not [b for b in buttons if b.split()[0] == action], buttons
                if action != "cucco":  # asked in turn like everyone, it may only decline
                    assert len(buttons) == 1, buttons
                    mine.click(f"button[data-action='{buttons[0]}']")
                mine.wait_for_function(f"() => document.body.dataset.progress !== '{at}'", timeout=10_000)
        finally:
            mine.close()
            watcher.close()
    if other:
        assert seen[0] == seen[1], seen  # the spectator cannot tell the holder's wait from the other's
