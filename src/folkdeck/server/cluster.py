"""Many server processes, one PostgreSQL database: any process serves any table.

**Owners.** Each live table has exactly one owner process, by its lease
(:mod:`folkdeck.server.lease`); only the owner runs the table's actor
(:mod:`folkdeck.server.actor`): it applies and commits actions, drives the bots and the
timers. A table made on a process is claimed by it; a table whose owner died or let it go
is adopted by another process (the scan every ``lease_scan_seconds``, or at once by a
process that has a request for it), rebuilt from the store (its actions replayed).

**Copies.** Every other process keeps a copy of the table, rebuilt from the store and kept
up with the owner: after each change the owner publishes ``chg`` (the table, its deal, the
turn timer and the wait for calls, which are not stored), which each process hands its
copy's actor (:class:`~folkdeck.server.messages.Follow`); with clients at the table here,
the actor reads the new actions and configuration from the store
(:mod:`folkdeck.server.copies`) and sends its own clients their own views, computed there
per seat: nothing crosses between processes that a seat could not see, because no view
crosses at all. A copy without clients is only marked behind, and reads the store when it
is next looked at (:class:`~folkdeck.server.messages.CatchUp`). The cluster itself never
reads or changes a table: it reads the snapshots the actors publish, and sends them messages.

**Requests.** A client's action (with its ``ref``), resend, chat, rename, join, resume or
next-match request that reaches a process that does not own the table is sent to the owner
(``req``) and answered (``rep``); the owner's ``ack`` or refusal for that client comes back
first (``out``), then the change. If the owner dies meanwhile, the request goes to the new
owner, an action as a resend of its ``ref`` (a REST action gets a ref for the purpose),
so it is played once, or answered as already played. Resyncs, hints, reviews and checks
are answered from the copy.

**Presence.** Whether a seat is connected is public (and bots wait for connected people):
each process publishes the seats connected to it (``pres``), asked again (``who``) by a
process that loads or adopts a table; a dead process's seats are forgotten.

Every message goes through :mod:`folkdeck.server.relay` (LISTEN/NOTIFY).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import random
from collections.abc import Callable
from typing import Protocol

from folkdeck.engine.errors import CardGameError
from folkdeck.engine.protocol import Seat
from folkdeck.json_types import JSONObject
from folkdeck.server import copies
from folkdeck.server.actor import NotOwner, TableActor
from folkdeck.server.clock import Clock
from folkdeck.server.config import Settings
from folkdeck.server.errors import ServerError, coded, status_of
from folkdeck.server.lease import Leases
from folkdeck.server.messages import (
    Act,
    Adopt,
    Broadcast,
    Follow,
    OwnerMessage,
    answer_json,
    from_request,
    request_args,
)
from folkdeck.server.relay import Relay, RelayMessage, Remote, RemoteConnection
from folkdeck.server.snapshot import TableSnapshot
from folkdeck.server.store import Store, StoreError
from folkdeck.server.tables import Connection, Table

log = logging.getLogger("folkdeck.server")

WAIT_STEP = 0.5
"""While waiting for an owner's answer: how often to look whether it is still alive."""
ONCE_ONLY = ("chat", "take_seat")
"""Requests that are not sent again if their owner died before answering (they might have
been done: a chat said twice, two seats taken); the client is told to try again."""


class Manager(Protocol):
    """What the cluster needs from the table manager (:class:`~folkdeck.server.manager.TableManager`)."""

    store: Store
    settings: Settings
    clock: Clock
    tables: dict[str, Table]
    actors: dict[str, TableActor]

    def keep(self, table: Table) -> None: ...
    def forget(self, table_id: str) -> None: ...
    def kick(self, table_id: str) -> None: ...
    def show(self, table_id: str) -> None: ...
    def presence(self, table_id: str, process: int, seats: frozenset[Seat]) -> None: ...
    async def perform(self, table_id: str, message: OwnerMessage) -> object: ...


