"""Helpers of the multi-process tests: real ``folkdeck serve`` processes on one PostgreSQL
database, a WebSocket client that numbers its actions and resends like the browser, and
reads of the stored actions and of the table owners."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import httpx
import pytest

ws_client = pytest.importorskip("websockets.sync.client")

START_SECONDS = 60.0
"""A process on the loaded CI machine may take a while to import and start."""


def wait_for(condition: Callable[[], Any], seconds: float = 20.0, what: str = "the condition") -> Any:
    """Poll ``condition`` until it returns something true; that value."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


class Process:
    """One ``folkdeck serve --db postgresql://...`` process on a free port (its output in a file)."""

    def __init__(self, db: str, folder: Path, name: str, **env: str) -> None:
        self.name = name
        self.out = folder / f"{name}.log"
        settings = {"FOLKDECK_REQUESTS_BURST": "100000", "FOLKDECK_ACTIONS_BURST": "100000",
                    "FOLKDECK_CREATE_BURST": "100000", "FOLKDECK_LEASE_SCAN_SECONDS": "0.5",
                    "FOLKDECK_BOT_WORKERS": "0", **env}
        with open(self.out, "w", encoding="utf-8") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "folkdeck", "serve", "--port", "0", "--db", db, "--bot-delay", "0",
                 "--deal-pause", "0"], stdout=out, stderr=subprocess.STDOUT, text=True, env={**os.environ, **settings})
        self.url = ""
        self.port = 0
        self.http = httpx.Client(timeout=30)

    def ready(self) -> Process:
        """Wait until the process listens (it prints its address); itself."""
        if not self.url:
            self.url = wait_for(lambda: self._url(), START_SECONDS, f"{self.name} to listen")
            self.port = int(self.url.rsplit(":", 1)[1])
            self.http = httpx.Client(base_url=self.url, timeout=30)
        return self

    def _url(self) -> str | None:
        if self.proc.poll() is not None:
            raise AssertionError(f"{self.name} exited: {self.log()}")
        found = re.search(r"http://[^/\s]+:(\d+)/", self.out.read_text(errors="replace"))
        return f"http://127.0.0.1:{found.group(1)}" if found else None

    def log(self) -> str:
        return self.out.read_text(errors="replace")[-3000:]

    def ws(self, table: str, token: str) -> Any:
        return ws_client.connect(f"ws://127.0.0.1:{self.port}/ws/{table}?k={token}", open_timeout=30)

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.http.close()

    def terminate(self, seconds: float = 30.0) -> int:
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=seconds)
        self.http.close()
        return code

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.http.close()


def start(db: str, folder: Path, *names: str, **env: str) -> list[Process]:
    """Processes started together (each takes seconds to import on a busy machine), once ready."""
    processes = [Process(db, folder, name, **env) for name in names]
    try:
        return [process.ready() for process in processes]
    except BaseException:
        for process in processes:
            process.stop()
        raise


