"""The bot workers die with their server, on any signal, SIGKILL included.

Bots think in processes forked by a fork server (:mod:`folkdeck.server.bots`): the fork
server is the server's child, the workers are the fork server's. Two links, neither of
which needs the server to do anything as it dies:

* The fork server ends by itself when its server is gone: it waits on a pipe whose only
  writer is the server, and the kernel closes that end however the server dies
  (:mod:`multiprocessing.forkserver`). It runs no thread of ours: a process that forks
  must not, since a child gets the memory of every thread at the moment of the fork (an
  import or a lock half taken) but none of the threads to finish it. A watch thread once
  ran there, and a worker forked while it was importing a codec was left without one.
* Each worker asks the kernel to kill it when its parent, the fork server, ends
  (:func:`die_with_parent`, Linux's ``PR_SET_PDEATHSIG``), and also watches the server
  itself (:func:`watch`, a daemon thread): where the kernel has no such request, or the
  worker was forked after the fork server had already lost its server.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time

POLL_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


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
        with open(f"/proc/{pid}/stat", "rb") as stat:  # bytes: nothing to decode, nothing to import
            return stat.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except (OSError, IndexError):  # no /proc here (or a stat of another shape): kill(0) said it exists
        return True


def _watch(pid: int) -> None:
    while True:
        try:
            if not alive(pid):
                break
        except Exception:  # pragma: no cover - never let the watch end while the server may live
            with contextlib.suppress(Exception):
                sys.stderr.write("folkdeck watchdog: could not read the server's state; watching on\n")
        time.sleep(POLL_SECONDS)
    os._exit(0)  # the server is gone: nothing here is worth finishing


def watch(pid: int) -> None:
    """End this process once process ``pid`` is gone (nothing if ``pid`` is this process)."""
    if pid == os.getpid():
        return
    alive(pid)  # the first look in this thread: whatever it needs is loaded before the watch runs
    threading.Thread(target=_watch, args=(pid,), name="folkdeck-watchdog", daemon=True).start()


def die_with_parent() -> None:
    """Have the kernel kill this process when its parent ends (Linux; elsewhere nothing), and
    end now if the parent is already gone (its orphans are given to another process)."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if not alive(parent) or os.getppid() != parent:
        os._exit(0)


__all__ = ["alive", "die_with_parent", "watch"]
