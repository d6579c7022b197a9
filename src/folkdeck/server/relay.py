"""Messages between the server processes that share one PostgreSQL database: LISTEN/NOTIFY.

Every process listens on one channel (:data:`CHANNEL`) and publishes small JSON messages on
it (:meth:`Relay.publish`); each message says whom it is for, and every process keeps what
concerns it (:mod:`folkdeck.server.cluster` gives their meaning). Notifications of one
sender arrive in the order it sent them, and every listener gets them in commit order, so
an owner's ``ack`` reaches a client before the change it leads to.

A NOTIFY payload holds at most 8000 bytes: a larger message is written to ``fd_relay`` and
only its row's id is sent (rows older than a minute are deleted by later senders).

Publishing never waits for the database: :meth:`Relay.publish` queues the message, and a
sender thread sends whatever has queued meanwhile in one statement (one ``pg_notify`` per
message, in order). An owner publishes a change after every event, and a round trip per
message, each costing the event loop ~140 µs of CPU in ``psycopg`` and its wait, was a tenth
of the server's work per action on PostgreSQL. PostgreSQL delivers only one of two equal
notifications sent in one transaction, so a batch is cut before a message equal to one
already in it. A process has no message for itself: the listener drops, unread, what its
own sending connections sent (by the notifying backend's PID).

The listener is a thread with its own connection (``conn.notifies``), which hands each
message to the event loop, where :attr:`Relay.handle` sees them one at a time, in order.
A lost connection is opened again; the handler is then told ``{"k": "up"}`` (something may
have been missed: the caller catches up from the store).
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict, cast

from folkdeck.json_types import JSONObject, JSONValue
from folkdeck.server.database import PgConnect, StoreError
from folkdeck.server.errors import CodedError
from folkdeck.server.tables import Connection

if TYPE_CHECKING:
    from folkdeck.server.database import PgConnection

log = logging.getLogger("folkdeck.server")

CHANNEL = "folkdeck"
MAX_PAYLOAD = 7900
"""Bytes of a NOTIFY payload (PostgreSQL's limit is 8000): larger messages go by ``fd_relay``."""
KEEP_SECONDS = 60.0
"""How long a large message's row stays in ``fd_relay``."""
POLL_SECONDS = 0.5
"""How often the listener thread looks whether it must stop."""
BATCH_MESSAGES = 500
"""Messages sent in one statement at most."""
_FLUSH = object()
"""The sender thread's sign to stop once the queue before it is sent."""
SCHEMA = ("SELECT pg_advisory_xact_lock(7210531)",
          "CREATE TABLE IF NOT EXISTS fd_relay (id BIGSERIAL PRIMARY KEY, payload TEXT NOT NULL,"
          " at DOUBLE PRECISION NOT NULL)")



class RelayMessage(TypedDict, total=False):
    """One message between processes; ``k`` is its kind (:mod:`folkdeck.server.cluster`
    says what each carries): ``p`` the sender's key, ``to`` the one process it is for,
    ``t`` the table, ``id`` a request's id (or a large message's row), ``op`` and ``a`` a
    request, ``ok``, ``status``, ``error`` and ``retry`` its answer, ``c`` and ``m`` a
    message for a connection, ``s`` the seats connected, ``d``, ``dl`` and ``ca`` a
    change's deal, turn timer and wait for calls, ``n`` the tables released."""

    k: str
    p: int
    to: int
    t: str
    id: str | int
    op: str
    a: JSONObject
    ok: JSONValue
    status: int
    error: CodedError
    retry: bool
    c: int
    m: JSONObject
    s: list[int]
    d: int
    dl: float | None
    ca: list[float] | None
    n: int


Handler = Callable[[RelayMessage], Awaitable[None]]


@dataclass(frozen=True)
class Played:
    """A person's action played by the table's owner in another process: its record line
    and its event (as :meth:`Event.to_dict` gives it)."""

    line: str
    data: JSONObject

    def to_dict(self) -> JSONObject:
        return self.data


@dataclass(frozen=True)
class Remote:
    """The answer of a table's owner in another process, as JSON
    (:func:`folkdeck.server.messages.answer_json`)."""

    answer: JSONValue


def played_from(result: JSONValue) -> Played | str:
    """An owner's answer to an action: what it played, or the line of a ``ref`` played before."""
    line = result.get("line") if isinstance(result, dict) else None
    if not isinstance(result, dict) or not isinstance(line, str):
        raise StoreError(f"an owner's answer to an action has no record line: {result!r}")
    if result.get("repeated"):
        return line
    event = result.get("event")
    if not isinstance(event, dict):
        raise StoreError(f"an owner's answer to an action has no event: {result!r}")
    return Played(line, event)


class RemoteConnection(Connection):
    """On a table's owner: a client connected to another process (``process``); the
    ``ack`` or refusal for it goes there, by the relay, to its connection ``conn_id``."""

    def __init__(self, relay: Relay, me: int, process: int, conn_id: int) -> None:
        super().__init__(lambda text: None, 1)
        self.relay, self.me, self.process, self.conn_id = relay, me, process, conn_id

    def push(self, message: JSONObject) -> None:
        self.relay.publish({"k": "out", "p": self.me, "to": self.process, "c": self.conn_id, "m": message})


def encode(message: RelayMessage) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class Relay:
    """One process's end of the channel: a connection to publish, a thread that listens."""

    def __init__(self, connect: PgConnect, handle: Handler) -> None:
        self._connect = connect
        self.handle = handle
        self._lock = threading.Lock()
        self._send: PgConnection | None = None
        self._queue: asyncio.Queue[RelayMessage] = asyncio.Queue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._consumer: asyncio.Task[None] | None = None
        self._listening = threading.Event()
        self._outbox: queue.SimpleQueue[str | object] = queue.SimpleQueue()
        self._sender: threading.Thread | None = None
        self._own: frozenset[int] = frozenset()
        """The backend PID of this relay's sending connection: the listener drops its
        notifications unread (a process has no message for itself). Only the current one:
        PostgreSQL may give a closed connection's PID to another process's backend."""

    def start(self) -> None:
        """Open the connections and start listening (inside the event loop); returns once
        the channel is listened to, so nothing published after it is missed."""
        self._loop = asyncio.get_running_loop()
        self._send = self._opened()
        with self._send.transaction():
            for statement in SCHEMA:
                self._send.execute(statement)
        self._thread = threading.Thread(target=self._listen, name="folkdeck-relay", daemon=True)
        self._thread.start()
        self._sender = threading.Thread(target=self._send_queued, name="folkdeck-relay-send", daemon=True)
        self._sender.start()
        self._consumer = self._loop.create_task(self._consume(), name="folkdeck-relay")
        if not self._listening.wait(15):
            raise ConnectionError("the relay could not listen to the database")

    def close(self) -> None:
        """Send what is queued (for a few seconds at most), then stop listening."""
        if self._sender is not None:
            self._outbox.put(_FLUSH)
            self._sender.join(timeout=5.0)
        self._stop.set()
        if self._consumer is not None:
            self._consumer.cancel()
        if self._thread is not None:
            self._thread.join(timeout=2 * POLL_SECONDS + 1)
        with self._lock:
            conn, self._send = self._send, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # pragma: no cover - closing a broken connection
                log.debug("closing the relay connection failed", exc_info=True)

    # --- sending ---------------------------------------------------------------------------
    def publish(self, message: RelayMessage) -> None:
        """Send ``message`` to every process, soon and in order (by the sender thread: this
        never waits for the database)."""
        if not self._stop.is_set():
            self._outbox.put(encode(message))

    def _send_queued(self) -> None:
        while True:
            batch: list[str] = []
            item = self._outbox.get()
            while item is not _FLUSH:
                batch.append(cast(str, item))
                if len(batch) >= BATCH_MESSAGES:
                    break
                try:
                    item = self._outbox.get_nowait()
                except queue.Empty:
                    break
            if batch:
                self._send_batch(batch)
            if item is _FLUSH:
                return

    def _send_batch(self, payloads: list[str]) -> None:
        """Send ``payloads`` in order: runs of small, distinct ones in one statement each
        (one try again after a lost connection; a message that cannot be sent is logged:
        the receivers catch up from the store)."""
        run: list[str] = []
        seen: set[str] = set()
        for payload in payloads:
            large = len(payload.encode("utf-8", "surrogatepass")) > MAX_PAYLOAD
            if large or payload in seen:
                self._send_run(run)
                run, seen = [], set()
            if large:
                self._send_run([payload])
            else:
                run.append(payload)
                seen.add(payload)
        self._send_run(run)

    def _send_run(self, run: list[str]) -> None:
        if not run:
            return
        for attempt in (1, 2):
            try:
                with self._lock:
                    if self._send is None:
                        if self._stop.is_set():
                            return
                        self._send = self._opened()
                    self._notify(self._send, run)
                return
            except Exception:
                with self._lock:
                    self._send = None
                if attempt == 2:
                    log.exception("%d messages to the other processes were lost", len(run))

    def _opened(self) -> PgConnection:
        conn = self._connect()
        self._own = frozenset((conn.info.backend_pid,))
        return conn

    def _notify(self, conn: PgConnection, run: list[str]) -> None:
        if len(run) == 1 and len(run[0].encode("utf-8", "surrogatepass")) > MAX_PAYLOAD:
            now = time.time()
            with conn.transaction():
                conn.execute("DELETE FROM fd_relay WHERE at < %s", (now - KEEP_SECONDS,))
                row = conn.execute("INSERT INTO fd_relay (payload, at) VALUES (%s, %s) RETURNING id",
                                   (run[0], now)).fetchone()
            assert row is not None and isinstance(row[0], int)  # RETURNING gives the new row's id
            run = [encode({"k": "row", "id": row[0]})]
        # one transaction: the notifications go in the order of the array
        conn.execute("SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload", (CHANNEL, run))

    # --- listening ---------------------------------------------------------------------------
    def _listen(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                conn = self._connect()
            except Exception:
                log.warning("the relay cannot reach the database; trying again", exc_info=True)
                self._stop.wait(POLL_SECONDS)
                continue
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                self._listening.set()
                if not first:
                    self._post({"k": "up"})
                first = False
                while not self._stop.is_set():
                    for note in conn.notifies(timeout=POLL_SECONDS):
                        if note.pid not in self._own:
                            self._post(json.loads(note.payload))
            except Exception:
                if not self._stop.is_set():
                    log.warning("the relay lost its connection; listening again", exc_info=True)
            finally:
                try:
                    conn.close()
                except Exception:  # pragma: no cover
                    pass

    def _read_row(self, row_id: int) -> RelayMessage:
        """A large message, from its row (gone: ``up``, the receiver catches up from the store)."""
        try:
            with self._lock:
                conn = self._send if self._send is not None else self._opened()
                self._send = conn
                row = conn.execute("SELECT payload FROM fd_relay WHERE id = %s", (row_id,)).fetchone()
        except Exception:
            log.warning("a large message could not be read", exc_info=True)
            row = None
        message: RelayMessage = json.loads(str(row[0])) if row else {"k": "up"}
        return message

    def _post(self, message: RelayMessage) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, message)

    async def _consume(self) -> None:
        while True:
            message = await self._queue.get()
            try:
                if message.get("k") == "row":
                    message = self._read_row(int(message["id"]))
                await self.handle(message)
            except Exception:  # a bug: the relay lives on, the log has the trace
                log.exception("a message from another process was not handled: %s", message.get("k"))


__all__ = ["CHANNEL", "MAX_PAYLOAD", "Played", "Relay", "RelayMessage", "Remote",
           "RemoteConnection", "played_from"]
