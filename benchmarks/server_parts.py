"""``folkdeck serve`` with the CPU time of its main parts counted (``server_load.py --parts``).

cProfile charges its own cost to every Python call, so code made of many small calls (the
views' encoder, the delta) looks several times dearer than it is beside C code (SQLite,
zlib, JSON) and the frameworks' few large calls. Here only a few named functions are
wrapped, each counting the thread CPU time it took and its calls: the shares come out as
the process spends them. The parts nest (``broadcast`` holds ``Table.view``,
``Table.public`` and ``Connection.push``), so they do not add up to the whole.

Beside the CPU it times two waits (wall clock, p50 / p99 / max): how long the server took
to answer each client message, from the moment its handler read the message (the table's
inbox, the move, the group commit), and how late a timer of the event loop ran (a callback
waiting behind the loop's other work and the collector's pauses). What the load client
measures beyond the first is the network, the server's reading before the handler and the
client's own loop.

On SIGUSR2 the server appends the counts since the last SIGUSR2 to ``OUT`` as one JSON line
(with the process's CPU seconds over the same span) and starts counting afresh; SIGUSR1 does
the same, then stops the server.

    python benchmarks/server_parts.py OUT serve --port 0 ...   # what server_load.py runs
"""

from __future__ import annotations

import functools
import gc
import json
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

PARTS: tuple[tuple[str, str, str], ...] = (
    # (module, attribute path, label): synchronous functions only (a coroutine's time is its callers')
    ("folkdeck.server.actor", "TableActor.tell", "broadcast (views, deltas, JSON)"),
    ("folkdeck.server.tables", "Table.view", "  Table.view (observe + encode)"),
    ("folkdeck.server.views", "ViewEncoder.obs", "    ViewEncoder.obs (encode)"),
    ("folkdeck.server.tables", "Table.public", "  Table.public"),
    ("folkdeck.server.tables", "Connection.push", "  Connection.push (delta + JSON)"),
    ("folkdeck.server.tables", "diff", "    delta.diff"),
    ("folkdeck.server.tables", "encode", "    JSON text (tables.encode)"),
    ("folkdeck.server.commits", "GroupCommit._flush", "commit (group commit)"),
    ("folkdeck.server.store", "Store.append_actions", "  Store.append_actions"),
    ("folkdeck.server.relay", "Relay.publish", "relay publish (PostgreSQL NOTIFY)"),
    ("folkdeck.server.cluster", "Cluster._on_change", "relay: another owner's change received"),
    ("folkdeck.server.lease", "Leases._run", "leases (PostgreSQL)"),
    ("folkdeck.server.plans", "Planner.advance", "actor planning (advance)"),
    ("folkdeck.server.tables", "Table.bot_jobs", "  bot jobs (the bot's view)"),
    ("folkdeck.server.bots", "think", "bot thinking in the loop"),
    ("folkdeck.server.tables", "Table.finish_deal_if_over", "deal accounting (finish_deal_if_over)"),
    ("folkdeck.server.tables", "Table.start_next_deal", "next deal (start_next_deal)"),
    ("folkdeck.server.api.ws", "_parse", "client message parsing (decode + pydantic)"),
    ("websockets.protocol", "Protocol.send_text", "websocket frame out (+ deflate)"),
    ("websockets.protocol", "Protocol.receive_data", "websocket frame in (+ inflate)"),
)

cpu: dict[str, float] = {}
calls: dict[str, int] = {}
waits: dict[str, list[float]] = {}
"""Wall-clock waits by label (seconds), since the last block."""
HANDLED = "a client message answered, from its handler's start"
LOOP_LATE = "a 5 ms timer of the event loop, run late by"
PROBE_SECONDS = 0.005


def _timed(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    clock = time.thread_time

    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            cpu[label] = cpu.get(label, 0.0) + clock() - start
            calls[label] = calls.get(label, 0) + 1

    return timed


def install() -> None:
    import importlib

    for module_name, path, label in PARTS:
        owner: Any = importlib.import_module(module_name)
        *outer, name = path.split(".")
        for part in outer:
            owner = getattr(owner, part)
        setattr(owner, name, _timed(label, getattr(owner, name)))  # each is looked up where called
    gc.callbacks.append(_collections)
    _time_the_waits()


def _time_the_waits() -> None:
    """Time each client message's handler, and run the loop's late-timer probe."""
    import asyncio

    from folkdeck.server.actor import TableActor
    from folkdeck.server.api import ws

    handle = ws._handle

    @functools.wraps(handle)
    async def handled(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await handle(*args, **kwargs)
        finally:
            waits.setdefault(HANDLED, []).append(time.perf_counter() - start)

    ws._handle = handled  # looked up where called
    start_actor = TableActor.start
    probe: list[asyncio.Task[None]] = []

    async def late_timers() -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(PROBE_SECONDS)
            waits.setdefault(LOOP_LATE, []).append(time.perf_counter() - start - PROBE_SECONDS)

    @functools.wraps(start_actor)
    def started(self: TableActor) -> None:
        if not probe:  # the first table's start: the server's loop runs
            probe.append(asyncio.get_running_loop().create_task(late_timers()))
        start_actor(self)

    TableActor.start = started  # type: ignore[method-assign]


def _quantiles(samples: list[float]) -> list[float]:
    """p50, p99 and max in milliseconds."""
    ordered = sorted(samples)
    return [round(1e3 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1) for q in (0.5, 0.99, 1.0)]


_GC_LABEL = "garbage collector (all generations)"
_gc_started = [0.0]


longest: dict[int, float] = {}
"""The longest collection of each generation since the last block (a pause of the loop)."""


def _collections(phase: str, info: dict[str, int]) -> None:
    """The collector's own time (a collection runs inside whatever part allocated)."""
    if phase == "start":
        _gc_started[0] = time.thread_time()
        return
    took = time.thread_time() - _gc_started[0]
    cpu[_GC_LABEL] = cpu.get(_GC_LABEL, 0.0) + took
    calls[_GC_LABEL] = calls.get(_GC_LABEL, 0) + 1
    generation = info["generation"]
    label = f"  collections of generation {generation}"
    cpu[label] = cpu.get(label, 0.0) + took
    calls[label] = calls.get(label, 0) + 1
    longest[generation] = max(longest.get(generation, 0.0), took)
    freed = f"  cycles freed by generation {generation} (calls: objects)"
    cpu[freed] = 0.0
    calls[freed] = calls.get(freed, 0) + info["collected"]


def main(out: str, argv: list[str]) -> int:
    install()
    since = [time.process_time()]

    def write(*_: object) -> None:
        now = time.process_time()
        block = {"process_cpu": round(now - since[0], 4),
                 "parts": {k: [round(cpu[k], 4), calls[k]] for k in cpu},
                 "longest_collection_ms": {str(g): round(1e3 * t, 1) for g, t in sorted(longest.items())},
                 "waits_ms": {label: _quantiles(samples) for label, samples in waits.items() if samples}}
        with open(out, "a") as f:
            f.write(json.dumps(block) + "\n")
        cpu.clear()
        calls.clear()
        longest.clear()
        waits.clear()
        since[0] = now

    def stop(*_: object) -> None:
        write()
        signal.raise_signal(signal.SIGTERM)

    signal.signal(signal.SIGUSR2, write)
    signal.signal(signal.SIGUSR1, stop)
    from folkdeck.cli.main import main as cli

    return cli(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
