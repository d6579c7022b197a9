"""Issue 36, item 7: nothing outside a table's actor reads or writes the table's state.

mypy runs on ``folkdeck.server`` with the plugin of ``tests/server/mypy_table_state.py``,
which refuses every attribute of a :class:`~folkdeck.server.tables.Table` read, written or
called outside the actor's own modules (the pages read the snapshot the actor publishes,
:mod:`folkdeck.server.snapshot`; the cluster sends the actor messages). mypy types every
expression, so the check is exact: a table reached under any name, through any container,
is caught. A probe module that reads, writes and calls a table shows that it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api", reason="mypy is not installed (the dev extra)")

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = Path(__file__).with_name("mypy_table_state.py")

PROBE = '''\
from folkdeck.server.tables import Table


def probe(tables: dict[str, Table], table_id: str) -> object:
    table = tables[table_id]
    table.deadline = None
    return table.state, table.public(), table.id, Table.new
'''
PROBE_ERRORS = [(6, "Table.deadline written"), (7, "Table.state read"), (7, "Table.public called")]
"""What the probe does outside the actor (its ``id``, and making a table, are allowed)."""


def test_no_module_outside_the_actor_reads_or_writes_a_table(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\nstrict = True\npython_version = 3.11\nmypy_path = {ROOT / 'src'}\n"
                      f"plugins = {PLUGIN}\n[mypy-psycopg.*]\nignore_missing_imports = True\n")
    # a cache of its own (the plugin is part of mypy's options): warm, the run takes seconds
    out, err, _ = mypy_api.run(["--config-file", str(config), "--cache-dir", str(ROOT / ".mypy_cache" / "table_state"),
                                "--no-error-summary", "--hide-error-context", "--show-absolute-path",
                                str(ROOT / "src" / "folkdeck" / "server"), str(probe)])
    errors = [line for line in out.splitlines() if ": error: " in line]
    # by the file's name: mypy's cache may name the probe of an earlier run (the same module)
    probed = [line for line in errors if Path(line.split(":")[0]).name == probe.name]
    assert [line for line in errors if line not in probed] == [], err
    found = [(int(line.split(":")[1]), line.split(": error: ")[1].split(" outside")[0]) for line in probed]
    assert found == PROBE_ERRORS, out
