"""Durable tables: each table's configuration and its record lines, one row per action.

A table is rebuilt by replaying its lines (the engine is deterministic), so an action
is durable once :meth:`Store.append_action` returns: the row is committed before the
server acknowledges the action. SQLite (the standard library's ``sqlite3``, WAL
journal) is the default; a ``postgresql://`` URL uses ``psycopg`` (version 3, in the
``postgres`` extra). Both databases get the same two tables and the same semantics:

- every method is one transaction, committed before it returns, rolled back if it fails;
- :meth:`Store.load_tables` reads one consistent snapshot;
- writes are idempotent (a repeated ``append_action`` with the same line is a no-op; a
  different line at a stored position is refused), so an operation whose commit was cut
  off with the connection can be retried safely;
- a PostgreSQL connection that was lost (server restart, network) is opened again and
  the operation retried once, on the next call;
- every failure is a :class:`StoreError` with a message that names the database (never
  its password) and says what went wrong, not a driver's traceback.

One server process per SQLite file: a second is refused (:func:`open_store`). Several
processes share a PostgreSQL database (:mod:`folkdeck.server.cluster`): then a table's
writes are fenced to its owner (:attr:`Store.fence`) and copies catch up with
:meth:`Store.load_since`.

>>> store = open_store(":memory:")
>>> store.create_table("t1", {"game": "demo"})
>>> store.append_action("t1", 0, 0, "0: 4C")
>>> store.load_tables()
[('t1', {'game': 'demo'}, {0: ['0: 4C']})]
>>> store.append_action("t1", 0, 0, "0: 4C")  # the same line again: already stored
>>> store.append_action("t1", 0, 0, "0: 5C")
Traceback (most recent call last):
...
folkdeck.server.database.StoreError: table 't1', deal 0, action 0 is already stored as '0: 4C', not '0: 5C'
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, TypeVar, cast

from folkdeck.json_types import JSONObject
from folkdeck.server.database import (
    CONNECT_TIMEOUT,
    POSTGRES_SCHEMES,
    SQLITE,
    DBConnection,
    Dialect,
    PgConnection,
    Row,
    StoreError,
    driver_reason,
    redact,
)

T = TypeVar("T")
INSERT_ROWS = 150
"""Actions stored by one INSERT at most (900 parameters: under SQLite's oldest limit, 999)."""


def _fence_sql(tables: int) -> str:
    """The owner's fence for ``tables`` tables (parameters: the owner's key, then the table
    ids): the rows of those this process owns, read with a share lock, so that an adoption
    waits for the writing transaction."""
    return f"SELECT table_id FROM fd_owners WHERE owner = ? AND table_id IN ({', '.join('?' * tables)}) FOR SHARE"


ActionRow = tuple[str, int, int, str, str | None, int | None]
"""One action to store: (table id, deal, index in the deal, record line, ref scope, ref)."""

class Store:
    """Tables and their actions in a SQL database (a DB-API connection in autocommit mode).

    ``connect`` opens a connection; it is called again after a lost connection. The store
    is safe to share between threads (one operation at a time).
    """

    def __init__(self, connect: Callable[[], DBConnection], dialect: Dialect = SQLITE,
                 where: str = "the database") -> None:
        self._connect = connect
        self._dialect = dialect
        self._where = where
        self._ph = dialect.placeholder
        self._lock = threading.Lock()
        self._conn: DBConnection | None = None
        self._closed = False
        self.owner: IO[str] | None = None
        """The lock file that keeps other processes off a SQLite file (see :func:`open_store`)."""
        self.fence: int | None = None
        """The process's key when several processes share the database (PostgreSQL,
        :mod:`folkdeck.server.lease`): a table's actions and configuration are written only
        while ``fd_owners`` names this process its owner, in the same transaction."""
        self._conn = self._open()
        self._transaction(self._make_schema, write=True)

    def _make_schema(self, conn: DBConnection) -> None:
        for statement in self._dialect.schema():
            conn.execute(statement)
        for statement in self._dialect.migrations(conn):
            conn.execute(statement)
        conn.execute("CREATE INDEX IF NOT EXISTS fd_actions_ref ON fd_actions (table_id, ref_scope, ref)")

    @property
    def backend(self) -> str:
        """``"SQLite"`` or ``"PostgreSQL"``."""
        return self._dialect.name

    # --- connection and transactions ---------------------------------------------------
    def _open(self) -> DBConnection:
        try:
            return self._connect()
        except StoreError:
            raise
        except Exception as exc:  # the driver's own error types: reported, not a crash trace
            raise StoreError(f"cannot connect to {self._where}: {driver_reason(exc)}") from exc

    def _transaction(self, work: Callable[[DBConnection], T], *, write: bool, single: bool = False) -> T:
        """Run ``work`` in one transaction; commit before returning, roll back on failure.
        ``single``: ``work`` runs one statement, a transaction of its own (autocommit).

        A connection found broken is opened again and ``work`` retried once (the writes
        are idempotent, so a commit that was cut off is not applied twice).
        """
        with self._lock:
            if self._closed:
                raise StoreError(f"the store for {self._where} is closed")
            for attempt in (1, 2):
                if self._conn is None:
                    self._conn = self._open()
                conn = self._conn
                try:
                    if single:
                        return work(conn)
                    conn.execute(self._dialect.begin_write if write else self._dialect.begin_read)
                    result = work(conn)
                    conn.execute("COMMIT")
                    return result
                except self._dialect.errors as exc:
                    if self._dialect.is_broken(conn):
                        self._drop()
                        if attempt == 1:
                            continue
                        raise StoreError(f"lost the connection to {self._where}: {driver_reason(exc)}") from exc
                    self._rollback(conn)
                    raise StoreError(f"{self._where} refused the operation: {driver_reason(exc)}") from exc
                except BaseException:
                    self._rollback(conn)
                    raise
            raise AssertionError("unreachable")  # pragma: no cover

    def _rollback(self, conn: DBConnection) -> None:
        try:
            conn.execute("ROLLBACK")
        except self._dialect.errors:  # no transaction open, or the connection went: start afresh
            self._drop()

    def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except self._dialect.errors:  # pragma: no cover - closing a broken connection
                pass

    def _sql(self, sql: str) -> str:
        return sql if self._ph == "?" else sql.replace("?", self._ph)

    def new_connection(self) -> PgConnection:
        """Another connection to the same PostgreSQL database, for the caller alone (the
        leases and the relay of :mod:`folkdeck.server.cluster` keep their own).

        :raises StoreError: the store is not PostgreSQL's (one SQLite file has one process).
        """
        if self._dialect.name != "PostgreSQL":
            raise StoreError(f"{self._where} is not a PostgreSQL database: one process serves it alone")
        return cast("PgConnection", self._open())

    def _fenced(self, conn: DBConnection, table_id: str) -> None:
        """Refuse a write for a table this process no longer owns (another process adopted
        it): the row is read with a share lock, so an adoption waits for this transaction."""
        if self.fence is None:
            return
        row = conn.execute(self._sql(_fence_sql(1)), (self.fence, table_id)).fetchone()
        if row is None:
            raise StoreError(f"table {table_id!r} is owned by another process now")

    # --- the API ----------------------------------------------------------------------------
    def create_table(self, table_id: str, config: Mapping[str, object]) -> None:
        """Store a new table (committed on return).

        :raises StoreError: if another table has this id, or the database fails.
        """
        text = json.dumps(config)

        def work(conn: DBConnection) -> None:
            cur = conn.execute(self._sql("INSERT INTO fd_tables (id, config, created) VALUES (?, ?, ?)"
                                         " ON CONFLICT (id) DO NOTHING"), (table_id, text, time.time()))
            if cur.rowcount == 0:
                stored = conn.execute(self._sql("SELECT config FROM fd_tables WHERE id = ?"), (table_id,)).fetchone()
                if stored is None or stored[0] != text:
                    raise StoreError(f"a table with id {table_id!r} already exists")

        self._transaction(work, write=True)

    def update_config(self, table_id: str, config: Mapping[str, object]) -> None:
        def work(conn: DBConnection) -> None:
            self._fenced(conn, table_id)
            conn.execute(self._sql("UPDATE fd_tables SET config = ? WHERE id = ?"), (json.dumps(config), table_id))

        self._transaction(work, write=True)

    def append_action(self, table_id: str, deal: int, idx: int, line: str,
                      ref_scope: str | None = None, ref: int | None = None) -> None:
        """Store one record line, with the client's ``ref`` of it if any (see
        :meth:`find_ref`), and commit: the action is durable on return, its ``ref`` with it.

        :raises StoreError: if a different line is stored at this position, or the database fails.
        """
        self._transaction(lambda conn: self._insert_action(conn, (table_id, deal, idx, line, ref_scope, ref)),
                          write=True)

    def append_actions(self, rows: Sequence[ActionRow]) -> list[StoreError | None]:
        """Store several actions (of any tables) in one transaction: a group commit, one
        commit's cost shared by every action of a turn of the server's event loop (on
        PostgreSQL shared by processes, one statement with the owner's fence:
        :meth:`_insert_fenced`). Each
        row's outcome, in order: None once it is committed (with its ``ref``), or its
        :class:`StoreError`. A batch refused as a whole is tried again row by row, so a row
        refused (a different line stored at its position, a table another process adopted)
        fails alone.

        >>> store = open_store(":memory:")
        >>> store.create_table("t", {})
        >>> store.append_action("t", 0, 0, "0: 4C")
        >>> [str(e) if e else None for e in store.append_actions([("t", 0, 1, "1: 5C", "1/ab", 3),
        ...                                                         ("t", 0, 0, "0: 9C", None, None)])]
        [None, "table 't', deal 0, action 0 is already stored as '0: 4C', not '0: 9C'"]
        >>> store.find_ref("t", "1/ab", 3)
        '1: 5C'
        """

        def work(conn: DBConnection) -> None:
            for start in range(0, len(rows), INSERT_ROWS):
                self._insert_actions(conn, rows[start:start + INSERT_ROWS])

        def fenced(part: Sequence[ActionRow]) -> bool:
            return self._transaction(lambda conn: self._insert_fenced(conn, part), write=True, single=True)

        try:
            if self.fence is not None:
                if all(fenced(rows[start:start + INSERT_ROWS]) for start in range(0, len(rows), INSERT_ROWS)):
                    return [None] * len(rows)
            elif len(rows) > 1:
                self._transaction(work, write=True)
                return [None] * len(rows)
        except StoreError:
            pass  # which row: each alone
        outcomes: list[StoreError | None] = []
        for row in rows:
            try:
                self.append_action(*row)
                outcomes.append(None)
            except StoreError as exc:
                outcomes.append(exc)
        return outcomes

    def _insert_fenced(self, conn: DBConnection, rows: Sequence[ActionRow]) -> bool:
        """PostgreSQL shared by processes: store ``rows`` if this process owns every one of
        their tables, in one statement (a transaction of its own); True if every row is new
        and stored. False (nothing stored): a table is another process's, or a row was stored
        before; the caller then stores them one by one, each with its own answer.

        Each statement is a round trip, ~140 µs of the driver's CPU, and a wait for the
        interpreter's lock when it comes back: the fence, the insert, ``BEGIN`` and
        ``COMMIT`` apart were four of each per group commit."""
        tables = sorted({row[0] for row in rows})
        values = ", ".join(["(?::text, ?::int, ?::int, ?::text, ?::text, ?::int)"] * len(rows))
        cur = conn.execute(self._sql(
            f"WITH fence AS ({_fence_sql(len(tables))})"
            f" INSERT INTO fd_actions (table_id, deal, idx, line, ref_scope, ref)"
            f" SELECT * FROM (VALUES {values}) AS v WHERE (SELECT count(*) FROM fence) = ?"
            f" ON CONFLICT (table_id, deal, idx) DO NOTHING"),
            (self.fence, *tables, *(value for row in rows for value in row), len(tables)))
        return bool(cur.rowcount == len(rows))

    def _insert_actions(self, conn: DBConnection, rows: Sequence[ActionRow]) -> None:
        """:meth:`_insert_action` for several rows (one database alone): one INSERT."""
        values = ", ".join(["(?, ?, ?, ?, ?, ?)"] * len(rows))
        cur = conn.execute(self._sql(f"INSERT INTO fd_actions (table_id, deal, idx, line, ref_scope, ref)"
                                     f" VALUES {values} ON CONFLICT (table_id, deal, idx) DO NOTHING"),
                           tuple(value for row in rows for value in row))
        if cur.rowcount != len(rows):  # some were stored before (a retried commit): the same lines?
            for table_id, deal, idx, line, _, _ in rows:
                self._same_line(conn, table_id, deal, idx, line)

    def _insert_action(self, conn: DBConnection, row: ActionRow) -> None:
        table_id, deal, idx, line, ref_scope, ref = row
        self._fenced(conn, table_id)
        cur = conn.execute(self._sql("INSERT INTO fd_actions (table_id, deal, idx, line, ref_scope, ref)"
                                     " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, deal, idx) DO NOTHING"),
                           (table_id, deal, idx, line, ref_scope, ref))
        if cur.rowcount == 0:
            self._same_line(conn, table_id, deal, idx, line)

    def _same_line(self, conn: DBConnection, table_id: str, deal: int, idx: int, line: str) -> None:
        stored = conn.execute(self._sql("SELECT line FROM fd_actions WHERE table_id = ? AND deal = ?"
                                        " AND idx = ?"), (table_id, deal, idx)).fetchone()
        if stored is None or stored[0] != line:
            raise StoreError(f"table {table_id!r}, deal {deal}, action {idx} is already stored"
                             f" as {stored[0] if stored else None!r}, not {line!r}")

    def find_ref(self, table_id: str, ref_scope: str, ref: int) -> str | None:
        """The record line of the latest action stored with this ``ref`` in this scope
        (a seat and its token), or None: a resend's answer after any restart.

        >>> store = open_store(":memory:")
        >>> store.create_table("t", {})
        >>> store.append_action("t", 0, 0, "0: 4C", "0/ab", 7)
        >>> store.find_ref("t", "0/ab", 7), store.find_ref("t", "1/cd", 7), store.find_ref("t", "0/ab", 8)
        ('0: 4C', None, None)
        """

        def work(conn: DBConnection) -> Row | None:
            return conn.execute(self._sql("SELECT line FROM fd_actions WHERE table_id = ? AND ref_scope = ?"
                                          " AND ref = ? ORDER BY deal DESC, idx DESC LIMIT 1"),
                                (table_id, ref_scope, ref)).fetchone()

        row = self._transaction(work, write=False)
        return None if row is None else str(row[0])

    def refs(self, table_id: str, limit: int) -> list[tuple[str, int, str]]:
        """The last ``limit`` actions of a table stored with a ``ref``, oldest first:
        ``(ref_scope, ref, line)`` (a restored table's memory of recent answers)."""

        def work(conn: DBConnection) -> list[Row]:
            return conn.execute(self._sql(
                "SELECT ref_scope, ref, line FROM fd_actions WHERE table_id = ? AND ref IS NOT NULL"
                " ORDER BY deal DESC, idx DESC LIMIT ?"), (table_id, limit)).fetchall()

        return [(str(scope), _int(ref), str(line)) for scope, ref, line in reversed(self._transaction(work, write=False))]

    def delete_table(self, table_id: str) -> None:
        def work(conn: DBConnection) -> None:
            conn.execute(self._sql("DELETE FROM fd_actions WHERE table_id = ?"), (table_id,))
            conn.execute(self._sql("DELETE FROM fd_closed WHERE table_id = ?"), (table_id,))
            conn.execute(self._sql("DELETE FROM fd_tables WHERE id = ?"), (table_id,))

        self._transaction(work, write=True)

    def close_table(self, table_id: str) -> None:
        """Mark a table closed: :meth:`load_tables` skips it; its rows stay (:meth:`load_table`)."""
        self._transaction(lambda conn: conn.execute(self._sql(
            "INSERT INTO fd_closed (table_id, closed) VALUES (?, ?) ON CONFLICT (table_id) DO NOTHING"),
            (table_id, time.time())), write=True)

    def load_table(self, table_id: str) -> tuple[JSONObject, dict[int, list[str]]] | None:
        """One table, open or closed: its configuration and lines by deal; None if unknown."""

        def work(conn: DBConnection) -> tuple[Row | None, list[Row]]:
            row = conn.execute(self._sql("SELECT config FROM fd_tables WHERE id = ?"), (table_id,)).fetchone()
            actions = conn.execute(self._sql("SELECT deal, line FROM fd_actions WHERE table_id = ?"
                                             " ORDER BY deal, idx"), (table_id,)).fetchall()
            return row, actions

        row, actions = self._transaction(work, write=False)
        if row is None:
            return None
        lines: dict[int, list[str]] = {}
        for deal, line in actions:
            lines.setdefault(_int(deal), []).append(str(line))
        return _config(row), lines

    def load_since(self, table_id: str, deal: int, idx: int) -> tuple[JSONObject | None, bool,
                                                                      list[tuple[int, int, str]]]:
        """A table's configuration, whether it is closed, and its actions from ``(deal,
        idx)`` on, in order (one snapshot): how a process that does not own the table
        catches up with its owner (:mod:`folkdeck.server.cluster`). None: no such table."""

        def work(conn: DBConnection) -> tuple[Row | None, Row | None, list[Row]]:
            row = conn.execute(self._sql("SELECT config FROM fd_tables WHERE id = ?"), (table_id,)).fetchone()
            closed = conn.execute(self._sql("SELECT 1 FROM fd_closed WHERE table_id = ?"), (table_id,)).fetchone()
            rows = conn.execute(self._sql(
                "SELECT deal, idx, line FROM fd_actions WHERE table_id = ? AND (deal > ? OR (deal = ? AND idx >= ?))"
                " ORDER BY deal, idx"), (table_id, deal, deal, idx)).fetchall()
            return row, closed, rows

        row, closed, rows = self._transaction(work, write=False)
        config = None if row is None else _config(row)
        return config, closed is not None, [(_int(d), _int(i), str(line)) for d, i, line in rows]

    def load_tables(self) -> list[tuple[str, JSONObject, dict[int, list[str]]]]:
        """Every open table (oldest first): id, configuration, and its lines by deal number,
        in order. Both queries read the same snapshot of the database.
        """

        def work(conn: DBConnection) -> tuple[list[Row], list[Row]]:
            tables = conn.execute("SELECT id, config FROM fd_tables WHERE id NOT IN"
                                  " (SELECT table_id FROM fd_closed) ORDER BY created, id").fetchall()
            actions = conn.execute("SELECT table_id, deal, line FROM fd_actions WHERE table_id NOT IN"
                                   " (SELECT table_id FROM fd_closed) ORDER BY table_id, deal, idx").fetchall()
            return tables, actions

        rows, actions = self._transaction(work, write=False)
        lines: dict[str, dict[int, list[str]]] = {}
        for table_id, deal, line in actions:
            lines.setdefault(str(table_id), {}).setdefault(_int(deal), []).append(str(line))
        return [(str(row[0]), _config(row[1:]), lines.get(str(row[0]), {})) for row in rows]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._drop()
            if self.owner is not None:
                self.owner.close()
                self.owner = None


def _int(value: object) -> int:
    """An integer column's value (a deal, an index, a ref)."""
    if not isinstance(value, int):
        raise StoreError(f"the database gave {type(value).__name__} for a number")
    return value


def _config(row: Row) -> JSONObject:
    """A table's configuration from its row (the first column: its JSON text)."""
    config: JSONObject = json.loads(str(row[0]))
    return config


def open_store(url: str) -> Store:
    """A store for a SQLite path (``sqlite:///path`` too, or ``:memory:``) or a ``postgresql://`` URL.

    :raises StoreError: for a URL of another database, a database that cannot be opened,
        or a PostgreSQL server that cannot be reached.
    """
    if url.startswith(POSTGRES_SCHEMES):
        from folkdeck.server.store_pg import postgres  # the driver, imported only when asked for

        return Store(*postgres(url))
    if "://" in url and not url.startswith("sqlite:///"):
        raise StoreError(f"unsupported database URL {redact(url)!r}: give a SQLite file"
                         " (or sqlite:///path) or a postgresql:// URL")
    path = url.removeprefix("sqlite:///")
    owner = None if path == ":memory:" else _own_sqlite(path)

    def connect() -> DBConnection:
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)  # explicit BEGIN/COMMIT
        if path != ":memory:":
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")  # durable across a process crash (kill -9)
        return conn

    store = Store(connect, SQLITE, f"SQLite database {path!r}")
    store.owner = owner
    return store


def _own_sqlite(path: str) -> IO[str] | None:
    """Hold ``<path>.lock`` for this process (a POSIX lock: the kernel drops it when the
    process dies, however it dies). Each server process keeps its tables in memory, so a
    second process on one SQLite file would diverge from the first: it is refused.

    :raises StoreError: another process holds the file.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no guard
        return None
    try:
        lock = open(f"{path}.lock", "a+", encoding="ascii")  # noqa: SIM115 - held while the store lives
    except OSError:  # a folder we may not write in: SQLite will say what is wrong
        return None
    try:
        fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        lock.close()
        raise StoreError(f"another process serves the SQLite database {path!r}: one server process per"
                         " SQLite file (several share a PostgreSQL database only)") from exc
    return lock


__all__ = ["CONNECT_TIMEOUT", "POSTGRES_SCHEMES", "ActionRow", "Store", "StoreError", "open_store", "redact"]
