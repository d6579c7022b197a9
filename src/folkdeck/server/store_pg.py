"""The PostgreSQL side of :mod:`folkdeck.server.store`: a connection to a ``postgresql://`` URL,
with ``psycopg`` (version 3, in the ``postgres`` extra), imported only when one is opened."""

from __future__ import annotations

from collections.abc import Callable

from folkdeck.server.database import CONNECT_TIMEOUT, DBConnection, Dialect, StoreError, driver_reason, redact


def _pg_broken(conn: object) -> bool:
    """Whether a psycopg connection is closed or broken (then it is opened again)."""
    return bool(getattr(conn, "closed", False) or getattr(conn, "broken", False))


def postgres(url: str) -> tuple[Callable[[], DBConnection], Dialect, str]:
    """What a store on the PostgreSQL database at ``url`` needs: how to connect, the
    dialect, and the database's name for messages (:func:`folkdeck.server.store.open_store`)."""
    try:
        import psycopg  # type: ignore[import-not-found, unused-ignore]
        from psycopg.conninfo import (  # type: ignore[import-not-found, unused-ignore]
            conninfo_to_dict,
            make_conninfo,
        )
    except ImportError as exc:
        raise StoreError("a PostgreSQL database needs psycopg: pip install 'folkdeck[postgres]'"
                         " (or pip install 'psycopg[binary]')") from exc
    try:
        params = conninfo_to_dict(url)
    except psycopg.Error as exc:
        raise StoreError(f"bad PostgreSQL URL {redact(url)!r}: {driver_reason(exc)}") from exc
    where = "PostgreSQL database {db!r} at {host}:{port}".format(
        db=params.get("dbname") or params.get("user") or "(default)",
        host=params.get("host") or "(local socket)", port=params.get("port") or 5432)
    # The store's calls block the server's event loop: never wait for ever on a dead network
    # (TCP keepalives, and at most 30 s for unacknowledged data); the URL may set its own.
    defaults = {"connect_timeout": CONNECT_TIMEOUT, "keepalives": 1, "keepalives_idle": 30,
                "keepalives_interval": 10, "keepalives_count": 3}
    if psycopg.pq.version() >= 120000:  # libpq 12 added tcp_user_timeout
        defaults["tcp_user_timeout"] = 30_000
    extra: dict[str, int] = {key: value for key, value in defaults.items() if key not in params}

    def connect() -> DBConnection:
        conn: DBConnection = psycopg.connect(make_conninfo(url, **extra), autocommit=True)
        return conn

    dialect = Dialect(name="PostgreSQL", placeholder="%s", float_type="DOUBLE PRECISION",
                       begin_read="BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", begin_write="BEGIN",
                       errors=(psycopg.Error,), is_broken=_pg_broken,
                       columns_query="SELECT column_name FROM information_schema.columns"
                                     " WHERE table_name = 'fd_actions' AND table_schema = current_schema()",
                       schema_lock=("SELECT pg_advisory_xact_lock(7210531)",))  # any fixed key
    return connect, dialect, where


__all__ = ["postgres"]
