"""A database made before refs were stored is migrated when a server opens it: its tables
load as they were, and new actions keep their refs (issue 24: exactly once, durably)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from folkdeck.server.store import open_store


def test_an_old_sqlite_database_gains_the_ref_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as conn:  # the schema as version 0.x made it
        conn.execute("CREATE TABLE fd_tables (id TEXT PRIMARY KEY, config TEXT NOT NULL, created REAL NOT NULL)")
        conn.execute("CREATE TABLE fd_actions (table_id TEXT NOT NULL, deal INTEGER NOT NULL, idx INTEGER NOT NULL,"
                     " line TEXT NOT NULL, PRIMARY KEY (table_id, deal, idx))")
        conn.execute("INSERT INTO fd_tables VALUES ('t', '{\"game\": \"kaphai\"}', 0)")
        conn.execute("INSERT INTO fd_actions VALUES ('t', 0, 0, '0: 4C')")
    store = open_store(str(path))
    assert store.load_tables() == [("t", {"game": "kaphai"}, {0: ["0: 4C"]})]
    store.append_action("t", 0, 1, "1: pass", "1/abc", 41)
    assert store.find_ref("t", "1/abc", 41) == "1: pass" and store.refs("t", 10) == [("1/abc", 41, "1: pass")]
    store.close()
    again = open_store(str(path))  # opening a migrated database changes nothing
    assert again.find_ref("t", "1/abc", 41) == "1: pass"
    again.close()
