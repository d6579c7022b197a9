"""Limits at the tables: practice seeds, WebSocket frames, connection caps, action rates,
idle tables, bots in worker processes, old stored tables and whole-match records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import folkdeck
from folkdeck.engine import match_record
from folkdeck.engine.options import record_defaults
from folkdeck.server.main import create_app
from tests.server.conftest import create, make_settings, play_out, until_state


def _ws(t: dict[str, Any], seat: int | None = 0) -> str:
    token = t["spectator_token"] if seat is None else t["seats"][seat]["token"]
    return f"/ws/{t['id']}?k={token}"


def test_only_practice_tables_choose_their_seed_and_every_seat_is_told(client: Any) -> None:
    r = client.post("/api/tables", json={"game": "kaphai", "seed": 5})
    assert r.status_code == 422 and r.json()["reason"] == "server.seed_needs_practice"
    assert r.json()["params"]["field"] == "seed"
    live = [create(client, "kaphai", seats=[{"kind": "human"}] * 4) for _ in range(2)]
    hands = [client.app.state.tables.get(t["id"]).state.deal_info()["hands"] for t in live]
    assert hands[0] != hands[1]  # shuffled from the server's randomness
    assert not client.get(f"/api/tables/{live[0]['id']}").json()["practice"]
    study = create(client, "kaphai", seed=5, seats=[{"kind": "human"}] * 4)
    again = create(client, "kaphai", seed=5, seats=[{"kind": "human"}] * 4)
    assert client.get(f"/api/tables/{study['id']}").json()["practice"]
    tables = client.app.state.tables
    assert tables.get(study["id"]).state.deal_info() == tables.get(again["id"]).state.deal_info()
    for seat in (None, 1):
        with client.websocket_connect(_ws(study, seat)) as ws:
            msg = until_state(ws)
            assert msg["practice"] and msg["table"]["practice"]


def test_websocket_frames_that_are_not_messages(client: TestClient) -> None:
    t = create(client, "kaphai", seats=[{"kind": "human"}] * 4)
    with client.websocket_connect(_ws(t)) as ws:
        until_state(ws)
        for text, reason in [("[" * 1500 + "]" * 1500, "json_too_deep"),
                             ('{"type": "action", "action": "\\ud800"}', "json_surrogate"),
                             ('{"type": "action", "action": "pass", "ref": NaN}', "json_not_a_number"),
                             ('{"type": "ping", "ref": ' + "1" * 100 + "}", "json_int_too_long"),
                             ('{"type": "ping", "ref": 1e400}', "json_not_a_number"),
                             ("\ufeff" + json.dumps({"type": "ping", "ref": 2}), None),
                             ('{"type": "ping", "ref": 9007199254740993}', "server.bad_message"),
                             ('"just text"', "server.bad_message"), ("null", "server.bad_message")]:
            ws.send_text(text)
            msg = json.loads(ws.receive_text())
            if reason is None:
                assert msg == {"type": "pong", "ref": 2}
            else:
                assert msg["type"] == "error" and msg["reason"] == reason, (text[:30], msg)
                assert text[:50] not in msg["message"]
        ws.send_bytes(b'{"type": "ping"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 1003


def test_connections_are_capped_per_seat_and_per_client(settings: Any, tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path / "c.sqlite3", max_seat_connections=2, max_client_connections=3))
    with TestClient(app) as client:
        t = create(client, "kaphai", seats=[{"kind": "human"}] * 4)
        with client.websocket_connect(_ws(t, 0)) as a, client.websocket_connect(_ws(t, 0)) as b:
            until_state(a), until_state(b)
            with client.websocket_connect(_ws(t, 0)) as c:
                msg = json.loads(c.receive_text())
                assert msg["reason"] == "server.too_many_seat_connections" and msg["params"]["limit"] == 2
                with pytest.raises(WebSocketDisconnect) as closed:
                    c.receive_text()
                assert closed.value.code == 4429
            with client.websocket_connect(_ws(t, 1)) as d:
                until_state(d)
                with client.websocket_connect(_ws(t, 2)) as e:
                    assert json.loads(e.receive_text())["reason"] == "server.too_many_connections"
        assert not app.state.tables.requests.client_connections  # every connection was counted out


def test_joining_tells_only_the_newcomer_unless_a_seat_comes_online(client: Any) -> None:
    t = create(client, "kaphai", seats=[{"kind": "human"}] * 4)
    sent: list[tuple[int | None, str]] = []
    client.app.state.tables.on_send = lambda table, seat, msg: sent.append((seat, msg["type"]))
    with client.websocket_connect(_ws(t, 0)) as ws:
        until_state(ws)
        sent.clear()
        for _ in range(3):
            with client.websocket_connect(_ws(t, None)) as watcher:
                until_state(watcher)
        assert sent == [(None, "state")] * 3  # no message to seat 0 for each spectator


def test_actions_are_rate_limited_per_client(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path / "a.sqlite3", actions_burst=3, actions_per_second=0.01))
    with TestClient(app) as client:
        t = create(client, "kaphai", seed=2, seats=[{"kind": "human"}] * 4)  # a deal with a seat on turn (not a putuh)
        seat = app.state.tables.get(t["id"]).state.current_seat
        other = (seat + 1) % 4
        with client.websocket_connect(_ws(t, other)) as ws:
            until_state(ws)
            reasons = []
            for ref in range(5):
                ws.send_text(json.dumps({"type": "action", "action": "pass", "ref": ref}))
                reasons.append(json.loads(ws.receive_text())["reason"])
        assert reasons[:3] == ["server.not_your_turn"] * 3 or reasons[:3] == ["server.others_deciding"] * 3
        assert reasons[3:] == ["server.rate_limited"] * 2
        r = client.post(f"/api/tables/{t['id']}/actions", json={"token": t["seats"][other]["token"], "action": "pass"})
        assert r.status_code == 429 and r.json()["reason"] == "server.rate_limited"


def test_idle_tables_are_closed_and_their_records_kept(tmp_path: Path) -> None:
    db = tmp_path / "idle.sqlite3"
    app = create_app(make_settings(db, table_idle_seconds=60))
    with TestClient(app) as client:
        tables = app.state.tables
        t = create(client, "kaphai", seed=4, players=2, seats=[{"kind": "bot", "bot": "first"}] * 2)
        watched = create(client, "kaphai", seats=[{"kind": "human"}] * 4)
        table = tables.get(t["id"])
        for _ in range(500):
            if table.match_over():
                break
            client.get("/api/games")
        assert table.match_over()
        with client.websocket_connect(_ws(watched, None)) as ws:
            until_state(ws)
            closed = tables.reap(now=table.last_active + 61)
        assert t["id"] in closed and watched["id"] not in closed  # someone was watching
        assert client.get(f"/api/tables/{t['id']}").status_code == 404
        record = client.get(f"/api/tables/{t['id']}/records/1")
        assert record.status_code == 200 and record.json()["actions"] == table.finished[0].actions
        assert client.get(f"/api/tables/{t['id']}/record").json()["format"] == "folkdeck-match/1"
    again = create_app(make_settings(db))
    assert t["id"] not in again.state.tables.tables and watched["id"] in again.state.tables.tables


def test_an_old_stored_table_takes_the_record_defaults_of_options_it_does_not_name(tmp_path: Path) -> None:
    """Kap Hai's ``ask_all_seats`` came after tables were stored: a configuration without it
    was played without it (``record_default``), and is restored so."""
    db = tmp_path / "old.sqlite3"
    app = create_app(make_settings(db))
    with TestClient(app) as client:
        t = create(client, "kaphai", seats=[{"kind": "human"}] * 4)
    config = app.state.tables.get(t["id"]).config
    assert config["options"]["ask_all_seats"] is True  # new tables name every option
    del config["options"]["ask_all_seats"]
    app.state.tables.store.update_config(t["id"], config)
    restored = create_app(make_settings(db)).state.tables.get(t["id"])
    defaults = record_defaults(folkdeck.get_spec("kaphai").options_type)
    assert restored.game.options.ask_all_seats is defaults["ask_all_seats"] is False


def test_bots_think_in_worker_processes_and_play_reproducibly(tmp_path: Path) -> None:
    records = []
    for run in range(2):
        app = create_app(make_settings(tmp_path / f"bots{run}.sqlite3", bot_workers=1))
        with TestClient(app) as client:
            t = create(client, "cangkul", seed=9, players=3, seats=[{"kind": "human"},
                       {"kind": "bot", "bot": "search:fast"}, {"kind": "bot", "bot": "heuristic"}])
            with client.websocket_connect(_ws(t, 0)) as ws:
                play_out(ws)
            assert app.state.tables.bots.started and app.state.tables.bots.workers == 1
            records.append(client.get(f"/api/tables/{t['id']}/records/1").json()["actions"])
    assert records[0] == records[1] and len(records[0]) > 10


def test_a_whole_match_record_is_given_and_replays(client: TestClient) -> None:
    t = create(client, "kaphai", seed=3, deals=2, players=2, seats=[{"kind": "human"}, {"kind": "bot", "bot": "first"}])
    with client.websocket_connect(_ws(t, 0)) as ws:
        play_out(ws)
    r = client.get(f"/api/tables/{t['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    body = r.json()
    assert body["format"] == match_record.FORMAT and len(body["deals"]) == 2
    replayed = match_record.loads(r.text).replay()
    assert replayed.standings.to_dict() == client.get(f"/api/tables/{t['id']}").json()["standings"]
    for deal in (1, 2):
        steps = client.post(f"/api/replay?deal={deal}", content=r.content)
        assert steps.status_code == 200, steps.text
        assert len(steps.json()["steps"]) == len(body["deals"][deal - 1]["actions"]) + 1
    assert client.post("/api/replay?deal=3", content=r.content).json()["reason"] == "record.no_such_deal"
    body["standings"]["scores"] = [s + 1 for s in body["standings"]["scores"]]
    assert client.post("/api/replay", json=body).json()["reason"] == "record_mismatch"
    body["deals"][0]["after"] = body["deals"][0]["after"] * 30  # facts the rules do not give
    refused = client.post("/api/replay", json=body)
    assert refused.json()["error"] == "record_mismatch", refused.text[:300]
    assert refused.json()["reason"] == "record.facts_extra"  # the first fact the rules do not give
    # A refusal never repeats the record (issue 24: a mismatch's 422 echoed its facts).
    assert len(refused.content) < 2000, refused.text
    assert all(not isinstance(v, list | dict) for v in refused.json()["params"].values())
