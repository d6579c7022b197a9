"""The table WebSocket: seats, spectators, refusals, reconnecting, the turn timer."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

import folkdeck
from tests.server.conftest import create, play_out, until_state


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
