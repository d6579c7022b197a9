"""The table WebSocket: seats, spectators, refusals, reconnecting, the turn timer."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

import folkdeck
from tests.server.conftest import create, play_out, until_state
from tests.server.test_crash import Server


def test_a_person_plays_a_match_against_bots(client: Any) -> None:
    t = create(client, "kaphai", seed=1, deals=2)
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][0]['token']}") as ws:
        first = until_state(ws)
        assert first["you"] == 0 and first["obs"]["hand"] and first["practice"]  # seeded: a practice table
        assert all(s["kind"] == "bot" for s in first["table"]["seats"][1:])
        end = play_out(ws, first=first)
    assert len(end["table"]["results"]) == 2 and end["table"]["records"]
    assert end["table"]["standings"]["deals_played"] == 2


def test_bad_tokens_are_closed(client: Any) -> None:
    t = create(client)
    with client.websocket_connect(f"/ws/{t['id']}?k=nope") as ws:
        assert json.loads(ws.receive_text())["error"] == "bad_token"
    with client.websocket_connect("/ws/nosuchtable?k=nope") as ws:
        assert json.loads(ws.receive_text())["error"] == "bad_token"


def test_refused_messages_get_a_clear_error_and_change_nothing(client: Any) -> None:
    t = create(client, "kaphai", seed=2, seats=[{"kind": "human"}] * 4)
    table = client.app.state.tables.get(t["id"])
    on_turn = table.state.current_seat
    other = (on_turn + 1) % 4
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][other]['token']}") as ws:
        until_state(ws)
        before = len(table.state.history)
        cases = [("{not json", "bad_message"), (json.dumps({"type": "fly"}), "bad_message"),
                 (json.dumps({"type": "action"}), "bad_message"),
                 (json.dumps({"type": "action", "action": "pass", "x": 1}), "bad_message"),
                 ("x" * 5000, "too_large"),
                 (json.dumps({"type": "action", "action": "pass", "ref": 7}), "not_your_turn")]
        for text, code in cases:
            ws.send_text(text)
            msg = json.loads(ws.receive_text())
            assert msg["type"] == "error" and msg["error"] == code, (text[:40], msg)
            assert msg["message"]
        assert msg["ref"] == 7
        assert len(table.state.history) == before
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][on_turn]['token']}") as ws:
        until_state(ws)
        ws.send_text(json.dumps({"type": "action", "action": "2S 2S 2S", "ref": 3}))
        msg = json.loads(ws.receive_text())
        assert msg["type"] == "error" and msg["ref"] == 3
        legal = table.state.legal_actions()
        ws.send_text(json.dumps({"type": "action", "action": str(legal[0]), "ref": 4}))
        ack = json.loads(ws.receive_text())
        assert ack == {"type": "ack", "ref": 4, "line": f"{on_turn}: {legal[0]}"}
        assert len(table.state.history) == before + 1


def test_spectators_see_the_public_view_and_cannot_act(client: Any) -> None:
    t = create(client, "cangkul", seed=4, seats=[{"kind": "human"}] * 4)
    with client.websocket_connect(f"/ws/{t['id']}?k={t['spectator_token']}") as ws:
        view = until_state(ws)
        assert view["you"] is None and view["obs"]["hand"] is None and not view["may_act"]
        ws.send_text(json.dumps({"type": "action", "action": "draw"}))
        assert json.loads(ws.receive_text())["error"] == "spectator"


def test_reconnecting_returns_to_the_seat(client: Any) -> None:
    t = create(client, "kaphai", seed=6, players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    url = f"/ws/{t['id']}?k={t['seats'][1]['token']}"
    with client.websocket_connect(url) as ws:
        hand = until_state(ws)["obs"]["hand"]
    with client.websocket_connect(url) as ws:
        again = until_state(ws)
        assert again["you"] == 1 and again["obs"]["hand"] == hand
        assert again["table"]["seats"][1]["connected"]


def test_the_turn_timer_hands_the_seat_to_a_bot_until_resumed(client: Any) -> None:
    t = create(client, "kaphai", seed=8, turn_seconds=1, players=2,
               seats=[{"kind": "human"}, {"kind": "bot", "bot": "first"}])
    table = client.app.state.tables.get(t["id"])
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][0]['token']}") as ws:
        first = until_state(ws)
        if first["on_turn"]:
            assert first["table"]["deadline"] is not None
        msg = until_state(ws, lambda m: m["auto"] or m["table"]["match_over"])
        assert msg["table"]["seats"][0]["auto"]
        deadline = time.monotonic() + 10
        while not table.state.is_over() and time.monotonic() < deadline:
            client.get("/api/games")
        ws.send_text(json.dumps({"type": "resume"}))
        back = until_state(ws, lambda m: not m["auto"])
        assert not back["table"]["seats"][0]["auto"]


@pytest.mark.parametrize("game", ["cambio", "burro_pt"])
def test_out_of_turn_and_other_games_play_through(client: Any, game: str) -> None:
    import random

    t = create(client, game, seed=11)
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][0]['token']}") as ws:
        end = play_out(ws, random.Random(1))
    assert end["table"]["match_over"] and end["table"]["results"]


@pytest.mark.parametrize("game", ["kaphai", "cambio"])
def test_state_messages_offer_a_deal_record_once_it_may_be_public(client: Any, game: str) -> None:
    """Kap Hai deals are shuffled afresh (docs/rules/kaphai.md §1.2): deal 1's record is offered during deal 2.
    Cambio's stock carries over (docs/rules/cambio.md §3.6): nothing is offered before the end, with the reason."""
    t = create(client, game, seed=12, deals=3)
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][0]['token']}") as ws:
        first = until_state(ws)
        assert first["table"]["records"] == [] and first["table"]["records_locked"] is None
        msg = first
        for _ in range(3000):
            if msg["table"]["deal"] >= 2 or msg["table"]["match_over"]:
                break
            if msg["on_turn"]:
                ws.send_text(json.dumps({"type": "action", "action": msg["obs"]["legal_actions"][0]}))
            msg = until_state(ws)
        assert msg["table"]["deal"] == 2 and not msg["table"]["match_over"]
        if game == "kaphai":
            assert msg["table"]["records"] == [f"/api/tables/{t['id']}/records/1"]
            assert msg["table"]["records_locked"] is None
        else:
            assert msg["table"]["records"] == []
            assert msg["table"]["records_locked"] == folkdeck.get_spec(game).record_embargo


