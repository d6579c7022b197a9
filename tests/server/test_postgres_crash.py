"""Kill -9 a ``folkdeck serve --db postgresql://...`` process mid-game, restart it, play on.

Like tests/server/test_crash.py (whose server helpers it uses), on the session's PostgreSQL.
Every action acknowledged before the kill must be there after the restart, where it was.
"""

from __future__ import annotations

import time

from tests.server.test_crash import Server, _settle


def _move(server: Server, table: str, tokens: dict[int, str]) -> str:
    """The person on turn plays their first legal action; the acknowledged record line."""
    view = _settle(server, table, tokens[0])
    seat = view["obs"]["to_act"][0]
    legal = server.view(table, tokens[seat])["obs"]["legal_actions"]
    r = server.http.post(f"/api/tables/{table}/actions", json={"token": tokens[seat], "action": legal[0]})
    assert r.status_code == 200, r.text
    line: str = r.json()["line"]
    return line


def test_kill_9_mid_game_on_postgresql_and_play_on(pg_url: str) -> None:
    server = Server(pg_url)  # type: ignore[arg-type]  # the helper passes str(db) on
    try:
        t = server.http.post("/api/tables", json={
            "game": "kaphai", "seed": 31, "practice": True, "deals": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"},
                      {"kind": "bot", "bot": "random"}]}).json()
        bots_only = server.http.post("/api/tables", json={
            "game": "cangkul", "seed": 8, "practice": True, "deals": 1, "seats": [{"kind": "bot"}] * 4}).json()
        tid, tokens = t["id"], {0: t["seats"][0]["token"], 2: t["seats"][2]["token"]}
        for _ in range(4):
            _move(server, tid, tokens)
        before = _settle(server, tid, tokens[0])
        line = _move(server, tid, tokens)  # acknowledged, so committed; killed at once, the bots mid-reply
        server.kill9()

        server = Server(pg_url)  # type: ignore[arg-type]
        after = {s: _settle(server, tid, tok) for s, tok in tokens.items()}
        history = before["obs"]["history"]
        assert after[0]["table"]["deal"] == 1 and after[0]["obs"]["history"][:len(history)] == history
        added = after[0]["obs"]["history"][len(history)]  # the history goes on with the acknowledged move
        assert f"{added['seat']}: {added['action']}" == line
        assert after[2]["obs"]["history"] == after[0]["obs"]["history"]
        for _ in range(3):  # and play goes on
            _move(server, tid, tokens)
        assert len(_settle(server, tid, tokens[0])["obs"]["history"]) > len(history) + 3
        deadline = time.monotonic() + 20  # the bots' table finishes on its own after the restarts
        while not server.http.get(f"/api/tables/{bots_only['id']}").json()["match_over"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        server.proc.kill()
        server.proc.wait()
