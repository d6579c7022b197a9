"""Kill -9 the server mid-game, restart it on the same database, and play on."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

ws_client = pytest.importorskip("websockets.sync.client")


class Server:
    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "folkdeck", "serve", "--port", "0", "--db", str(db),
             "--bot-delay", "0", "--deal-pause", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "FOLKDECK_REQUESTS_BURST": "100000", "FOLKDECK_ACTIONS_BURST": "100000"})
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "http://" in line, line
        self.url = line.split()[3].rstrip("/")
        self.http = httpx.Client(base_url=self.url, timeout=10)

    def view(self, table: str, token: str) -> dict[str, Any]:
        """The current view of a seat, once no bot is about to move."""
        with ws_client.connect(self.url.replace("http", "ws") + f"/ws/{table}?k={token}") as ws:
            msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
            return msg

    def kill9(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.http.close()


def _settle(server: Server, table: str, token: str) -> dict[str, Any]:
    """Wait until a person must act (the bots have played) and return that seat's view."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        pub = server.http.get(f"/api/tables/{table}").json()
        view = server.view(table, token)
        if pub["match_over"] or view["obs"]["to_act"] and not any(
                pub["seats"][s]["kind"] == "bot" for s in view["obs"]["to_act"]):
            return view
        time.sleep(0.05)
    raise AssertionError("the table did not settle")


def test_kill_9_and_restart_resumes_every_table_exactly(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    server = Server(db)
    try:
        t = server.http.post("/api/tables", json={
            "game": "kaphai", "seed": 12, "practice": True, "deals": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "human"},
                      {"kind": "bot", "bot": "random"}]}).json()
        bots_only = server.http.post("/api/tables", json={
            "game": "cangkul", "seed": 3, "practice": True, "deals": 3, "seats": [{"kind": "bot"}] * 4}).json()
        tid, tokens = t["id"], {0: t["seats"][0]["token"], 2: t["seats"][2]["token"]}
        for _ in range(12):  # a few moves by the people, the bots answering
            view = _settle(server, tid, tokens[0])
            seat = view["obs"]["to_act"][0]
            legal = server.view(tid, tokens[seat])["obs"]["legal_actions"]
            r = server.http.post(f"/api/tables/{tid}/actions", json={"token": tokens[seat], "action": legal[0]})
            assert r.status_code == 200, r.text
        before = {s: _settle(server, tid, tok) for s, tok in tokens.items()}
        spectator_before = server.view(bots_only["id"], bots_only["spectator_token"])
        server.kill9()

        server = Server(db)
        after = {s: _settle(server, tid, tok) for s, tok in tokens.items()}
        for s in tokens:
            assert after[s]["obs"] == before[s]["obs"]
            assert after[s]["table"]["results"] == before[s]["table"]["results"]
        watched = server.view(bots_only["id"], bots_only["spectator_token"])
        assert len(watched["obs"]["history"]) >= 0 and watched["table"]["deal"] >= spectator_before["table"]["deal"]
        for _ in range(400):  # play on to the end of the match
            view = _settle(server, tid, tokens[0])
            if view["table"]["match_over"]:
                break
            seat = view["obs"]["to_act"][0]
            legal = server.view(tid, tokens[seat])["obs"]["legal_actions"]
            assert server.http.post(f"/api/tables/{tid}/actions",
                                    json={"token": tokens[seat], "action": legal[0]}).status_code == 200
        assert server.http.get(f"/api/tables/{tid}").json()["match_over"]
        deadline = time.monotonic() + 20  # the bots-only table finished on its own after the restart
        while not server.http.get(f"/api/tables/{bots_only['id']}").json()["match_over"]:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    finally:
        server.proc.kill()
        server.proc.wait()
