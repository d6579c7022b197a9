"""A person's public out-of-turn right holds the bots back (docs/rules/gouji.md §6: 先让让,
after i played, i+1 and i+2 passed and the opposite i+3 played, seat i may ask to go first):
the bot on turn waits ``window_seconds`` for the person, so the right can be used without
reflexes; a right the table may not see is never waited for."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from folkdeck.server.main import create_app
from tests.e2e.test_out_of_turn import CASES
from tests.server.conftest import create, make_settings


def _at_the_window(client: Any) -> tuple[dict[str, Any], Any, int]:
    w = CASES["gouji-xian"]()
    t = create(client, "gouji", seed=w.seed, seats=[{"kind": "human"}] * 6)
    for seat, action in w.lines:
        resp = client.post(f"/api/tables/{t['id']}/actions", json={"token": t["seats"][seat]["token"], "action": action})
        assert resp.status_code == 200, resp.text
    return t, client.app.state.tables.get(t["id"]), w.entitled


def _make_bot(client: Any, table: Any, seat: int) -> None:
    table.seats[seat].update(kind="bot", bot="first", token=None)
    client.portal.call(client.app.state.tables.kick, table)  # in the app's event loop


def test_the_bot_on_turn_waits_for_a_person_with_a_public_right(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path / "w.sqlite3", window_seconds=1.5))) as client:
        t, table, entitled = _at_the_window(client)
        on_turn = table.state.to_act[0]
        actions = len(table.state.history)
        _make_bot(client, table, on_turn)
        time.sleep(0.8)
        assert len(table.state.history) == actions  # still waiting: the person may ask
        resp = client.post(f"/api/tables/{t['id']}/actions", json={"token": t["seats"][entitled]["token"], "action": "xian"})
        assert resp.status_code == 200, resp.text
        assert table.state.history[actions].line == f"{entitled}: xian"


def test_the_wait_ends_and_the_bot_plays_on(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path / "w2.sqlite3", window_seconds=0.6))) as client:
        _, table, entitled = _at_the_window(client)
        on_turn = table.state.to_act[0]
        actions = len(table.state.history)
        started = time.monotonic()
        _make_bot(client, table, on_turn)
        while len(table.state.history) == actions and time.monotonic() - started < 10:
            time.sleep(0.02)
        assert len(table.state.history) > actions and time.monotonic() - started >= 0.55
        assert table.state.history[actions].line.startswith(f"{on_turn}:")
