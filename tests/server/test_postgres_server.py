"""The web server on a PostgreSQL URL: play, restart the app on the same database, play on.

The same match is played on SQLite without a restart; both must end with the same records
and results, so the PostgreSQL path keeps the SQLite semantics exactly.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import folkdeck
from folkdeck.server.main import create_app
from tests.server.conftest import (
    PostgresCluster,
    create,
    make_settings,
    play_out,
    table_of,
    tables_of,
    until_state,
)

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"},
         {"kind": "bot", "bot": "greedy"}]


def _app(url: str) -> TestClient:
    return TestClient(create_app(make_settings(url)))


def _play(ws: Any, moves: int) -> dict[str, Any]:
    """Make ``moves`` moves as the person (first legal play), then wait for the person's next turn."""
    msg = until_state(ws, lambda m: m["on_turn"])
    for ref in range(moves):
        ws.send_text(json.dumps({"type": "action", "action": msg["obs"]["legal_actions"][0], "ref": ref}))
        while (ack := json.loads(ws.receive_text()))["type"] != "ack":
            assert ack["type"] in ("state", "delta"), ack
        msg = until_state(ws, lambda m: m["on_turn"] or m["table"]["match_over"])
        assert not msg["table"]["match_over"]
    return msg


def _finish(client: TestClient, token: str, person: str, bots: str) -> tuple[list[Any], list[Any]]:
    """Play the person's table to the end, wait for the bots' table; the records and the results."""
    with client.websocket_connect(f"/ws/{person}?k={token}") as ws:
        end = play_out(ws)
    deadline = time.monotonic() + 20
    while not (pub := client.get(f"/api/tables/{bots}").json())["match_over"]:
        assert time.monotonic() < deadline, "the bots' table did not finish"
        time.sleep(0.02)
    records = []
    for link in end["table"]["records"]:
        record = client.get(link).json()
        records.append({k: v for k, v in record.items() if k not in ("meta", "metadata", "table")})
    return records, pub["results"]


def _start(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    person = create(client, "kaphai", seed=21, deals=2, seats=SEATS)
    bots = create(client, "cangkul", seed=5, deals=2, seats=[{"kind": "bot"}] * 4)
    return person, bots


def test_a_match_survives_an_app_restart_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    with _app(str(tmp_path / "same.sqlite3")) as client:  # the reference: no restart, SQLite
        person, bots = _start(client)
        reference = _finish(client, person["seats"][0]["token"], person["id"], bots["id"])

    client = _app(pg_url)
    with client:
        assert tables_of(client).store.backend == "PostgreSQL"
        person, bots = _start(client)
        token = person["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{person['id']}?k={token}") as ws:
            before = _play(ws, 6)
        old = table_of(client, person["id"])
        history_before = [str(e) for e in old.state.history]
        assert len(history_before) >= 6 * 4 - 3  # the bots answered every move
    tables_of(client).store.close()

    client = _app(pg_url)  # a new process would do the same: rebuild from the database
    with client:
        restored = table_of(client, person["id"])
        assert [str(e) for e in restored.state.history] == history_before
        with client.websocket_connect(f"/ws/{person['id']}?k={token}") as ws:
            after = until_state(ws)
        assert after["obs"] == before["obs"] and after["table"]["deal"] == before["table"]["deal"] == 1
        assert after["on_turn"]
        played = _finish(client, token, person["id"], bots["id"])
    tables_of(client).store.close()
    assert played == reference
    assert len(played[0]) == 2 and len(played[1]) == 2


def test_many_bot_tables_are_stored_and_restored_on_postgresql(pg_url: str) -> None:
    games = ["kaphai", "cangkul", "cambio", "burro_es", "kaphai", "cangkul"]
    with _app(pg_url) as client:
        ids = [create(client, game, seed=i, deals=1, seats=[{"kind": "bot"}] * folkdeck.load(game).num_players)["id"]
               for i, game in enumerate(games)]
        deadline = time.monotonic() + 20
        while not all(client.get(f"/api/tables/{t}").json()["match_over"] for t in ids):
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.05)
        results = {t: client.get(f"/api/tables/{t}").json()["results"] for t in ids}
    tables_of(client).store.close()
    with _app(pg_url) as client:
        assert {t: client.get(f"/api/tables/{t}").json()["results"] for t in ids} == results
        stored = tables_of(client).store.load_tables()
        assert [t for t, _, _ in stored] == ids  # in the order they were created
    tables_of(client).store.close()


def test_an_action_that_cannot_be_stored_is_not_acknowledged(pg_url: str, postgres: PostgresCluster) -> None:
    name = pg_url.rsplit("/", 1)[1]
    with _app(pg_url) as client:
        t = create(client, "kaphai", seed=3, seats=[{"kind": "human"}] * 4)
        seat = table_of(client, t["id"]).state.current_seat
        with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][seat]['token']}") as ws:
            legal = until_state(ws)["obs"]["legal_actions"]
            with postgres.admin() as admin:  # the database goes away
                admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
            try:
                ws.send_text(json.dumps({"type": "action", "action": legal[0], "ref": 1}))
                reply = json.loads(ws.receive_text())
            finally:
                with postgres.admin() as admin:
                    admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        assert reply == {"type": "error", "error": "storage_error", "reason": "server.store_failed", "params": {},
                         "ref": 1, "message": "the server could not store this; try again in a moment"}
        assert tables_of(client).store.load_tables()[0][2] == {}  # nothing stored, and the store recovers
        table = table_of(client, t["id"])
        assert len(table.state.history) == 0  # the table did not run ahead of the store
        with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][seat]['token']}") as ws:
            until_state(ws)
            ws.send_text(json.dumps({"type": "action", "action": legal[0], "ref": 2}))
            until_state(ws)  # the same action, tried again once the database is back, is taken
        assert len(tables_of(client).store.load_tables()[0][2][0]) == 1
    tables_of(client).store.close()
