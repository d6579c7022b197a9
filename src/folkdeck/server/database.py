"""What the store (:mod:`folkdeck.server.store`) needs of a database, whichever it is: its
error, what it uses of the drivers' connections and cursors, and what differs between
SQLite and PostgreSQL (:class:`Dialect`)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeAlias, Unpack

from folkdeck.engine.errors import CardGameError
from folkdeck.json_types import JSONObject

if TYPE_CHECKING:
    from psycopg import Connection as _PgConnection  # type: ignore[import-not-found, unused-ignore]

    from folkdeck.i18n import RendererOptions

PgConnection: TypeAlias = "_PgConnection[tuple[object, ...]]"
"""A psycopg connection (rows as tuples): the leases' and the relay's own."""
PgConnect = Callable[[], PgConnection]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
CONNECT_TIMEOUT = 10
"""Seconds to wait for a PostgreSQL server (unless the URL sets ``connect_timeout``)."""


class StoreError(CardGameError):
    """The database cannot be opened, is unreachable, or refused a write.

    ``message`` names the database for the operator (the log, ``folkdeck serve``);
    :meth:`to_dict`, what a player is sent, does not.
    """

    code = "storage_error"

    def __init__(self, detail: str) -> None:
        super().__init__("server.store_failed")
        self.detail = detail

    @property
    def message(self) -> str:
        """The operator's message (it names the database)."""
        return self.detail

    def __str__(self) -> str:
        return self.detail

    def render(self, lang: str = "en", **renderer: Unpack[RendererOptions]) -> str:
        """The operator's message in any language (the terminal prints it): it names the
        database, which only the operator may see."""
        return self.detail

    def to_dict(self) -> JSONObject:
        """What a player is sent: the catalog's message, nothing of the database."""
        return {"error": self.code, "reason": self.reason, "params": {},
                "message": super().render("en")}


Row = tuple[object, ...]
"""A row as both drivers give it."""


class DBCursor(Protocol):
    """What the store reads of a cursor (``sqlite3``'s and ``psycopg``'s alike)."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Row | None: ...
    def fetchall(self) -> list[Row]: ...


class DBConnection(Protocol):
    """What the store uses of a DB-API connection in autocommit mode."""

    def execute(self, sql: str, params: tuple[object, ...] = ..., /) -> DBCursor: ...
    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs between the two databases: placeholders, types, transactions, errors."""

    name: str
    placeholder: str
    float_type: str
    begin_read: str
    begin_write: str
    errors: tuple[type[Exception], ...]
    is_broken: Callable[[object], bool]
    columns_query: str = "SELECT name FROM pragma_table_info('fd_actions')"
    """The names of ``fd_actions``' columns (for :meth:`migrations`)."""
    schema_lock: tuple[str, ...] = ()
    """Statements that serialise schema creation between processes starting together."""

    def schema(self) -> tuple[str, ...]:
        return (
            *self.schema_lock,
            "CREATE TABLE IF NOT EXISTS fd_tables (id TEXT PRIMARY KEY, config TEXT NOT NULL,"
            f" created {self.float_type} NOT NULL)",
            "CREATE TABLE IF NOT EXISTS fd_actions (table_id TEXT NOT NULL, deal INTEGER NOT NULL,"
            " idx INTEGER NOT NULL, line TEXT NOT NULL, PRIMARY KEY (table_id, deal, idx))",
            # Tables closed for being idle: not loaded at start, their rows (records) kept.
            f"CREATE TABLE IF NOT EXISTS fd_closed (table_id TEXT PRIMARY KEY, closed {self.float_type} NOT NULL)",
        )

    def migrations(self, conn: DBConnection) -> tuple[str, ...]:
        """What a database made by an older version lacks: the client's ``ref`` of each
        person's action (``ref_scope``: the seat and its token, so that two seats' refs
        never meet), stored with the action for resends after a restart."""
        have = {row[0] for row in conn.execute(self.columns_query).fetchall()}
        wanted = (("ref_scope", "TEXT"), ("ref", "BIGINT"))
        return tuple(f"ALTER TABLE fd_actions ADD COLUMN {name} {kind}" for name, kind in wanted if name not in have)


SQLITE = Dialect(name="SQLite", placeholder="?", float_type="REAL", begin_read="BEGIN",
                  begin_write="BEGIN IMMEDIATE", errors=(sqlite3.Error,), is_broken=lambda conn: False)


def redact(text: str) -> str:
    """Hide the password of any URL in ``text``.

    >>> redact("postgresql://ann:s3cret@db.example/folkdeck")
    'postgresql://ann:***@db.example/folkdeck'
    """
    return re.sub(r"(://[^:/@\s]*):[^@/\s]*@", r"\1:***@", text)


def driver_reason(exc: BaseException) -> str:
    """The driver's message on one line, without the password."""
    return redact(" ".join(str(exc).split())) or type(exc).__name__


__all__ = ["CONNECT_TIMEOUT", "POSTGRES_SCHEMES", "SQLITE", "DBConnection", "DBCursor", "Dialect", "PgConnect",
           "PgConnection", "Row", "StoreError", "driver_reason", "redact"]
