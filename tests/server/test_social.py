"""Playing with people: names, open seats from the list of open tables, chat, the next match
(:mod:`folkdeck.server.social`)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from folkdeck.server.main import create_app
from tests.server.conftest import create, make_settings, until_state


def _next(ws: Any, kind: str, limit: int = 200) -> dict[str, Any]:
    for _ in range(limit):
        msg: dict[str, Any] = json.loads(ws.receive_text())
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def _play_out_over_rest(client: Any, t: dict[str, Any]) -> None:
    """Play the people's seats (their first legal action) over REST until the match is over."""
    table = client.app.state.tables.get(t["id"])
    for _ in range(20_000):
        if client.get(f"/api/tables/{t['id']}").json()["match_over"]:
            return
        state = table.state
        seat = state.to_act[0] if state.to_act and not state.is_over() else None
        if seat is not None and t["seats"][seat]["token"]:
            client.post(f"/api/tables/{t['id']}/actions",
                        json={"token": t["seats"][seat]["token"], "action": str(state.legal_actions(seat)[0])})
        else:
            time.sleep(0.002)  # a bot's turn, or the pause between deals
    raise AssertionError("the match did not end")


def test_names_are_given_at_creation_and_changed_by_their_seat_only(client: Any) -> None:
    t = create(client, "kaphai", seed=3, seats=[{"kind": "human", "name": "Dara"}, {"kind": "human"},
                                                {"kind": "bot"}, {"kind": "bot"}])
    assert [s["name"] for s in t["seats"][:2]] == ["Dara", "Player 2"]
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][1]['token']}") as ws:
        until_state(ws)
        ws.send_text(json.dumps({"type": "name", "text": "  Sokha  "}))
        msg = until_state(ws, lambda m: m["table"]["seats"][1]["name"] != "Player 2")
        assert msg["table"]["seats"][1]["name"] == "Sokha"
        for bad in ("", "   ", "x" * 25, "a\nb", "a\u202eb"):
            ws.send_text(json.dumps({"type": "name", "text": bad}))
            err = _next(ws, "error")
            assert (err["error"], err["reason"], err["params"]["limit"]) == ("bad_text", "server.name_text", 24)
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][1]["name"] == "Sokha"


def test_creation_checks_names_as_join_and_rename_do(client: Any) -> None:
    """Names that rename and join refuse are refused at creation too, so they never reach
    the public list of open tables (issue 24: RLO, zero-width only, NUL, newline, tags)."""
    for bad in ("a\u202eb", "\u200b", "a\u0000b", "a\nb", "\U000e0041\U000e0042"):
        resp = client.post("/api/tables", json={"game": "kaphai", "seats": [
            {"kind": "human"}, {"kind": "open", "name": bad}, {"kind": "bot"}, {"kind": "bot"}]})
        body = resp.json()
        assert resp.status_code == 400, (bad, body)
        assert (body["error"], body["reason"], body["params"]["field"]) == ("bad_text", "server.name_text",
                                                                            "seats[1].name")
    assert client.get("/api/tables").json() == []


def test_open_seats_are_listed_and_taken_once(client: Any) -> None:
    # A seeded (practice) deal: an unseeded one is a putuh now and then, and a match already
    # over has no seat to offer, so it would not be listed.
    t = create(client, "kaphai", seed=2, seats=[{"kind": "human", "name": "Dara"}, {"kind": "open"},
                                                {"kind": "open"}, {"kind": "bot"}])
    assert t["seats"][1]["token"] is None and t["seats"][1]["link"] is None
    listed = {x["id"]: x for x in client.get("/api/tables").json()}
    assert listed[t["id"]]["open_seats"] == [1, 2] and listed[t["id"]]["game"] == "kaphai"
    assert client.post(f"/api/tables/{t['id']}/join", json={"name": "\u0000"}).json()["reason"] == "server.name_text"
    first = client.post(f"/api/tables/{t['id']}/join", json={"name": "Sokha"}).json()
    second = client.post(f"/api/tables/{t['id']}/join", json={"name": "Mei"}).json()
    assert (first["seat"], second["seat"]) == (1, 2) and first["link"] == f"/table?t={t['id']}&k={first['token']}"
    full = client.post(f"/api/tables/{t['id']}/join", json={"name": "Late"})
    assert full.status_code == 409 and full.json()["error"] == "no_open_seat"
    assert t["id"] not in {x["id"] for x in client.get("/api/tables").json()}  # nothing free: not listed
    with client.websocket_connect(f"/ws/{t['id']}?k={second['token']}") as ws:
        msg = until_state(ws)
        assert msg["you"] == 2 and [s["name"] for s in msg["table"]["seats"][:3]] == ["Dara", "Sokha", "Mei"]
        assert not any(s["open"] for s in msg["table"]["seats"])


def test_a_table_with_no_open_seat_is_not_listed(client: Any) -> None:
    t = create(client, "kaphai")
    assert t["id"] not in {x["id"] for x in client.get("/api/tables").json()}
    resp = client.post(f"/api/tables/{t['id']}/join", json={"name": "Sokha"})
    assert resp.status_code == 409 and resp.json()["reason"] == "server.no_open_seat"


