"""Two and three ``folkdeck serve`` processes on one PostgreSQL database: any process serves
any table (docs/web.md, "Several processes"): a table made on A is found and played on B,
one open seat is never given twice, chat crosses processes, and only one process (the
table's owner) drives its bots."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.multi import (
    Player,
    Process,
    caught_up,
    check_acks_stored,
    create_table,
    owner_pid,
    start,
    stored_lines,
    wait_for,
)


def history(view: dict[str, Any]) -> list[str]:
    return [f"{e['seat']}: {e['action']}" for e in view["obs"]["history"]]


@pytest.fixture
def two(pg_url: str, tmp_path: Path) -> Iterator[tuple[Process, Process]]:
    a, b = start(pg_url, tmp_path, "A", "B")
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_a_table_made_on_a_is_played_through_b_and_seen_on_a(two: tuple[Process, Process], pg_url: str) -> None:
    a, b = two
    t = create_table(a, humans=2, deals=1)
    table, tokens = t["id"], [t["seats"][0]["token"], t["seats"][1]["token"]]
    assert owner_pid(pg_url, table) == a.proc.pid  # the maker owns it
    assert b.http.get(f"/api/tables/{table}").json()["id"] == table  # found on B
    on_b = Player(b, table, tokens[0])  # seat 0 plays through B
    on_a = Player(a, table, tokens[1])  # seat 1 plays through A
    acked = []
    for _ in range(6):
        for player in (on_b, on_a):
            ack = player.play()
            if ack is not None:
                acked.append(ack["line"])
    assert len(acked) >= 6
    check_acks_stored(pg_url, table, acked)
    for player in (on_a, on_b):  # once the bots have played: each view's history is the stored one
        caught_up(player, pg_url)
    assert history(on_a.view) == history(on_b.view)
    assert on_b.view["obs"]["hand"] != on_a.view["obs"]["hand"]  # each process sends its seat's own view
    assert owner_pid(pg_url, table) == a.proc.pid  # B never took it over
    on_a.close()
    on_b.close()


def _join(process: Process, table: str, name: str, barrier: threading.Barrier, answers: list[int]) -> None:
    barrier.wait()
    answers.append(process.http.post(f"/api/tables/{table}/join", json={"name": name}).status_code)


def test_one_open_seat_asked_for_on_both_processes_at_once_is_given_once(two: tuple[Process, Process]) -> None:
    a, b = two
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "first"}, {"kind": "bot", "bot": "first"}]
    for round_ in range(3):
        t = create_table(a if round_ % 2 else b, seats=seats)
        for process in (a, b):  # listed as open on both processes (the other learns of it by NOTIFY)
            wait_for(lambda: t["id"] in [o["id"] for o in process.http.get("/api/tables").json()],  # noqa: B023
                     seconds=10, what=f"table {t['id']} listed on {process.name}")
        answers: list[int] = []
        barrier = threading.Barrier(4)
        threads = [threading.Thread(target=_join, args=(p, t["id"], f"{p.name}{i}", barrier, answers))
                   for p in (a, b) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [200, 409, 409, 409], answers
        public = b.http.get(f"/api/tables/{t['id']}").json()
        assert not public["seats"][1]["open"]
        assert a.http.get(f"/api/tables/{t['id']}").json()["seats"] == public["seats"]
        for process in (a, b):  # and no longer listed on either
            assert t["id"] not in [o["id"] for o in process.http.get("/api/tables").json()]


def test_chat_sent_through_b_reaches_the_clients_of_a(two: tuple[Process, Process]) -> None:
    a, b = two
    t = create_table(a, humans=2)
    on_a = Player(a, t["id"], t["seats"][1]["token"])
    on_b = Player(b, t["id"], t["seats"][0]["token"])
    on_b.sock.send(json.dumps({"type": "chat", "text": "hello from B"}))
    said = on_a.read(lambda m: m["type"] == "chat")
    assert (said["seat"], said["text"]) == (0, "hello from B")
    on_a.sock.send(json.dumps({"type": "chat", "text": "and back from A"}))
    assert on_b.read(lambda m: m["type"] == "chat" and m["text"] == "and back from A")["seat"] == 1
    on_b.sock.send(json.dumps({"type": "name", "text": "Dara"}))  # a rename through B, seen on A
    on_a.until(lambda v: v["table"]["seats"][0]["name"] == "Dara")
    on_a.until(lambda v: v["table"]["seats"][0]["connected"])  # B's client is connected, as A sees it
    on_b.close()
    on_a.until(lambda v: not v["table"]["seats"][0]["connected"])
    later = Player(b, t["id"], t["seats"][0]["token"])  # a new connection on B is given the chat so far
    log = later.read(lambda m: m["type"] == "chat_log")
    assert [m["text"] for m in log["messages"]] == ["hello from B", "and back from A"]
    on_a.close()
    later.close()


def test_only_the_owner_drives_a_table_of_bots(pg_url: str, tmp_path: Path) -> None:
    processes = start(pg_url, tmp_path, "A", "B", "C")
    try:
        t = processes[1].http.post("/api/tables", json={
            "game": "cangkul", "seed": 4, "practice": True, "deals": 3, "seats": [{"kind": "bot"}] * 4}).json()
        wait_for(lambda: all(p.http.get(f"/api/tables/{t['id']}").json()["match_over"] for p in processes), 60,
                 "the bots to finish the match")
        assert owner_pid(pg_url, t["id"]) == processes[1].proc.pid
        rows = stored_lines(pg_url, t["id"])
        assert len(rows) > 30 and [i for d, i, _ in rows if d == 0] == list(range(len([r for r in rows if r[0] == 0])))
        for process in processes:  # nobody else tried to play it (the store would have refused them)
            assert "owned by another process" not in process.log() and "not stored" not in process.log()
        records = {p.http.get(f"/api/tables/{t['id']}/record").text for p in processes}
        assert len(records) == 1  # the same match on every process
    finally:
        for process in processes:
            process.stop()
