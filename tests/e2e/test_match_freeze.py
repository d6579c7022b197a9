"""End-to-end: a match never freezes between deals (issue 25, "A match freezes after a deal").

The freeze: a person ended the deal with their last card within the bots' delay after a
bot's move; the bots' loop woke to find no bot to act and stopped, and nothing dealt the
next deal ("Deal over" stayed, even after a reload). Here 20 two-player Kap Hai matches of
two deals against the ``random`` bot, on a server with the usual bot delay, are played by a
person in chromium who answers every bot move at once and always plays as many cards as
they can (so they go out fast, right after a bot's move); every match must reach its end.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import _skip_reason, call

MATCHES = 20
AT_ONCE = 10  # pages played side by side
BOT_DELAY = 0.6  # the server's default: the person's reply comes well within it

# The person, in the page: on each new position where they are wanted (the tab's title says
# so) they play at once the legal play with the most cards, else the first button. Installed
# in the page, the reply comes within milliseconds of the bot's move, whatever the test does.
PERSON = """() => {
  const move = () => {
    const chips = [...document.querySelectorAll('#legal button[data-legal]')];
    if (chips.length) {
      chips.sort((a, b) => b.dataset.legal.split(' ').length - a.dataset.legal.split(' ').length);
      chips[0].click();
      const play = document.getElementById('play');
      if (play && !play.disabled) { play.click(); return true; }
      return false;
    }
    const button = document.querySelector('#actions button[data-action]');
    if (button && !button.disabled) { button.click(); return true; }
    return false;
  };
  let acted = null;
  const act = () => {
    const progress = document.body.dataset.progress;
    if (progress && progress !== acted && document.title.startsWith('●') && move()) acted = progress;
  };
  new MutationObserver(act).observe(document.body, { attributes: true, attributeFilter: ['data-progress'] });
  new MutationObserver(act).observe(document.querySelector('title'), { childList: true, characterData: true, subtree: true });
  setInterval(act, 100);
  act();
}"""


@pytest.fixture(scope="module")
def slow_bots_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose bots wait as they do by default (the tests' shared server has no delay)."""
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    db = tmp_path_factory.mktemp("freeze") / "freeze.sqlite3"
    env = {**os.environ, "FOLKDECK_CREATE_PER_MINUTE": "6000", "FOLKDECK_CREATE_BURST": "500",
           "FOLKDECK_ACTIONS_PER_SECOND": "5000", "FOLKDECK_ACTIONS_BURST": "5000",
           "FOLKDECK_REQUESTS_PER_SECOND": "5000", "FOLKDECK_REQUESTS_BURST": "5000"}
    proc = subprocess.Popen([sys.executable, "-m", "folkdeck", "serve", "--port", "0", "--db", str(db),
                             "--bot-delay", str(BOT_DELAY), "--deal-pause", "0.2"], stdout=subprocess.PIPE, text=True,
                            env=env)
    assert proc.stdout is not None
    url = proc.stdout.readline().split()[3].rstrip("/")
    deadline = time.monotonic() + 30
    while call_ok(url) is False:
        if time.monotonic() > deadline or proc.poll() is not None:
            raise RuntimeError("the server did not start")
        time.sleep(0.1)
    yield url
    proc.kill()
    proc.wait()


def call_ok(url: str) -> bool:
    try:
        return call(url, "GET", "/api/games")[0] == 200
    except OSError:
        return False


def _new_match(server: str, seed: int) -> dict[str, Any]:
    status, body = call(server, "POST", "/api/tables", {
        "game": "kaphai", "players": 2, "deals": 2, "seed": seed, "practice": True,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert status == 201, body
    table: dict[str, Any] = body
    return table


def _play(server: str, browser: Any, seeds: list[int]) -> dict[int, dict[str, Any]]:
    """Plays the matches of ``seeds`` side by side; their public data once over (or at the time limit)."""
    tables = {seed: _new_match(server, seed) for seed in seeds}
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    pages = {seed: context.new_page() for seed in seeds}
    try:
        for seed, page in pages.items():
            page.goto(server + tables[seed]["seats"][0]["link"])
            page.wait_for_selector("#seats .seat")
            page.evaluate(PERSON)
        ended: dict[int, dict[str, Any]] = {}
        deadline = time.monotonic() + 90  # a match of two deals takes well under half of it
        while len(ended) < len(seeds) and time.monotonic() < deadline:
            for seed, page in pages.items():
                if seed in ended:
                    continue
                if page.evaluate("() => !!document.querySelector('#result-box') && document.body.dataset.progress.startsWith('2:')"):
                    _, public = call(server, "GET", f"/api/tables/{tables[seed]['id']}")
                    if public["match_over"]:
                        ended[seed] = public
            time.sleep(0.3)
        for seed in seeds:
            ended.setdefault(seed, call(server, "GET", f"/api/tables/{tables[seed]['id']}")[1])
        return ended
    finally:
        context.close()


# Before the table actor (server/actor.py) 18 of these 20 matches froze: the old driver
# stopped when a person ended a deal during the bot delay (issue 25).
def test_twenty_matches_each_reach_their_end(slow_bots_server: str, browser: Any) -> None:
    publics: dict[int, dict[str, Any]] = {}
    for first in range(0, MATCHES, AT_ONCE):
        publics.update(_play(slow_bots_server, browser, list(range(first, first + AT_ONCE))))
    stuck = {seed: (p["deal"], len(p["results"])) for seed, p in publics.items() if not p["match_over"]}
    assert not stuck, f"matches that stopped (seed: deal, deals finished): {stuck}"
    # The person went out first in most deals: the deal ended by their move, right after the bot's.
    by_person = sum(r["placings"][0] == 1 for p in publics.values() for r in p["results"])
    assert by_person >= MATCHES, by_person
