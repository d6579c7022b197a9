"""The bot workers die with their server, on any signal, SIGKILL included.

Bots think in processes forked by a fork server (:mod:`folkdeck.server.bots`); those are
not the server's children but the fork server's, and a killed server cannot stop them.
So each of them watches the server itself: :func:`watch` (a daemon thread) ends the
process as soon as the server's process is gone. The server names itself in the
environment (:data:`SERVER_PID`) before its fork server starts; this module is preloaded
by the fork server, which then watches too, and each worker starts its own watch (a
forked child keeps no thread of its parent).
"""

from __future__ import annotations

import os
import threading
import time

SERVER_PID = "FOLKDECK_SERVER_PID"
"""The environment variable that names the server's process to its fork server."""
POLL_SECONDS = 0.5


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not reaped, does not).

    >>> alive(os.getpid()), alive(2**22 + 1)
    (True, False)
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process: it exists
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:  # no /proc here: kill(0) said it exists
        return True


def _watch(pid: int) -> None:
    while alive(pid):
        time.sleep(POLL_SECONDS)
    os._exit(0)  # the server is gone: nothing here is worth finishing


def watch(pid: int | None = None) -> None:
    """End this process once process ``pid`` (default: the one :data:`SERVER_PID` names) is
    gone; nothing if no server is named, or this process is the server."""
    if pid is None:
        named = os.environ.get(SERVER_PID, "")
        pid = int(named) if named.isdigit() else None
    if pid is None or pid == os.getpid():
        return
    threading.Thread(target=_watch, args=(pid,), name="folkdeck-watchdog", daemon=True).start()


def start_fork_server() -> None:
    """Start this process's fork server naming this process as the server to watch (the
    variable is set only while the fork server starts: nothing else inherits it)."""
    from multiprocessing import forkserver

    before = os.environ.get(SERVER_PID)
    os.environ[SERVER_PID] = str(os.getpid())
    try:
        forkserver.ensure_running()
    finally:
        if before is None:
            del os.environ[SERVER_PID]
        else:  # pragma: no cover - a server started from another server's process
            os.environ[SERVER_PID] = before


__all__ = ["SERVER_PID", "alive", "start_fork_server", "watch"]

# Imported by the fork server (a preload, see folkdeck.server.bots), whose environment names
# the server: it watches it. Anywhere else the variable is unset, or names this process.
watch()
