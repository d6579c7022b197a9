"""Fixtures: an app on a temporary SQLite file, bots without delay."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from fastapi.testclient import TestClient  # noqa: E402

from folkdeck.server.config import Settings  # noqa: E402
from folkdeck.server.main import create_app  # noqa: E402


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(db=str(tmp_path / "t.sqlite3"), bot_delay=0, deal_pause=0)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


def create(client: TestClient, game: str = "kaphai", **body: Any) -> dict[str, Any]:
    resp = client.post("/api/tables", json={"game": game, **body})
    assert resp.status_code == 201, resp.text
    data: dict[str, Any] = resp.json()
    return data


def until_state(ws: Any, pred: Any = None, limit: int = 10_000) -> dict[str, Any]:
    """Read messages until a state message that satisfies ``pred``."""
    for _ in range(limit):
        msg: dict[str, Any] = json.loads(ws.receive_text())
        if msg["type"] == "state" and (pred is None or pred(msg)):
            return msg
    raise AssertionError("no such state")


def play_out(ws: Any, rng: Any = None, max_actions: int = 2000, first: Any = None) -> dict[str, Any]:
    """As a human seat, play the first (or a random) legal action whenever on turn, until the match ends.

    ``first``: a state message already read (it may be our turn in it)."""
    for _ in range(max_actions):
        ready = first is not None and (first["table"]["match_over"] or first["on_turn"])
        msg = first if ready else until_state(ws, lambda m: m["table"]["match_over"] or m["on_turn"])
        first = None
        if msg["table"]["match_over"]:
            return msg
        legal = msg["obs"]["legal_actions"]
        action = legal[rng.randrange(len(legal))] if rng else legal[0]
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": 1}))
    raise AssertionError("match did not end")
