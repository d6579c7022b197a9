"""``folkdeck serve`` leaves nothing behind (issue 24): its bot workers and their fork server
die with it on any signal, SIGKILL included; SIGTERM drains and stops."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from folkdeck.server.cluster import Cluster
from folkdeck.server.watchdog import alive
from tests.server.test_crash import Server


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[-1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def _descendants(pid: int) -> set[int]:
    tree, found, todo = _children(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _server_with_bot_workers(tmp_path: Path) -> tuple[Server, set[int]]:
    server = Server(tmp_path / "s.sqlite3")
    server.http.post("/api/tables", json={"game": "cangkul", "seed": 1, "practice": True, "deals": 50,
                                          "seats": [{"kind": "bot"}] * 4})
    deadline = time.monotonic() + 30
    while len(processes := _descendants(server.proc.pid)) < 2:  # the fork server and a worker
        assert time.monotonic() < deadline, "no bot workers started"
        time.sleep(0.1)
    return server, processes


def signal_and_expect_gone(server: Server, sig: signal.Signals, processes: set[int]) -> None:
    """Send ``sig`` to the server; it and ``processes`` (its workers) must be gone within seconds."""
    os.kill(server.proc.pid, sig)
    server.proc.wait(timeout=15)
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in processes):
        assert time.monotonic() < deadline, f"left running: {sorted(p for p in processes if alive(p))}"
        time.sleep(0.1)


def kill_all(server: Server, processes: set[int]) -> None:
    """Whatever happened, leave nothing running."""
    server.proc.kill()
    server.proc.wait()
    for pid in processes:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc")
def test_the_bot_workers_die_with_the_killed_server(tmp_path: Path) -> None:
    server, processes = _server_with_bot_workers(tmp_path)
    try:
        signal_and_expect_gone(server, signal.SIGKILL, processes)
    finally:
        kill_all(server, processes)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc")
def test_sigterm_drains_and_leaves_no_semaphore_behind(tmp_path: Path) -> None:
    """Issue 37: the drain shut the bot workers' pools down without waiting, so their queues'
    semaphores were never unlinked and the resource tracker reported them at every exit
    ("leaked semaphore objects"), which would hide a real leak. The server ends on the
    signal (uvicorn raises it again once drained) and says nothing on its way out."""
    server, processes = _server_with_bot_workers(tmp_path)
    try:
        signal_and_expect_gone(server, signal.SIGTERM, processes)
        assert server.proc.returncode == -signal.SIGTERM
        assert server.proc.stdout is not None
        said = server.proc.stdout.read()  # the server's stderr too
        assert "leaked semaphore" not in said, said
        assert said.strip() == "", said
    finally:
        kill_all(server, processes)


def test_a_second_server_on_one_sqlite_file_is_refused_in_one_line(tmp_path: Path) -> None:
    """Each server keeps its tables in memory: a second one on the same SQLite file would
    diverge from the first (issue 24), so it stops at once with one line."""
    db = tmp_path / "one.sqlite3"
    first = Server(db)
    try:
        second = subprocess.run([sys.executable, "-m", "folkdeck", "serve", "--port", "0", "--db", str(db)],
                                capture_output=True, text=True, timeout=60, check=False)
        assert second.returncode != 0
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "another process serves the SQLite database" in lines[0], second.stderr
        assert first.http.get("/api/games").status_code == 200  # the first one serves on
    finally:
        first.proc.kill()
        first.proc.wait()
    again = Server(db)  # once the first is gone (killed: the kernel drops its lock), a server may start
    again.proc.kill()
    again.proc.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_process_that_asked_to_die_with_its_parent_dies_with_it(tmp_path: Path) -> None:
    """The kernel's link of a bot worker to its fork server (``die_with_parent``), alone:
    no watch thread, the parent killed with SIGKILL."""
    ready = tmp_path / "ready"
    child = ("import pathlib, sys, time; from folkdeck.server.watchdog import die_with_parent; "
             "die_with_parent(); pathlib.Path(sys.argv[1]).write_text('x'); time.sleep(60)")
    parent = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys, time; "
         f"c = subprocess.Popen([sys.executable, '-c', {child!r}, {str(ready)!r}]); "
         "print(c.pid, flush=True); time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    grandchild = int(parent.stdout.readline())
    try:
        deadline = time.monotonic() + 30
        while not ready.exists():
            assert time.monotonic() < deadline, "the child never got ready"
            time.sleep(0.05)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 5
        while alive(grandchild):
            assert time.monotonic() < deadline, "the child outlived its parent"
            time.sleep(0.05)
    finally:
        parent.kill()
        parent.wait()
        if alive(grandchild):
            os.kill(grandchild, signal.SIGKILL)



class _Scanner(Cluster):
    """A cluster without a database: only its lease scanner's life is tested. What
    :meth:`Cluster.close` closes (the relay, the lease session) is a stand-in; each look is
    counted."""

    def __init__(self) -> None:  # noqa: D107 - no database, no relay
        self.manager = cast(Any, SimpleNamespace(settings=SimpleNamespace(lease_scan_seconds=30.0, max_tables=10)))
        self.relay = self.leases = cast(Any, SimpleNamespace(close=lambda: None))
        self.closed, self.draining, self.wake, self.owned = False, False, asyncio.Event(), set()
        self._first_scan = None  # the adoption at the start: none here
        self.looks = 0

    def look(self) -> list[str]:
        self.looks += 1
        return []


def test_a_cluster_closed_as_a_wake_comes_looks_no_more() -> None:
    """Two processes stopping together: one's release wakes the other's lease scanner in the
    turn the other closes. Python 3.11's ``asyncio.wait_for`` then returns instead of being
    cancelled; the scanner must still stop, not look at the closed lease session (which
    logged "the lease session was lost" and opened a new one while the process stopped)."""

    async def scenario() -> _Scanner:
        cluster = _Scanner()
        cluster._scanner = asyncio.get_running_loop().create_task(cluster._scan_loop())
        await asyncio.sleep(0)  # the scanner waits for a wake
        cluster.wake.set()  # another process released its tables...
        cluster.close()  # ...in the turn this one closes
        for _ in range(5):
            await asyncio.sleep(0)
        return cluster

    cluster = asyncio.run(scenario())
    assert cluster._scanner is not None and cluster._scanner.done()
    assert cluster.looks == 0
