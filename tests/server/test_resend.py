"""A resent action is never played twice: the table answers a ``ref`` it has committed with
the same acknowledgement (docs/web.md, "Protocol": the client resends an unacknowledged
action after a lost connection)."""

from __future__ import annotations

import json
from typing import Any

from tests.server.conftest import create, until_state


def _ack(ws: Any) -> dict[str, Any]:
    while True:
        msg = json.loads(ws.receive_text())
        if msg["type"] in ("ack", "error"):
            return msg  # type: ignore[no-any-return]


def test_a_resent_ref_gets_the_first_answer_and_changes_nothing(client: Any) -> None:
    t = create(client, "kaphai", seed=2, seats=[{"kind": "human"}] * 4)
    table = client.app.state.tables.get(t["id"])
    seat = table.state.current_seat
    action = str(table.state.legal_actions()[0])
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][seat]['token']}") as ws:
        until_state(ws)
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": 900001}))
        first = _ack(ws)
        assert first["type"] == "ack" and "repeated" not in first
    played = len(table.state.history)
    # The connection dropped before the ack arrived: the page reconnects and resends.
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][seat]['token']}") as ws:
        until_state(ws)
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": 900001, "resend": True}))
        again = _ack(ws)
        assert again == {**first, "repeated": True}
        assert len(table.state.history) == played
        # Not a resend: a new action, whatever its ref (clients may reuse refs): refused here,
        # as it is no longer this seat's turn.
        for ref in (900001, 900002):
            ws.send_text(json.dumps({"type": "action", "action": action, "ref": ref}))
            assert _ack(ws)["type"] == "error"
    assert len(table.state.history) == played


def test_acknowledgements_kept_are_bounded(client: Any) -> None:
    from folkdeck.server.tables import ACKS_KEPT

    t = create(client, "kaphai", seed=2, seats=[{"kind": "human"}] * 4)
    table = client.app.state.tables.get(t["id"])
    for ref in range(ACKS_KEPT + 10):
        table.remember_ack("0/x", ref, f"0: {ref}")
    assert len(table.acked) == ACKS_KEPT and ("0/x", 0) not in table.acked and ("0/x", ACKS_KEPT + 9) in table.acked


def test_a_check_names_the_rule_and_plays_nothing(client: Any) -> None:
    t = create(client, "kaphai", seed=2, seats=[{"kind": "human"}] * 4)
    table = client.app.state.tables.get(t["id"])
    seat = table.state.current_seat
    legal = str(table.state.legal_actions()[0])
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][seat]['token']}") as ws:
        until_state(ws)
        for action, ok in ((legal, True), ("2S 2S 2S 2S 2S", False), ("xyz", False)):
            ws.send_text(json.dumps({"type": "check", "action": action, "ref": 5}))
            answer = json.loads(ws.receive_text())
            assert answer["type"] == "check" and answer["ref"] == 5 and answer["action"] == action
            assert answer["ok"] is ok
            if not ok:
                assert answer["error"] in ("illegal_action", "invalid_notation") and answer["reason"]
        assert len(table.state.history) == 0  # nothing was played by asking
    other = (seat + 1) % 4
    with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][other]['token']}") as ws:
        until_state(ws)
        ws.send_text(json.dumps({"type": "check", "action": legal}))
        answer = json.loads(ws.receive_text())
        assert answer["ok"] is False and answer["error"] == "not_your_turn"
