"""Which process owns which live table, when several share one PostgreSQL database.

Each server process holds one **session advisory lock** on a connection of its own, the
*lease connection*: its key (``pg_advisory_lock(LOCK_SPACE, key)``) is the process's
identity, and the lock lives exactly as long as that database session. A process that
dies, however it dies (SIGKILL included), closes its socket; PostgreSQL ends the session
and the lock is gone at once, with no heartbeat to wait for. A process cut off from the
database without a word (a dead host) is found by TCP keepalives on the session (set
here, about 10 s).

Table by table, the row of ``fd_owners`` names the owning process's key. A table whose row
is missing, released (``owner = 0``) or names a key no session holds is an orphan: any
process may adopt it, by one compare-and-set statement (:meth:`Leases.adopt`), so two
processes never both win it. The store writes a table's actions only while the row names
the writer (:attr:`folkdeck.server.store.Store.fence`), in the same transaction: a process
that lost its lease without knowing it cannot write after the adopter took over.

Why advisory locks and rows, not one advisory lock per table or a lease row with an expiry:
one lock per process keeps PostgreSQL's shared lock table small (a lock per table would need
``max_locks_per_transaction`` raised for thousands of tables) and frees everything the
moment the process's session ends; an expiry would need a heartbeat write per process and
would make failover wait for the expiry. The lease session's ``application_name`` is
``folkdeck lease pid <pid>``: ``pg_stat_activity`` shows which process holds which key.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from typing import TYPE_CHECKING

from folkdeck.server.database import PgConnect, StoreError

if TYPE_CHECKING:
    from folkdeck.server.database import PgConnection

log = logging.getLogger("folkdeck.server")
Row = tuple[object, ...]

LOCK_SPACE = 1178880817
"""The first key of every process's advisory lock (``"FDK1"``): the second is the process's."""
LIVE = ("SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND classid = 1178880817"
        " AND objsubid = 2 AND granted AND database = (SELECT oid FROM pg_database"
        " WHERE datname = current_database())")
"""The keys of the processes alive now (their lease sessions hold their locks)."""
KEEPALIVE = ("SET tcp_keepalives_idle = 4", "SET tcp_keepalives_interval = 2", "SET tcp_keepalives_count = 3")
"""The database ends the session of a process whose host went silent within about 10 s."""
SCHEMA = ("SELECT pg_advisory_xact_lock(7210531)",  # the store's schema lock: processes starting together
          "CREATE TABLE IF NOT EXISTS fd_owners (table_id TEXT PRIMARY KEY, owner BIGINT NOT NULL,"
          " since DOUBLE PRECISION NOT NULL)")


class Leases:
    """This process's lease session: its key (:attr:`me`) and the tables' owner rows."""

    def __init__(self, connect: PgConnect) -> None:
        self._connect = connect
        self._lock = threading.Lock()
        self._conn: PgConnection | None = None
        self.me = 0
        self.open()

    def open(self) -> None:
        """Open the lease session and take a key no live process holds (the last one if free)."""
        conn = self._connect()
        for statement in KEEPALIVE:
            conn.execute(statement)
        # The operator sees which server process holds which lease (pg_stat_activity).
        conn.execute("SELECT set_config('application_name', %s, false)", (f"folkdeck lease pid {os.getpid()}",))
        with conn.transaction():
            for statement in SCHEMA:
                conn.execute(statement)
        candidates = [self.me] if self.me else []
        while True:
            key = candidates.pop() if candidates else secrets.randbelow(2**31 - 2) + 1
            row = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_SPACE, key)).fetchone()
            if row is not None and row[0]:
                break
        self._conn, self.me = conn, key

    def close(self) -> None:
        """End the session: the lock goes with it (the rows stay: others adopt the tables)."""
        with self._lock:
            conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # pragma: no cover - closing a broken connection
                log.debug("closing the lease connection failed", exc_info=True)

    def _run(self, sql: str, params: tuple[object, ...] = ()) -> list[Row]:
        """One statement on the lease session (a failure is a :class:`StoreError`: the
        client is told to try again; :meth:`healthy` finds the session lost)."""
        with self._lock:
            if self._conn is None:
                raise StoreError("the lease session is closed (the database is unreachable)")
            try:
                cur = self._conn.execute(sql, params)
                rows: list[Row] = cur.fetchall() if cur.description else [(cur.rowcount,)]
            except Exception as exc:
                raise StoreError(f"the lease session failed: {' '.join(str(exc).split())}") from exc
            return rows

    def healthy(self) -> bool:
        """Whether this process still holds its lock (its session is alive)."""
        try:
            rows = self._run("SELECT 1 FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'advisory'"
                             " AND classid = %s AND objid = %s AND objsubid = 2 AND granted", (LOCK_SPACE, self.me))
        except Exception:
            log.warning("the lease session was lost", exc_info=True)
            return False
        return bool(rows)

    def live(self) -> set[int]:
        """The keys of the processes alive now."""
        return {_key(row) for row in self._run(LIVE)}

    def alive(self, key: int) -> bool:
        return key in self.live()

    def adopt(self, table_id: str) -> bool:
        """Become the owner of ``table_id`` unless a live process owns it; True if this process
        owns it now (compare-and-set: of two processes adopting together, one wins)."""
        rows = self._run("INSERT INTO fd_owners (table_id, owner, since) VALUES (%s, %s, %s)"
                         " ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, since = EXCLUDED.since"
                         f" WHERE fd_owners.owner <> EXCLUDED.owner AND fd_owners.owner NOT IN ({LIVE})"
                         " RETURNING owner", (table_id, self.me, time.time()))
        return bool(rows) and rows[0] == (self.me,) or self.owner_of(table_id) == self.me

    def owner_of(self, table_id: str) -> int | None:
        """The live process that owns ``table_id``, or None (no owner, or a dead one)."""
        rows = self._run(f"SELECT owner FROM fd_owners WHERE table_id = %s AND owner IN ({LIVE})", (table_id,))
        return _key(rows[0]) if rows else None

    def mine(self) -> set[str]:
        """The tables whose rows name this process."""
        return {str(row[0]) for row in self._run("SELECT table_id FROM fd_owners WHERE owner = %s", (self.me,))}

    def orphans(self) -> list[str]:
        """The open tables that no live process owns (oldest first)."""
        rows = self._run("SELECT t.id FROM fd_tables t LEFT JOIN fd_owners o ON o.table_id = t.id"
                         " WHERE t.id NOT IN (SELECT table_id FROM fd_closed)"
                         f" AND (o.owner IS NULL OR o.owner NOT IN ({LIVE})) ORDER BY t.created, t.id")
        return [str(row[0]) for row in rows]

    def release(self, table_ids: list[str]) -> None:
        """Give up these tables (a draining process): others adopt them at once."""
        if table_ids:
            self._run("UPDATE fd_owners SET owner = 0 WHERE owner = %s AND table_id = ANY(%s)", (self.me, table_ids))


def _key(row: Row) -> int:
    """A row's first column: a process's key (``bigint``)."""
    key = row[0]
    if not isinstance(key, int):
        raise StoreError(f"the lease session read {type(key).__name__}, not a process key")
    return key


__all__ = ["LIVE", "LOCK_SPACE", "Leases"]