class Player:
    """A seat's WebSocket client: applies states and deltas, numbers its actions, resends one
    whose answer was lost (as ``web/table.js`` does)."""

    def __init__(self, process: Process, table: str, token: str) -> None:
        self.table, self.token = table, token
        self.ref = 1000
        self.acted_at = (-1, -1)
        """Where this seat last acted ``(deal, actions)``: its turn again only after it."""
        self.pending: dict[str, Any] | None = None
        self.acks: list[dict[str, Any]] = []
        self.chats: list[dict[str, Any]] = []
        self.connect(process)

    def connect(self, process: Process) -> None:
        from folkdeck.server import delta

        self._delta = delta
        self.process = process
        self.sock = process.ws(self.table, self.token)
        self.view: dict[str, Any] = {}
        self.read(lambda m: m.get("type") == "state")

    def read(self, stop: Callable[[dict[str, Any]], bool], seconds: float = 30.0) -> dict[str, Any]:
        """Read messages until one satisfies ``stop``; that message."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message on {self.process.name}")
            msg: dict[str, Any] = json.loads(self.sock.recv(timeout=left))
            if msg["type"] == "state":
                self.view = msg
            elif msg["type"] == "delta":
                self.view = self._delta.apply(self.view, cast(Any, msg))
            elif msg["type"] == "ack":
                self.acks.append(msg)
                if self.pending is not None and msg["ref"] == self.pending["ref"]:
                    self.pending = None
            elif msg["type"] == "chat":
                self.chats.append(msg)
            if stop(msg):
                return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], seconds: float = 30.0) -> dict[str, Any]:
        """The view once ``pred`` holds for it."""
        if not (self.view and pred(self.view)):
            self.read(lambda m: m["type"] in ("state", "delta") and pred(self.view), seconds)
        return self.view

    def position(self) -> tuple[int, int]:
        return (self.view["table"]["deal"], len(self.view["obs"]["history"]))

    def my_turn(self, seconds: float = 30.0) -> dict[str, Any]:
        """The view once this seat is to act (after its last action), or the match is over."""
        return self.until(lambda v: bool(v["table"]["match_over"] or (
            v["may_act"] and self.position() > self.acted_at)), seconds)

    def send(self, action: str) -> int:
        self.acted_at = self.position()
        self.ref += 1
        self.pending = {"type": "action", "action": action, "ref": self.ref}
        self.sock.send(json.dumps(self.pending))
        self.pending["resend"] = True
        return self.ref

    def resend(self) -> None:
        assert self.pending is not None
        self.sock.send(json.dumps(self.pending))

    def answer(self, ref: int, seconds: float = 30.0) -> dict[str, Any]:
        return self.read(lambda m: m["type"] in ("ack", "error") and m.get("ref") == ref, seconds)

    def play(self, fallback: Callable[[], Process] | None = None) -> dict[str, Any] | None:
        """Play the first legal action when on turn; its ack (None once the match is over).
        A connection closed meanwhile (its process stopping) is opened again to
        ``fallback()``, and the action resent, as the page does."""
        from websockets.exceptions import ConnectionClosed

        for _ in range(5):
            try:
                if self.pending is None:
                    view = self.my_turn()
                    if view["table"]["match_over"]:
                        return None
                    self.send(view["obs"]["legal_actions"][0])
                assert self.pending is not None
                ack = self.answer(self.pending["ref"])
                assert ack["type"] == "ack", ack
                return ack
            except (ConnectionClosed, OSError):
                if fallback is None:
                    raise
                self.reconnect(fallback())
        raise AssertionError("the connection kept closing")

    def reconnect(self, process: Process) -> None:
        """Connect again (to another process) as the page does: the whole state, then the
        action still unanswered is sent again with its ref."""
        try:
            self.sock.close()
        except Exception:  # the old process is gone
            pass
        self.connect(process)
        if self.pending is not None:
            self.resend()

    def close(self) -> None:
        self.sock.close()


def stored_lines(db: str, table: str) -> list[tuple[int, int, str]]:
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute("SELECT deal, idx, line FROM fd_actions WHERE table_id = %s ORDER BY deal, idx",
                            (table,)).fetchall()
    return [(int(d), int(i), str(line)) for d, i, line in rows]


def owner_pid(db: str, table: str) -> int | None:
    """The OS process id of the table's owner (its lease session names it), or None."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute(
            "SELECT a.application_name FROM fd_owners o JOIN pg_locks l ON l.locktype = 'advisory'"
            " AND l.classid = 1178880817 AND l.objsubid = 2 AND l.objid::bigint = o.owner AND l.granted"
            " JOIN pg_stat_activity a ON a.pid = l.pid WHERE o.table_id = %s", (table,)).fetchone()
    return int(row[0].rsplit(" ", 1)[1]) if row else None


def caught_up(player: Player, db: str) -> dict[str, Any]:
    """The player's view once its history is the stored one (for its deal) and nobody but
    a person is to act (the bots have played)."""
    humans = {i for i, s in enumerate(player.view["table"]["seats"]) if s["kind"] == "human"}

    def done(view: dict[str, Any]) -> bool:
        stored = [line for deal, _, line in stored_lines(db, player.table) if deal == view["table"]["deal"] - 1]
        return bool(set(view["obs"]["to_act"]) <= humans) and stored == [
            f"{e['seat']}: {e['action']}" for e in view["obs"]["history"]]

    return player.until(done)


def check_acks_stored(db: str, table: str, acks: list[str]) -> list[tuple[int, int, str]]:
    """Every acknowledged line is stored, once each, in the order acknowledged (the stored
    positions are unique by the table's key); the stored rows."""
    rows = stored_lines(db, table)
    lines = [line for _, _, line in rows]
    at = 0
    for line in acks:  # in order: each acknowledged line after the one before
        assert line in lines[at:], f"acknowledged {line!r} is not stored after position {at}"
        at = lines.index(line, at) + 1
    assert len({(d, i) for d, i, _ in rows}) == len(rows)
    return rows


def create_table(process: Process, humans: int = 1, seed: int = 5, deals: int = 3, **body: Any) -> dict[str, Any]:
    """A practice Kap Hai table: ``humans`` people, then ``first`` bots."""
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "bot": "first"}] * (4 - humans)
    r = process.http.post("/api/tables", json={"game": "kaphai", "seed": seed, "practice": True, "deals": deals,
                                               "seats": seats, **body})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created
