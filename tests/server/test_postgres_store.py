"""The store on PostgreSQL: the same schema and semantics as on SQLite, plus lost connections.

Each test gets a fresh database in the session's throwaway cluster (``pg_url``, conftest);
the semantic tests run on SQLite too, so the two backends are held to one contract.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from folkdeck.server.store import Store, StoreError, open_store
from tests.server.conftest import PostgresCluster, free_port


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    pg: str = request.getfixturevalue("pg_url")
    return pg


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = open_store(url)
    yield s
    s.close()


def _backend_pid(store: Store) -> int:
    conn: Any = store._conn
    pid: int = conn.info.backend_pid
    return pid


def test_tables_and_lines_come_back_in_order(store: Store, url: str) -> None:
    store.create_table("b", {"game": "kaphai", "seed": 2})
    store.create_table("a", {"game": "gouji", "seed": 1, "name": "日本語"})
    for deal, idx, line in [(1, 1, "2: pass"), (0, 0, "0: 4C"), (1, 0, "1: 3S"), (0, 1, "1: 5C")]:
        store.append_action("b", deal, idx, line)
    store.update_config("a", {"game": "gouji", "seed": 1, "name": "日本語", "auto": True})
    assert store.load_tables() == [
        ("b", {"game": "kaphai", "seed": 2}, {0: ["0: 4C", "1: 5C"], 1: ["1: 3S", "2: pass"]}),
        ("a", {"game": "gouji", "seed": 1, "name": "日本語", "auto": True}, {}),
    ]
    store.delete_table("b")
    assert [t[0] for t in store.load_tables()] == ["a"]
    store.close()
    again = open_store(url)  # the schema exists already; the data is there
    try:
        assert again.load_tables()[0][1]["auto"] is True
    finally:
        again.close()


def test_refs_are_stored_with_their_actions_and_old_databases_migrate(url: str) -> None:
    """A client's ``ref`` is stored in the action's own transaction; a database made before
    refs existed gains the columns when a server opens it (both backends)."""
    old = open_store(url)
    old._transaction(lambda conn: [conn.execute(sql) for sql in (
        "DROP INDEX IF EXISTS fd_actions_ref", "ALTER TABLE fd_actions DROP COLUMN ref_scope",
        "ALTER TABLE fd_actions DROP COLUMN ref")], write=True)  # the schema as it was
    old.create_table("t", {"game": "kaphai"})
    old._transaction(lambda conn: conn.execute("INSERT INTO fd_actions VALUES ('t', 0, 0, '0: 4C')"), write=True)
    old.close()
    store = open_store(url)
    try:
        store.append_action("t", 0, 1, "1: pass", "1/abc", 41)
        assert store.load_tables() == [("t", {"game": "kaphai"}, {0: ["0: 4C", "1: pass"]})]
        assert store.find_ref("t", "1/abc", 41) == "1: pass" and store.find_ref("t", "0/abc", 41) is None
        assert store.refs("t", 5) == [("1/abc", 41, "1: pass")]
    finally:
        store.close()


def test_writes_are_idempotent_and_conflicts_are_refused_without_harm(store: Store) -> None:
    store.create_table("t", {"game": "kaphai"})
    store.create_table("t", {"game": "kaphai"})  # a retried create after a lost commit
    with pytest.raises(StoreError, match="already exists"):
        store.create_table("t", {"game": "cambio"})
    store.append_action("t", 0, 0, "0: 4C")
    store.append_action("t", 0, 0, "0: 4C")  # a retried append after a lost commit
    with pytest.raises(StoreError, match=r"already stored as '0: 4C', not '0: 5C'"):
        store.append_action("t", 0, 0, "0: 5C")
    store.append_action("t", 0, 1, "1: pass")  # the failed transaction left nothing behind
    assert store.load_tables() == [("t", {"game": "kaphai"}, {0: ["0: 4C", "1: pass"]})]


def test_a_group_commit_larger_than_one_insert_stores_every_row_once(store: Store) -> None:
    """A batch over INSERT_ROWS is several INSERTs in one transaction; a retried batch (a
    lost commit) is stored once; a conflicting row fails alone."""
    from folkdeck.server.store import INSERT_ROWS

    tables = [f"t{i}" for i in range(7)]
    for table_id in tables:
        store.create_table(table_id, {"game": "kaphai"})
    rows = [(table_id, 0, idx, f"{idx}: pass", "s", idx) for idx in range(INSERT_ROWS // 2) for table_id in tables]
    assert len(rows) > 3 * INSERT_ROWS
    assert store.append_actions(rows) == [None] * len(rows)
    assert store.append_actions(rows[:10]) == [None] * 10  # the same again: already done
    outcomes = store.append_actions([("t0", 0, 0, "0: 4C", None, None), ("t1", 0, INSERT_ROWS, "x", None, None)])
    assert "already stored as '0: pass'" in str(outcomes[0]) and outcomes[1] is None
    stored = {table_id: lines[0] for table_id, _, lines in store.load_tables()}
    assert stored["t2"] == [f"{idx}: pass" for idx in range(INSERT_ROWS // 2)]
    assert stored["t1"][-1] == "x" and store.find_ref("t6", "s", 3) == "3: pass"


def test_an_action_is_committed_when_append_returns(pg_url: str) -> None:
    """Another connection sees the row at once: the store committed before returning (commit before ack)."""
    import psycopg

    store = open_store(pg_url)
    try:
        store.create_table("t", {"game": "kaphai"})
        with psycopg.connect(pg_url, autocommit=True) as other:
            for idx in range(5):
                store.append_action("t", 0, idx, f"{idx % 4}: pass")
                row = other.execute("SELECT line FROM fd_actions WHERE table_id = 't' AND idx = %s", (idx,)).fetchone()
                assert row == (f"{idx % 4}: pass",)
            state = other.execute("SELECT state FROM pg_stat_activity WHERE pid = %s", (_backend_pid(store),)).fetchone()
            assert state == ("idle",)  # not "idle in transaction": every call ends its transaction
            kind = other.execute("SELECT data_type FROM information_schema.columns"
                                 " WHERE table_name = 'fd_tables' AND column_name = 'created'").fetchone()
            assert kind == ("double precision",)  # not float4 (REAL), which orders tables by 2-minute steps
    finally:
        store.close()


def test_concurrent_writers_on_many_tables(url: str) -> None:
    """Threads sharing one store, and separate stores (connections), all write their tables at once."""
    shared = open_store(url)
    others = [open_store(url) for _ in range(3)]
    errors: list[BaseException] = []

    def write(store: Store, table: str) -> None:
        try:
            store.create_table(table, {"table": table})
            for idx in range(40):
                store.append_action(table, idx // 20, idx % 20, f"{idx % 4}: {table}-{idx}")
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    jobs = [(shared, f"s{i}") for i in range(4)] + [(s, f"o{i}") for i, s in enumerate(others)]
    threads = [threading.Thread(target=write, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    try:
        assert not errors, errors
        loaded = {tid: lines for tid, _, lines in shared.load_tables()}
        assert sorted(loaded) == sorted(table for _, table in jobs)
        for table, lines in loaded.items():
            assert lines == {d: [f"{i % 4}: {table}-{i}" for i in range(20 * d, 20 * d + 20)] for d in (0, 1)}
    finally:
        for s in (shared, *others):
            s.close()


def test_timeouts_are_set_unless_the_url_sets_them(pg_url: str) -> None:
    """The store blocks the event loop: a dead network must end in an error, not hang the server."""
    store = open_store(pg_url + "?keepalives_idle=7")
    try:
        conn: Any = store._conn
        options = {o.keyword.decode(): o.val.decode() for o in conn.pgconn.info if o.val is not None}
        assert options["connect_timeout"] == "10" and options["keepalives"] == "1"
        assert options["keepalives_idle"] == "7"  # the URL's own value wins
        assert options["tcp_user_timeout"] == "30000"
    finally:
        store.close()


def test_a_lost_connection_is_opened_again(pg_url: str, postgres: PostgresCluster) -> None:
    store = open_store(pg_url)
    try:
        store.create_table("t", {"game": "kaphai"})
        store.append_action("t", 0, 0, "0: 4C")
        first = _backend_pid(store)
        with postgres.admin() as admin:  # as when the server restarts or a proxy drops the connection
            admin.execute("SELECT pg_terminate_backend(%s)", (first,))
        store.append_action("t", 0, 1, "1: 5C")
        assert _backend_pid(store) != first
        assert store.load_tables()[0][2] == {0: ["0: 4C", "1: 5C"]}
    finally:
        store.close()


def test_an_unreachable_database_mid_game_is_a_clear_error_then_recovers(pg_url: str, postgres: PostgresCluster) -> None:
    name = pg_url.rsplit("/", 1)[1]
    store = open_store(pg_url)
    try:
        store.create_table("t", {"game": "kaphai"})
        with postgres.admin() as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            admin.execute("SELECT pg_terminate_backend(%s)", (_backend_pid(store),))
            with pytest.raises(StoreError, match=f"cannot connect to PostgreSQL database '{name}' at 127.0.0.1"):
                store.append_action("t", 0, 0, "0: 4C")
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        store.append_action("t", 0, 0, "0: 4C")
        assert store.load_tables()[0][2] == {0: ["0: 4C"]}
    finally:
        store.close()


def test_the_unix_socket_url_works_too(postgres: PostgresCluster, pg_url: str) -> None:
    name = pg_url.rsplit("/", 1)[1]
    store = open_store(postgres.socket_url(name))
    try:
        store.create_table("t", {"via": "socket"})
        assert store.load_tables() == [("t", {"via": "socket"}, {})]
    finally:
        store.close()


def test_bad_urls_and_unreachable_servers_are_clear_errors(postgres: PostgresCluster) -> None:
    closed_port = free_port()
    cases = [
        (f"postgresql://ann:s3cret@127.0.0.1:{closed_port}/folkdeck", f"cannot connect to PostgreSQL database 'folkdeck'"
         f" at 127.0.0.1:{closed_port}: .*Connection refused"),
        (postgres.url("no_such_db"), 'database "no_such_db" does not exist'),
        ("postgresql://ann:s3cret@[::1/folkdeck", "bad PostgreSQL URL 'postgresql://ann:\\*\\*\\*@"),
        ("postgresql://127.0.0.1/x?nonsense=1", 'invalid URI query parameter: "nonsense"'),
        ("mysql://ann:s3cret@host/db", "unsupported database URL 'mysql://ann:\\*\\*\\*@host/db'"),
    ]
    for url, message in cases:
        with pytest.raises(StoreError, match=message) as info:
            open_store(url)
        assert "s3cret" not in str(info.value)


def test_folkdeck_serve_reports_an_unreachable_database_without_a_trace(postgres: PostgresCluster) -> None:
    url = f"postgresql://ann:s3cret@127.0.0.1:{free_port()}/folkdeck"
    proc = subprocess.run([sys.executable, "-m", "folkdeck", "serve", "--port", "0", "--db", url],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert any(line.startswith("folkdeck serve: cannot connect to PostgreSQL database 'folkdeck' at 127.0.0.1:")
               for line in lines), proc.stderr
    assert "Traceback" not in proc.stderr and "s3cret" not in proc.stderr + proc.stdout
