"""The pieces of several processes on one PostgreSQL database, in one process: the leases
(folkdeck.server.lease: one advisory lock per process, an owner row per table, adoption by
compare-and-set) and the relay (folkdeck.server.relay: LISTEN/NOTIFY, a message over
NOTIFY's 8000 bytes through a row)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable
from typing import Any, cast

from folkdeck.server.lease import Leases
from folkdeck.server.relay import MAX_PAYLOAD, Relay, RelayMessage
from folkdeck.server.store import StoreError, open_store
from tests.server.multi import wait_for


def test_a_table_has_one_owner_and_a_dead_or_releasing_owner_lets_another_adopt(pg_url: str) -> None:
    store = open_store(pg_url)
    for table_id in ("t1", "t2"):
        store.create_table(table_id, {"game": "demo"})
    one, two = Leases(store.new_connection), Leases(store.new_connection)
    assert one.me != two.me and one.live() >= {one.me, two.me}
    assert set(one.orphans()) == {"t1", "t2"}  # no owner row yet
    assert one.adopt("t1") and not two.adopt("t1")  # compare-and-set: the live owner keeps it
    assert one.owner_of("t1") == one.me == two.owner_of("t1") and one.mine() == {"t1"}
    assert two.adopt("t2") and two.orphans() == []
    # The fence: the store writes a table's actions only for its owner.
    store.fence = one.me
    store.append_action("t1", 0, 0, "0: 4C")
    try:
        store.append_action("t2", 0, 0, "0: 4C")
        raise AssertionError("a write for another process's table was accepted")
    except StoreError as exc:
        assert "owned by another process" in str(exc)
    # A group commit with a row of another process's table: that row alone is refused.
    outcomes = store.append_actions([("t1", 0, 1, "1: 5C", "s", 1), ("t2", 0, 0, "0: 4C", None, None),
                                      ("t1", 0, 2, "2: 6C", None, None)])
    assert outcomes[0] is None and outcomes[2] is None and "owned by another process" in str(outcomes[1])
    assert store.find_ref("t1", "s", 1) == "1: 5C"
    two.release(["t2"])  # a draining process lets go: an orphan at once
    assert one.orphans() == ["t2"] and one.adopt("t2")
    one.close()  # the session ends (as when the process dies): its lock, and so its tables, go
    wait_for(lambda: two.owner_of("t1") is None, 10, "the session's end")  # its backend exits meanwhile
    assert set(two.orphans()) == {"t1", "t2"}
    assert two.adopt("t1") and two.owner_of("t1") == two.me
    store.fence = two.me
    store.append_action("t1", 0, 3, "3: 7C")
    assert store.append_actions([("t1", 0, 3, "3: 7C", None, None), ("t1", 0, 4, "4: 8C", None, None)]) == [None, None]
    # Owned and new: one statement stores the whole batch, refs and NULLs as given.
    assert store.append_actions([("t1", 0, 5, "5: 9C", "s", 2), ("t1", 0, 6, "6: 10C", None, None)]) == [None, None]
    assert store.find_ref("t1", "s", 2) == "5: 9C"
    assert [line for _, idx, line in store.load_since("t1", 0, 0)[2] if idx >= 3] == ["3: 7C", "4: 8C", "5: 9C", "6: 10C"]
    two.close()
    store.close()


def _relayed(pg_url: str, expected: int, send: Callable[[Relay], None]) -> list[dict[str, Any]]:
    """What a listening relay receives once ``send`` used another relay of the same database."""
    store = open_store(pg_url)

    async def run() -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        done = asyncio.Event()

        async def handle(message: RelayMessage) -> None:
            got.append(dict(message))
            if len(got) == expected:
                done.set()

        async def ignore(message: RelayMessage) -> None:
            pass

        listener, sender = Relay(store.new_connection, handle), Relay(store.new_connection, ignore)
        listener.start()
        sender.start()
        try:
            send(sender)
            await asyncio.wait_for(done.wait(), 30)
        finally:
            listener.close()
            sender.close()
        return got

    # In a thread of its own: in `make test-all` a browser test (Playwright's sync API) may
    # have left this worker's thread with a running event loop, where asyncio.run refuses.
    try:
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, run()).result()
    finally:
        store.close()


def test_relayed_messages_arrive_in_order_and_a_large_one_through_a_row(pg_url: str) -> None:
    def send(sender: Relay) -> None:
        sender.publish({"k": "a", "n": 1})
        sender.publish(cast(RelayMessage, {"k": "big", "text": "x" * (3 * MAX_PAYLOAD)}))  # over NOTIFY's limit
        sender.publish({"k": "a", "n": 2})
        sender.publish({"k": "a", "n": 2})  # equal ones in one transaction: both still arrive
        sender.publish({"k": "a", "n": 2})
        for n in range(200):  # queued faster than sent: batches, still in order
            sender.publish({"k": "m", "n": n})

    got = _relayed(pg_url, 3 + 2 + 200, send)
    assert [m["k"] for m in got[:5]] == ["a", "big", "a", "a", "a"] and got[0]["n"] == 1
    assert [m["n"] for m in got[2:5]] == [2, 2, 2]
    assert [m["n"] for m in got[5:]] == list(range(200))
    assert got[1]["text"] == "x" * (3 * MAX_PAYLOAD)


def test_a_closed_relay_has_sent_what_was_published_before(pg_url: str) -> None:
    """Publishing only queues (a thread sends): closing sends the queue first, so a
    process that releases its tables and stops still tells the others."""
    def send(sender: Relay) -> None:
        for n in range(50):
            sender.publish({"k": "rel", "n": n})
        sender.close()

    assert [m["n"] for m in _relayed(pg_url, 50, send)] == list(range(50))


def test_a_relay_whose_connection_was_cut_sends_again_on_a_new_one(pg_url: str) -> None:
    """The sender thread's connection killed by the database between two batches: the
    next batch fails once, is sent again on a new connection, and nothing is lost."""
    killer = open_store(pg_url).new_connection()
    cut: list[tuple[Relay, int]] = []

    def send(sender: Relay) -> None:
        sender.publish({"k": "m", "n": 0})
        wait_for(lambda: sender._outbox.empty(), 10, "the first batch sent")
        time.sleep(0.2)
        assert sender._send is not None
        pid = sender._send.info.backend_pid
        killer.execute("SELECT pg_terminate_backend(%s)", (pid,))
        cut.append((sender, pid))
        for n in range(1, 20):
            sender.publish({"k": "m", "n": n})

    got = _relayed(pg_url, 20, send)
    killer.close()
    assert [m["n"] for m in got] == list(range(20))
    sender, pid = cut[0]
    assert pid not in sender._own  # sent on a new connection
