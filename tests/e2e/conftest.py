"""Shared by the browser tests: one server (a subprocess on a temporary SQLite file) and one
Debian chromium for the whole session, plus small HTTP helpers for seeded tables.

Skipped (with the reason) when /usr/bin/chromium or playwright is missing; .ci/run installs both.
Screenshots go to $FOLKDECK_ARTIFACTS (default: <tmp>/folkdeck-e2e), never into the repository.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("FOLKDECK_ARTIFACTS", Path(tempfile.gettempdir()) / "folkdeck-e2e"))
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (the server extra)"
    return None


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    # One client (the tests) creates dozens of tables and sends a deal's actions over REST in
    # a burst: the per-client rates are raised for it (the limits have their own tests).
    env = {**os.environ, "FOLKDECK_CREATE_PER_MINUTE": "6000", "FOLKDECK_CREATE_BURST": "500",
           "FOLKDECK_ACTIONS_PER_SECOND": "5000", "FOLKDECK_ACTIONS_BURST": "5000",
           "FOLKDECK_REQUESTS_PER_SECOND": "5000", "FOLKDECK_REQUESTS_BURST": "5000",
           # a person's out-of-turn right holds the bots back (tests/server/test_windows.py)
           "FOLKDECK_WINDOW_SECONDS": "3", "FOLKDECK_CALL_SECONDS": "3"}
    proc = subprocess.Popen([sys.executable, "-m", "folkdeck", "serve", "--port", "0", "--db", str(db),
                             "--bot-delay", "0", "--deal-pause", "0"], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert "http://" in line, line
    url = line.split()[3].rstrip("/")
    deadline = time.monotonic() + 30
    while True:  # the address is printed just before the server listens
        try:
            urllib.request.urlopen(url + "/api/games", timeout=5).close()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise
            time.sleep(0.1)
    yield url
    proc.kill()
    proc.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def call(server: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One JSON request to the test server: (status, decoded body)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def seeded_table(server: str, game: str, seed: int, players: int, options: dict[str, Any] | None = None,
                 kinds: list[str] | None = None, deals: int = 1) -> dict[str, Any]:
    """A practice table with a fixed seed (the deal follows from it; only practice tables may
    choose it); every seat a person unless ``kinds``."""
    seats = [{"kind": k, "bot": "first" if k == "bot" else None} for k in (kinds or ["human"] * players)]
    status, body = call(server, "POST", "/api/tables", {"game": game, "seed": seed, "players": players, "deals": deals,
                                                        "seats": seats, "options": options or {}, "practice": True})
    assert status == 201, body
    table: dict[str, Any] = body
    return table


def play_lines(server: str, table: dict[str, Any], lines: list[tuple[int, str]]) -> None:
    """Play ``(seat, action)`` lines at ``table`` over REST, each as its seat (each must be accepted)."""
    for seat, action in lines:
        status, body = call(server, "POST", f"/api/tables/{table['id']}/actions",
                            {"token": table["seats"][seat]["token"], "action": action})
        assert status == 200, (seat, action, body)


def open_page(browser: Any, url: str, lang: str = "en", size: tuple[int, int] = (1280, 900)) -> Any:
    """A new page in ``lang`` (the language the page remembers) at ``url``."""
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.add_init_script(f"localStorage.setItem('folkdeck.lang', '{lang}')")
    page.goto(url)
    return page

