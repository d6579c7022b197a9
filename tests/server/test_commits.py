"""Group commit (server/commits.py) and the quick bots that think in the event loop
(server/bots.py, ``Pace``): the server's work per action, with the contracts kept: an
action is acknowledged only once it is stored with its ``ref``, a refused row fails its own
table alone, and a bot plays the same moves wherever it thinks."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import folkdeck
from folkdeck.server.actor import ref_scope
from folkdeck.server.bots import PROVEN_MOVES, BotJob, BotPool, Pace, think
from folkdeck.server.commits import GroupCommit
from folkdeck.server.store import ActionRow, Store, StoreError, open_store
from tests.server.conftest import create, until_state


def _store(path: Path) -> tuple[Store, list[list[ActionRow]]]:
    """A SQLite store, and every batch it is asked to commit."""
    store = open_store(str(path))
    batches: list[list[ActionRow]] = []
    real = store.append_actions

    def counted(rows: Any) -> list[StoreError | None]:
        batches.append(list(rows))
        return real(rows)

    store.append_actions = counted  # type: ignore[method-assign]
    return store, batches


def test_the_actions_of_one_moment_are_committed_in_one_batch(tmp_path: Path) -> None:
    store, batches = _store(tmp_path / "c.sqlite3")
    for table in ("a", "b", "c"):
        store.create_table(table, {})

    async def together() -> None:
        commits = GroupCommit(store)
        await asyncio.gather(*(commits.append((table, 0, 0, "0: 4C", f"0/{table}", 1)) for table in "abc"))
        await commits.append(("a", 0, 1, "1: 5C", None, None))  # a later moment: a batch of its own

    asyncio.run(together())
    assert [len(batch) for batch in batches] == [3, 1]
    assert {t: lines for t, _, lines in store.load_tables()} == {
        "a": {0: ["0: 4C", "1: 5C"]}, "b": {0: ["0: 4C"]}, "c": {0: ["0: 4C"]}}
    assert store.find_ref("b", "0/b", 1) == "0: 4C"


def test_the_event_loop_goes_on_while_a_batch_is_committed(tmp_path: Path) -> None:
    """The commit runs in its own thread: while the database works on one batch the loop
    goes on, and the rows handed in meanwhile make the next batch."""
    store, batches = _store(tmp_path / "c.sqlite3")
    for table in "abc":
        store.create_table(table, {})
    counted, database_busy = store.append_actions, threading.Event()

    def slow(rows: Any) -> list[StoreError | None]:
        database_busy.wait(10)
        return counted(rows)

    store.append_actions = slow  # type: ignore[method-assign]

    async def while_busy() -> None:
        commits = GroupCommit(store, threaded=True)  # as on PostgreSQL
        first = commits.append(("a", 0, 0, "0: 4C", None, None))
        await asyncio.sleep(0.05)  # the loop runs while the first batch waits on the database
        later = [commits.append((table, 0, 0, "0: 5C", None, None)) for table in "bc"]
        await asyncio.sleep(0.05)
        assert not first.done() and not any(f.done() for f in later)
        database_busy.set()
        await asyncio.gather(first, *later)

    asyncio.run(while_busy())
    assert [len(batch) for batch in batches] == [1, 2]


def test_a_refused_row_fails_its_own_owner_alone(tmp_path: Path) -> None:
    store, _ = _store(tmp_path / "c.sqlite3")
    store.create_table("a", {})
    store.create_table("b", {})
    store.append_action("a", 0, 0, "0: 4C")

    async def together() -> tuple[BaseException | None, BaseException | None]:
        commits = GroupCommit(store)
        return await asyncio.gather(commits.append(("a", 0, 0, "0: 9C", "0/a", 2)),
                                    commits.append(("b", 0, 0, "0: 5C", "0/b", 3)), return_exceptions=True)

    refused, stored = asyncio.run(together())
    assert isinstance(refused, StoreError) and "already stored as '0: 4C'" in str(refused)
    assert stored is None
    assert store.find_ref("b", "0/b", 3) == "0: 5C" and store.find_ref("a", "0/a", 2) is None


def test_an_action_the_store_refuses_is_not_played_and_the_table_is_unchanged(client: Any) -> None:
    t = create(client, "kaphai", seed=2, seats=[{"kind": "human"}] * 4)
    manager = client.app.state.tables
    table = manager.get(t["id"])
    seat = table.state.current_seat
    action = str(table.state.legal_actions()[0])
    state_before, played = table.state, len(table.state.history)
    real = manager.store.append_actions

    def refuse(rows: Any) -> list[StoreError | None]:
        return [StoreError("the disk is full")] * len(rows)

    manager.store.append_actions = refuse  # the disk full: every batch refused
    try:
        with client.websocket_connect(f"/ws/{t['id']}?k={t['seats'][seat]['token']}") as ws:
            until_state(ws)
            ws.send_text(json.dumps({"type": "action", "action": action, "ref": 5}))
            while (msg := json.loads(ws.receive_text()))["type"] not in ("ack", "error"):
                pass
            assert msg["type"] == "error" and msg["ref"] == 5
            assert table.state is state_before and len(table.state.history) == played
            manager.store.append_actions = real  # the disk has room again
            ws.send_text(json.dumps({"type": "action", "action": action, "ref": 6}))
            while (msg := json.loads(ws.receive_text()))["type"] not in ("ack", "error"):
                pass
    finally:
        manager.store.append_actions = real
    assert msg["type"] == "ack" and len(table.state.history) == played + 1
    assert manager.store.find_ref(t["id"], _scope(table, seat), 6) == msg["line"]
    assert manager.store.find_ref(t["id"], _scope(table, seat), 5) is None


def _scope(table: Any, seat: int) -> str:
    return ref_scope(seat, table.seats[seat]["token"])


def _jobs(count: int, searches: bool = False) -> list[BotJob]:
    name = "kaphai"
    state = folkdeck.load(name).new_state(seed=4)
    seat = state.current_seat
    return [BotJob(game=name, options={}, bot="first", view=state.observe(seat),
                   legal=state.legal_actions(seat), seed=f"job{i}", searches=searches) for i in range(count)]


def test_a_quick_bot_thinks_in_the_event_loop_once_it_proved_quick() -> None:
    pool = BotPool(0, 30.0)  # the workers are threads here: the same lane as processes
    lanes: list[bool] = []
    pool_of = pool._pool

    def counted(searches: bool) -> Any:
        lanes.append(searches)
        return pool_of(searches)

    pool._pool = counted  # type: ignore[method-assign]

    async def moves(jobs: list[BotJob]) -> list[int | None]:
        return [await pool.think(job) for job in jobs]

    try:
        jobs = _jobs(PROVEN_MOVES + 10)
        think(jobs[0])  # the game loaded and the bot imported (a first move costs that once)
        answers = asyncio.run(moves(jobs))
        assert len(lanes) == PROVEN_MOVES  # the first moves proved it in the workers, the rest in the loop
        assert answers == [think(job) for job in jobs]
        lanes.clear()
        asyncio.run(moves(_jobs(PROVEN_MOVES + 10, searches=True)))
        assert lanes == [True] * (PROVEN_MOVES + 10)  # a bot that searches always thinks in the workers
    finally:
        pool.shutdown()


def test_a_slow_move_in_the_loop_sends_the_bot_back_to_the_workers() -> None:
    pace = Pace()
    for _ in range(PROVEN_MOVES):
        pace.worker_move(0.0001)
    assert pace.in_loop
    pace.loop_move(0.02)
    assert not pace.in_loop
    for _ in range(PROVEN_MOVES):
        pace.worker_move(0.0001)
    assert not pace.in_loop  # twice as many moves needed now
    for _ in range(PROVEN_MOVES):
        pace.worker_move(0.0001)
    assert pace.in_loop
    pace.worker_move(0.5)  # a slow move in the workers starts the count again
    assert not pace.in_loop