def test_chat_reaches_every_connection_and_is_kept_across_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path / "chat.sqlite3")
    with TestClient(create_app(settings)) as client:
        t = create(client, "kaphai", seed=4, seats=[{"kind": "human", "name": "Dara"}, {"kind": "human", "name": "Mei"},
                                                    {"kind": "bot"}, {"kind": "bot"}])
        with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][0]['token']}") as a, \
                client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][1]['token']}") as b, \
                client.websocket_connect(f"/ws/{t['id']}?k={t['spectator_token']}") as watch:
            for ws in (a, b, watch):
                until_state(ws)
            a.send_text(json.dumps({"type": "chat", "text": "<b>sua s'dei</b>"}))
            for ws in (a, b, watch):
                got = _next(ws, "chat")
                assert (got["seat"], got["name"], got["text"]) == (0, "Dara", "<b>sua s'dei</b>")
            watch.send_text(json.dumps({"type": "chat", "text": "hello"}))
            assert _next(watch, "error")["reason"] == "server.spectator_chat"
            a.send_text(json.dumps({"type": "chat", "text": "x" * 201}))
            assert _next(a, "error")["reason"] == "server.chat_text"
    with TestClient(create_app(settings)) as client:  # a new server on the same database
        with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][1]['token']}") as b:
            until_state(b)
            log = _next(b, "chat_log")["messages"]
            assert [(m["seat"], m["text"]) for m in log] == [(0, "<b>sua s'dei</b>")]


def test_chat_is_rate_limited(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path / "r.sqlite3", chat_burst=3, chat_per_second=0.01))) as client:
        t = create(client, "kaphai", seed=5)
        with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][0]['token']}") as ws:
            until_state(ws)
            for k in range(3):
                ws.send_text(json.dumps({"type": "chat", "text": f"m{k}"}))
                assert _next(ws, "chat")["text"] == f"m{k}"
            ws.send_text(json.dumps({"type": "chat", "text": "one too many"}))
            assert _next(ws, "error")["error"] == "rate_limited"


def test_the_next_match_keeps_the_seats_and_their_links(client: Any) -> None:
    t = create(client, "kaphai", seed=6, seats=[{"kind": "human", "name": "Dara"}, {"kind": "human", "name": "Mei"},
                                                {"kind": "bot"}, {"kind": "bot"}])
    early = client.post(f"/api/tables/{t['id']}/rematch", json={"token": t["seats"][0]["token"]})
    assert early.status_code == 409 and early.json()["error"] == "match_not_over"
    spectator = client.post(f"/api/tables/{t['id']}/rematch", json={"token": t["spectator_token"]})
    assert spectator.status_code == 403
    _play_out_over_rest(client, t)
    asked = client.post(f"/api/tables/{t['id']}/rematch", json={"token": t["seats"][1]["token"]}).json()
    again = client.post(f"/api/tables/{t['id']}/rematch", json={"token": t["seats"][0]["token"]}).json()
    assert asked["id"] == again["id"] != t["id"]
    assert again["link"] == f"/table?t={asked['id']}&k={t['seats'][0]['token']}"
    old = client.get(f"/api/tables/{t['id']}").json()
    new = client.get(f"/api/tables/{asked['id']}").json()
    assert old["rematch"] == asked["id"] and new["previous"] == t["id"]
    assert [s["name"] for s in new["seats"]] == ["Dara", "Mei", *[s["name"] for s in old["seats"][2:]]]
    assert new["match_over"] is False and new["deal"] == 1 and new["practice"]
    with client.websocket_connect(f"/ws/{asked['id']}?k={t['seats'][1]['token']}") as ws:  # the old link's token
        assert until_state(ws)["you"] == 1


def test_a_hint_names_a_legal_action_with_its_values_and_only_for_a_seat_that_decides(client: Any) -> None:
    t = create(client, "kaphai", seed=8, seats=[{"kind": "human"}] * 4)
    table = client.app.state.tables.get(t["id"])
    seat = table.state.current_seat
    idle = next(s for s in range(4) if s not in table.state.to_act)
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][idle]['token']}") as ws:
        until_state(ws)
        ws.send_text(json.dumps({"type": "hint", "ref": 5}))
        err = _next(ws, "error")
        assert (err["error"], err["reason"], err["ref"]) == ("no_hint", "server.no_hint", 5)
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][seat]['token']}") as ws:
        msg = until_state(ws)
        ws.send_text(json.dumps({"type": "hint", "ref": 7}))
        hint = _next(ws, "hint")
    legal = msg["obs"]["legal_actions"]
    assert hint["ref"] == 7 and hint["position"] == [1, 0] and hint["action"] in legal
    if hint["by"] == "search":
        # Kap Hai's hint bot is its ISMCTS search: its choice first, then by the tries each had
        tries = [v["worlds"] for v in hint["values"]]
        assert hint["values"][0]["action"] == hint["action"] and tries == sorted(tries, reverse=True)
        assert all(v["action"] in legal and v["worlds"] >= 1 for v in hint["values"])
    assert table.state.history == ()  # asking changes nothing
