"""Fixtures: an app on a temporary SQLite file, bots without delay; a throwaway PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn, cast

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed (pip install -e '.[server]')")

from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from folkdeck.server import delta  # noqa: E402
from folkdeck.server.config import Settings  # noqa: E402
from folkdeck.server.main import create_app  # noqa: E402
from folkdeck.server.manager import TableManager  # noqa: E402
from folkdeck.server.tables import Table  # noqa: E402

TEST_LIMITS: dict[str, Any] = {"create_burst": 100_000, "actions_burst": 100_000, "requests_burst": 100_000,
                               "max_client_connections": 10_000}
"""The tests play many tables from one address: the per-client limits are lifted (their
own tests set them)."""


def make_settings(path: Path | str, **overrides: Any) -> Settings:
    """Settings for a test server on ``path`` (a file or a database URL): bots without delay,
    the per-client limits lifted."""
    return Settings(**{"db": str(path), "bot_delay": 0, "deal_pause": 0, "window_seconds": 0.3, "call_seconds": 0.3,
                       "replay_seconds": 300, **TEST_LIMITS,
                       **overrides})


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "t.sqlite3")


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


def tables_of(client: TestClient) -> TableManager:
    """The app's tables (``app.state.tables``): a test client types its app as any ASGI app."""
    manager: TableManager = cast(FastAPI, client.app).state.tables
    return manager


def table_of(client: TestClient, table_id: str) -> Table:
    """The app's table ``table_id``, which must be there."""
    table = tables_of(client).get(table_id)
    assert table is not None, table_id
    return table


def create(client: TestClient, game: str = "kaphai", **body: Any) -> dict[str, Any]:
    """A new table: one deal unless ``deals`` is given; a ``seed`` makes it a practice table
    (only practice tables may choose their shuffle)."""
    body.setdefault("deals", 1)
    if "seed" in body:
        body.setdefault("practice", True)
    resp = client.post("/api/tables", json={"game": game, **body})
    assert resp.status_code == 201, resp.text
    data: dict[str, Any] = resp.json()
    return data


VIEWS: dict[int, dict[str, Any]] = {}
"""The view each test websocket (by ``id``) has reconstructed from its state and deltas."""


def view_of(ws: Any, msg: dict[str, Any]) -> dict[str, Any] | None:
    """The whole view after ``msg`` (a state, or a delta applied to the last view, as a
    client does: its base must be the client's version); None for any other message."""
    if msg["type"] == "state":
        VIEWS[id(ws)] = msg
        return msg
    if msg["type"] == "delta":
        last = VIEWS[id(ws)]
        assert msg["base"] == last["v"] and msg["v"] == last["v"] + 1, (msg["base"], last["v"])
        VIEWS[id(ws)] = view = delta.apply(last, cast(delta.Delta, msg))
        return view
    return None


def until_state(ws: Any, pred: Any = None, limit: int = 10_000) -> dict[str, Any]:
    """Read messages until a view (a state, or a delta applied) that satisfies ``pred``."""
    for _ in range(limit):
        view = view_of(ws, json.loads(ws.receive_text()))
        if view is not None and (pred is None or pred(view)):
            return view
    raise AssertionError("no such state")


def play_out(ws: Any, rng: Any = None, max_actions: int = 2000, first: Any = None) -> dict[str, Any]:
    """As a human seat, play the first (or a random) legal action whenever on turn, until the match ends.

    ``first``: a state message already read (it may be our turn in it)."""
    for _ in range(max_actions):
        ready = first is not None and (first["table"]["match_over"] or first["on_turn"])
        msg = first if ready else until_state(ws, lambda m: m["table"]["match_over"] or m["on_turn"])
        first = None
        if msg["table"]["match_over"]:
            return msg
        legal = msg["obs"]["legal_actions"]
        action = legal[rng.randrange(len(legal))] if rng else legal[0]
        ws.send_text(json.dumps({"type": "action", "action": action, "ref": 1}))
    raise AssertionError("match did not end")