class Cluster:
    """This process among the others on one PostgreSQL database (see the module docstring)."""

    def __init__(self, manager: Manager) -> None:
        self.manager = manager
        self.store = manager.store
        self.leases = Leases(self.store.new_connection)
        self.store.fence = self.leases.me
        self.relay = Relay(self.store.new_connection, self.receive)
        self.owned: set[str] = set()
        self.adopting: set[str] = set()
        """The tables being rebuilt for this process to own them."""
        self.conns: dict[int, Connection] = {}
        """This process's clients by :attr:`Connection.id` (the owner's answers name them)."""
        self.waiting: dict[str, asyncio.Future[RelayMessage]] = {}
        self.serving: set[asyncio.Task[None]] = set()
        self.draining = False
        self.closed = False
        self.wake = asyncio.Event()
        self._ids = itertools.count(1)
        self._scanner: asyncio.Task[None] | None = None
        self._first_scan: asyncio.Task[None] | None = None
        self._orphans: set[str] = set()
        self._handlers: dict[str, Callable[[RelayMessage], None]] = {
            "chg": self._on_change, "out": self._on_out, "req": self._on_request, "rep": self._on_reply,
            "pres": self._on_presence, "who": self._on_who, "new": self._on_new, "rel": lambda _: self.wake.set()}

    @property
    def me(self) -> int:
        return self.leases.me

    # --- life ----------------------------------------------------------------------------------
    def start(self) -> None:
        """Listen to the others, adopt the tables nobody owns, and keep looking (in the loop)."""
        self.relay.start()
        self.relay.publish({"k": "who", "p": self.me, "t": "*"})
        self._first_scan = asyncio.get_running_loop().create_task(self.scan(), name="folkdeck-adopt")
        self._scanner = asyncio.get_running_loop().create_task(self._scan_loop(), name="folkdeck-leases")

    async def release(self) -> None:
        """After draining: the answers in hand are sent, the tables let go (others adopt them
        at once), and the others told."""
        if self.serving:
            await asyncio.wait(set(self.serving), timeout=2.0)
        released = sorted(self.owned)
        self.owned.clear()
        try:
            self.leases.release(released)
        except Exception:  # the leases end with the session anyway
            log.exception("releasing %d tables failed", len(released))
        self.relay.publish({"k": "rel", "p": self.me, "n": len(released)})
        log.info("released %d tables", len(released))

    def close(self) -> None:
        """Stop listening and end the lease session (without releasing: a crash, or after it)."""
        self.closed = True
        for task in (self._scanner, self._first_scan):
            if task is not None:
                task.cancel()
        self.relay.close()
        self.leases.close()

    def owns(self, table_id: str) -> bool:
        return table_id in self.owned

    # --- owning --------------------------------------------------------------------------------
    def claim(self, table: Table) -> None:
        """A table just made here: owned here (unless another process adopted it first), and
        the others told."""
        if self.leases.adopt(table.id):
            self.owned.add(table.id)
        self.relay.publish({"k": "new", "p": self.me, "t": table.id})

    async def adopt(self, table_id: str) -> bool:
        """Own a table nobody owns: rebuilt from the store by its actor (or loaded, if this
        process kept no copy), which then leads; True if done."""
        if self.draining or table_id in self.owned or table_id in self.adopting or not self.leases.adopt(table_id):
            return table_id in self.owned
        self.adopting.add(table_id)
        try:
            actor = self.manager.actors.get(table_id)
            adopted = await actor.ask(Adopt()) if actor is not None else self.load(table_id, adopting=True) is not None
        except Exception:
            log.exception("table %s could not be adopted", table_id)
            adopted = False
        finally:
            self.adopting.discard(table_id)
        if not adopted:
            self.leases.release([table_id])
            return False
        self.owned.add(table_id)
        self.manager.kick(table_id)  # its actor leads from now on: it plans at once
        self.relay.publish({"k": "who", "p": self.me, "t": table_id})
        log.info("adopted table %s", table_id)
        return True

    def drop(self, table_id: str) -> None:
        """This process no longer owns the table: its actor follows the new owner, as the copy does."""
        self.owned.discard(table_id)
        actor = self.manager.actors.get(table_id)
        if actor is not None:
            actor.follow()
            actor.post(Follow(actor.snapshot.deal))  # behind until it reads the store
        log.warning("table %s is owned by another process now", table_id)

    async def scan(self) -> None:
        """Look (:meth:`look`) and adopt at once (at the start)."""
        try:
            for table_id in self.look():
                if len(self.owned) >= self.manager.settings.max_tables:
                    break
                await self.adopt(table_id)
        except Exception:  # the database may be down: the scanner looks again
            log.exception("looking for tables without an owner failed")

    def look(self) -> list[str]:
        """Check this process's lease, let go the tables it lost, forget the seats of dead
        processes; the tables nobody owns that this process should adopt, those its own
        clients wait for first."""
        if not self.leases.healthy():
            for table_id in list(self.owned):
                self.drop(table_id)
            self.leases.close()
            self.leases.open()
            self.store.fence = self.me
            self._publish_all_presence()
        for table_id in self.owned - self.leases.mine():
            self.drop(table_id)
        live = self.leases.live()
        for table_id, actor in list(self.manager.actors.items()):
            for process in [p for p in actor.snapshot.remote if p not in live]:
                self.manager.presence(table_id, process, frozenset())
        # A fair share of the tables orphaned since the last look (the others take theirs),
        # and every one still left from the last look.
        orphans = self.leases.orphans()
        fresh = [t for t in orphans if t not in self._orphans]
        random.shuffle(fresh)
        wanted = [t for t in orphans if t in self._orphans] + fresh[:len(fresh) // max(1, len(live)) + 1]
        self._orphans = set(orphans)
        actors = self.manager.actors
        return sorted(wanted, key=lambda t: not (t in actors and actors[t].snapshot.watched))

    async def _scan_loop(self) -> None:
        interval = self.manager.settings.lease_scan_seconds
        while not self.closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), interval * random.uniform(0.8, 1.2))
            if self.closed:  # 3.11's wait_for returns, not cancelled, if a wake came in close()'s turn
                return
            self.wake.clear()
            try:
                for table_id in self.look():  # one at a time: requests are served in between
                    if len(self.owned) >= self.manager.settings.max_tables:
                        break
                    await self.adopt(table_id)
                    await asyncio.sleep(0)
            except Exception:  # the database may be down: next time
                log.exception("looking for tables without an owner failed")

    # --- copies --------------------------------------------------------------------------------
    def lookup(self, table_id: str) -> Table | None:
        """The table by id (a copy, its actor following the store: :mod:`folkdeck.server.copies`),
        an unknown one loaded from the store."""
        table = self.manager.tables.get(table_id)
        if table is None:
            return self.load(table_id) if len(table_id) <= 64 else None
        return table

    def load(self, table_id: str, *, adopting: bool = False) -> Table | None:
        table = copies.load(table_id, self.store, self.manager.clock.now, adopting=adopting)
        if table is None:
            return None
        self.manager.keep(table)
        self.relay.publish({"k": "who", "p": self.me, "t": table_id})
        return table

    def changed(self, snapshot: TableSnapshot) -> None:
        """On the owner, after every change: the others are told (with what is not stored)."""
        now = snapshot.now()
        deadline = None if snapshot.deadline is None else max(0.0, snapshot.deadline - now)
        calls = None if snapshot.calls_until is None else [*snapshot.position, max(0.0, snapshot.calls_until - now)]
        self.relay.publish({"k": "chg", "p": self.me, "t": snapshot.id, "d": snapshot.deal, "dl": deadline,
                            "ca": calls})

    # --- messages from the others -------------------------------------------------------------------
    async def receive(self, msg: RelayMessage) -> None:
        kind = msg.get("k")
        if kind == "up":  # the relay listened again: something may have been missed
            for table_id, actor in list(self.manager.actors.items()):
                if table_id not in self.owned and actor.snapshot.watched:
                    self.manager.show(table_id)
            self._publish_all_presence()
            return
        if msg.get("p") == self.me or msg.get("to", self.me) != self.me:
            return
        handler = self._handlers.get(str(kind))
        if handler is not None:
            handler(msg)

    def _on_change(self, msg: RelayMessage) -> None:
        actor = self.manager.actors.get(msg["t"])
        if actor is None or msg["t"] in self.owned:
            return
        calls = None if msg["ca"] is None else (int(msg["ca"][0]), int(msg["ca"][1]), float(msg["ca"][2]))
        actor.post(Follow(int(msg["d"]), None if msg["dl"] is None else float(msg["dl"]), calls))

    def _on_out(self, msg: RelayMessage) -> None:
        if "c" in msg:
            conn = self.conns.get(msg["c"])
            if conn is not None:
                conn.push(msg["m"])
            return
        actor = self.manager.actors.get(msg.get("t", ""))
        if actor is not None:
            actor.post(Broadcast(msg["m"]))

    def _on_request(self, msg: RelayMessage) -> None:
        task = asyncio.get_running_loop().create_task(self._serve(msg))
        self.serving.add(task)
        task.add_done_callback(self.serving.discard)

    def _on_reply(self, msg: RelayMessage) -> None:
        future = self.waiting.get(str(msg["id"]))
        if future is not None and not future.done():
            future.set_result(msg)

    def _on_presence(self, msg: RelayMessage) -> None:
        self.manager.presence(msg["t"], msg["p"], frozenset(int(s) for s in msg["s"]))

    def _on_who(self, msg: RelayMessage) -> None:
        if msg["t"] == "*":
            self._publish_all_presence()
        else:
            actor = self.manager.actors.get(msg["t"])
            if actor is not None and actor.snapshot.here:
                self.presence(msg["t"], actor.snapshot.here)

    def _on_new(self, msg: RelayMessage) -> None:
        if msg["t"] not in self.manager.tables:
            self.load(msg["t"])

    # --- presence ---------------------------------------------------------------------------------
    def presence(self, table_id: str, seats: frozenset[Seat]) -> None:
        """Tell the others which of the table's seats are connected here."""
        self.relay.publish({"k": "pres", "p": self.me, "t": table_id, "s": sorted(seats)})

    def _publish_all_presence(self) -> None:
        for table_id, actor in list(self.manager.actors.items()):
            if actor.snapshot.here:
                self.presence(table_id, actor.snapshot.here)

    # --- requests -----------------------------------------------------------------------------------
    def register(self, conn: Connection) -> None:
        self.conns[conn.id] = conn

    def unregister(self, conn: Connection) -> None:
        self.conns.pop(conn.id, None)

    async def forward(self, table: Table, message: OwnerMessage) -> Remote | OwnerMessage:
        """The answer of the table's owner to ``message``, or the message for this process to
        handle, once it owns the table (an action as a resend, if its owner died with it).

        :raises ServerError: the owner's refusal; StoreError: no owner in time."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.manager.settings.forward_seconds
        while loop.time() < deadline:
            if table.id in self.owned:
                return message
            owner = self.leases.owner_of(table.id)
            if owner is None or owner == self.me:
                if not await self.adopt(table.id):
                    await asyncio.sleep(0.05)
                continue
            op, args = request_args(message)
            if isinstance(message, Act) and message.conn is not None:
                args["c"] = message.conn.id
            answer = await self._ask(owner, table.id, op, args, deadline)
            if answer is None or answer.get("retry"):
                if answer is None and op in ONCE_ONLY:
                    break  # it may have been done: the client tries again
                if answer is None and isinstance(message, Act):
                    message = dataclasses.replace(message, resend=True)
                await asyncio.sleep(0.1)
                continue
            if "error" in answer:
                error = answer["error"]
                raise ServerError(answer["status"], error["error"], error["reason"], **error["params"])
            return Remote(answer.get("ok"))
        raise StoreError(f"table {table.id}: no process answered for it in time")

    async def _ask(self, owner: int, table_id: str, op: str, args: JSONObject,
                   deadline: float) -> RelayMessage | None:
        """The owner's answer, or None if it died first."""
        loop = asyncio.get_running_loop()
        request_id = f"{self.me}-{next(self._ids)}"
        future: asyncio.Future[RelayMessage] = loop.create_future()
        self.waiting[request_id] = future
        try:
            self.relay.publish({"k": "req", "p": self.me, "to": owner, "id": request_id, "t": table_id,
                                "op": op, "a": args})
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(future), WAIT_STEP)
                except TimeoutError:
                    if not self.leases.alive(owner):
                        return None
                    if loop.time() > deadline:
                        raise StoreError(f"table {table_id}: its owner did not answer in time") from None
        finally:
            self.waiting.pop(request_id, None)

    async def _serve(self, msg: RelayMessage) -> None:
        """On the owner: do what another process asks for one of its clients, and answer."""
        reply: RelayMessage = {"k": "rep", "p": self.me, "to": msg["p"], "id": msg["id"]}
        table_id = msg["t"]
        if self.draining or table_id not in self.manager.actors or table_id not in self.owned:
            reply["retry"] = True  # not (or no longer) the owner: the asker looks again
        else:
            args = msg["a"].copy()
            conn_id = args.pop("c", None)
            conn = None if conn_id is None else RemoteConnection(self.relay, self.me, msg["p"], int(str(conn_id)))
            try:
                message = from_request(msg["op"], args, conn)
                reply["ok"] = answer_json(message, await self.manager.perform(table_id, message))
            except NotOwner:
                reply["retry"] = True  # another process adopted it meanwhile
            except CardGameError as exc:
                reply.update({"status": status_of(exc), "error": coded(exc)})
            except Exception:
                log.exception("table %s: a request of another process failed", msg["t"])
                reply.update({"status": 500, "error": {"error": "internal", "reason": "server.internal", "params": {}}})
        self.relay.publish(reply)


__all__ = ["Cluster", "Manager"]