def _send_raw_text_frame(url: str, path: str, payload: bytes) -> bytes:
    """Open ``path`` as a WebSocket by hand and send ``payload`` as one text frame, unchecked
    (a client library would refuse to send bytes that are not UTF-8 as text); the bytes the
    server sent back, up to its close frame (it then waits for the client's)."""
    import base64
    import contextlib
    import os
    import socket

    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    with socket.create_connection((host.replace("localhost", "127.0.0.1"), int(port)), timeout=10) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:  # the handshake's answer first: the frame comes after it
            answer += sock.recv(65536)
        mask = os.urandom(4)
        sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        sock.settimeout(3)
        with contextlib.suppress(TimeoutError):  # the server then waits for the close handshake
            while chunk := sock.recv(65536):
                answer += chunk
    return answer


def test_a_text_frame_that_is_not_utf8_is_closed_with_1007_and_logged_in_one_line(tmp_path: Path) -> None:
    """Issue 37: uvicorn closed such a frame correctly but logged the traceback of its failed
    decode, as if the server had failed (``server/api/ws.py`` ``UndecodedFrames``)."""
    server = Server(tmp_path / "s.sqlite3")
    try:
        t = server.http.post("/api/tables", json={"game": "kaphai", "seed": 1, "practice": True,
                                                   "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}).json()
        answer = _send_raw_text_frame(server.url, f"/ws/{t['id']}?k={t['seats'][0]['token']}", b"\xff\xfe")
        assert answer.startswith(b"HTTP/1.1 101 ")
        assert b"\x88\x02" + (1007).to_bytes(2, "big") in answer  # the close frame: 1007, invalid data
    finally:
        os.kill(server.proc.pid, signal.SIGTERM)
        server.proc.wait(timeout=30)
    assert server.proc.stdout is not None
    said = server.proc.stdout.read().strip().splitlines()  # the server's stderr too
    assert len(said) == 1 and "Invalid UTF-8" in said[0] and "closed with 1007" in said[0], said
