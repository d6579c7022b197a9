"""Durable tables: each table's configuration and its record lines, one row per action.

A table is rebuilt by replaying its lines (the engine is deterministic), so an action
is durable once :meth:`Store.append_action` returns: the row is committed before the
server acknowledges the action. SQLite (the standard library's ``sqlite3``, WAL
journal) is the default; a ``postgresql://`` URL uses ``psycopg`` (installed apart).

>>> store = open_store(":memory:")
>>> store.create_table("t1", {"game": "kaphai"})
>>> store.append_action("t1", 0, 0, "0: 4C")
>>> store.load_tables()
[('t1', {'game': 'kaphai'}, {0: ['0: 4C']})]
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any, Protocol

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS fd_tables (id TEXT PRIMARY KEY, config TEXT NOT NULL, created REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS fd_actions (table_id TEXT NOT NULL, deal INTEGER NOT NULL,"
    " idx INTEGER NOT NULL, line TEXT NOT NULL, PRIMARY KEY (table_id, deal, idx))",
)


class _Connection(Protocol):
    def execute(self, sql: str, params: Any = ...) -> Any: ...
    def commit(self) -> None: ...
    def close(self) -> None: ...


class Store:
    """Tables and their actions in a SQL database (DB-API connection)."""

    def __init__(self, conn: _Connection, placeholder: str = "?") -> None:
        self._conn = conn
        self._ph = placeholder
        for statement in _SCHEMA:
            self._conn.execute(statement)
        self._conn.commit()

    def _sql(self, sql: str) -> str:
        return sql if self._ph == "?" else sql.replace("?", self._ph)

    def create_table(self, table_id: str, config: dict[str, Any]) -> None:
        self._conn.execute(self._sql("INSERT INTO fd_tables (id, config, created) VALUES (?, ?, ?)"),
                           (table_id, json.dumps(config), time.time()))
        self._conn.commit()

    def update_config(self, table_id: str, config: dict[str, Any]) -> None:
        self._conn.execute(self._sql("UPDATE fd_tables SET config = ? WHERE id = ?"),
                           (json.dumps(config), table_id))
        self._conn.commit()

    def append_action(self, table_id: str, deal: int, idx: int, line: str) -> None:
        """Store one record line and commit (the action is durable on return)."""
        self._conn.execute(self._sql("INSERT INTO fd_actions (table_id, deal, idx, line) VALUES (?, ?, ?, ?)"),
                           (table_id, deal, idx, line))
        self._conn.commit()

    def delete_table(self, table_id: str) -> None:
        self._conn.execute(self._sql("DELETE FROM fd_actions WHERE table_id = ?"), (table_id,))
        self._conn.execute(self._sql("DELETE FROM fd_tables WHERE id = ?"), (table_id,))
        self._conn.commit()

    def load_tables(self) -> list[tuple[str, dict[str, Any], dict[int, list[str]]]]:
        """Every table: id, configuration, and its lines by deal number, in order."""
        rows = self._conn.execute("SELECT id, config FROM fd_tables ORDER BY created").fetchall()
        lines: dict[str, dict[int, list[str]]] = {}
        for table_id, deal, line in self._conn.execute(
                "SELECT table_id, deal, line FROM fd_actions ORDER BY table_id, deal, idx").fetchall():
            lines.setdefault(table_id, {}).setdefault(deal, []).append(line)
        return [(tid, json.loads(cfg), lines.get(tid, {})) for tid, cfg in rows]

    def close(self) -> None:
        self._conn.close()


def open_store(url: str) -> Store:
    """A store for a SQLite path (or ``:memory:``) or a ``postgresql://`` URL."""
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg  # type: ignore[import-not-found, unused-ignore]
        except ImportError as exc:  # pragma: no cover - depends on the deployment
            raise RuntimeError("a PostgreSQL database needs `pip install psycopg`") from exc
        return Store(psycopg.connect(url), placeholder="%s")  # pragma: no cover
    path = url.removeprefix("sqlite:///")
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    if path != ":memory:":
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")  # durable across a process crash (kill -9)
    conn.isolation_level = "DEFERRED"  # explicit commits
    return Store(conn)