# --- a throwaway PostgreSQL cluster for the tests of the PostgreSQL store -------------------------
# Started once per test session (per xdist worker) on 127.0.0.1 at a free port, with its unix
# socket in its own temporary folder, and stopped at the end. Without PostgreSQL's server
# programs the tests that need it are skipped, unless FOLKDECK_REQUIRE_POSTGRES=1 (CI sets it):
# then a missing server is an error.

REQUIRE_POSTGRES = os.environ.get("FOLKDECK_REQUIRE_POSTGRES") == "1"
PG_PROGRAMS = ("initdb", "pg_ctl", "postgres")


def _no_postgres(reason: str) -> NoReturn:
    if REQUIRE_POSTGRES:
        pytest.fail(f"{reason} (FOLKDECK_REQUIRE_POSTGRES=1: PostgreSQL is required here)", pytrace=False)
    pytest.skip(f"{reason}; install Debian's postgresql package (or set FOLKDECK_REQUIRE_POSTGRES=1 to fail)")


def postgres_bindir() -> Path | None:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``: on PATH, else Debian's newest version."""
    on_path = shutil.which("initdb")
    candidates = [Path(on_path).resolve().parent] if on_path else []
    versions = Path("/usr/lib/postgresql").glob("*/bin")
    candidates += sorted(versions, key=lambda p: [int(x) for x in re.findall(r"\d+", p.parent.name)], reverse=True)
    for folder in candidates:
        if all((folder / name).is_file() for name in PG_PROGRAMS):
            return folder
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PostgresCluster:
    """``initdb`` into a temporary folder, ``pg_ctl start`` on loopback; ``stop`` removes it all.

    initdb refuses to run as root, so as root the folder belongs to the ``postgres`` user (or
    ``nobody``) and the server programs run as that user.
    """

    user = "folkdeck"

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.as_user: tuple[int, int] | None = None
        if os.geteuid() == 0:
            for name in ("postgres", "nobody"):
                with contextlib.suppress(KeyError):
                    entry = pwd.getpwnam(name)
                    self.as_user = (entry.pw_uid, entry.pw_gid)
                    break
        self.root = Path(tempfile.mkdtemp(prefix="folkdeck-pg-", dir="/tmp" if self.as_user else None))
        if self.as_user:
            os.chown(self.root, *self.as_user)
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = 0
        self._databases = 0

    def _run(self, *args: str) -> None:
        user = {"user": self.as_user[0], "group": self.as_user[1], "extra_groups": []} if self.as_user else {}
        proc = subprocess.run([str(self.bindir / args[0]), *args[1:]], cwd=self.root, capture_output=True,
                              text=True, timeout=120, check=False, **user)  # type: ignore[call-overload]
        if proc.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:2])} failed ({proc.returncode}): {proc.stderr.strip()}\n{log}")

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", self.user, "--auth=trust", "--no-sync",
                  "--encoding=UTF8", "--locale=C")
        for attempt in range(3):  # another process may take the free port first
            self.port = free_port()
            try:
                self._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data), "-l", str(self.log), "-o",
                          f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
                          " -c full_page_writes=off")
                return
            except RuntimeError:
                if attempt == 2:
                    raise

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def socket_url(self, dbname: str) -> str:
        """The same database through the unix socket in the cluster's folder."""
        return f"postgresql://{self.user}@/{dbname}?host={self.root}&port={self.port}"

    def admin(self) -> Any:
        """A psycopg connection to the ``postgres`` database, in autocommit mode."""
        import psycopg

        return psycopg.connect(self.url(), autocommit=True)

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        self._databases += 1
        name = f"folkdeck_test_{self._databases}"
        with self.admin() as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    """The session's PostgreSQL cluster (skipped, or an error in CI, without PostgreSQL)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        _no_postgres("psycopg is not installed (pip install -e '.[postgres]')")
    bindir = postgres_bindir()
    if bindir is None:
        _no_postgres("no PostgreSQL server programs (initdb, pg_ctl, postgres) on PATH or in /usr/lib/postgresql/*/bin")
    cluster = PostgresCluster(bindir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(postgres: PostgresCluster) -> str:
    """The URL of a fresh database in the session's PostgreSQL cluster."""
    return postgres.new_database()
