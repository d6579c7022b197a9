"""CPython's cyclic garbage collector, set for a server process.

A server's objects either die within an action (views, deltas, messages: freed by their
reference counts as soon as they are sent) or live until their table's next move and
longer (its state, its connections' last views and their JSON, its match's records).
CPython's generations assume that what survives one collection may still die young, so it
traverses the survivors again in the middle generation and once more in the oldest. Here
they do not die young, and those traversals stopped the event loop for 108-163 ms (a
middle collection at 500 tables) and longer (a full one), every few seconds: the worst
round trips of ``benchmarks/server_load.py`` (``docs/web.md``, "The collector").

So the collector is set this way for a server process (:class:`Collector`):

* A **young collection** runs after :data:`COLLECT_AFTER` allocations (less deallocations)
  of tracked objects, as before. It finds the cycles that die young.
* What survives one is **frozen** at once (:func:`gc.freeze`, from a :data:`gc.callbacks`
  hook): it is never traversed again. A frozen object still dies by its reference count,
  as nearly everything here does, so no middle or full collection runs by the thresholds.
* A cycle among frozen objects waits for a **full collection**, which traverses everything
  the process holds (350-440 ms at 500 tables). One runs on the event loop once the
  process's heap (its allocated blocks) has grown by :data:`FULL_AFTER_GROWTH` since the
  last, and not before :data:`FULL_EVERY_SECONDS` have passed since it. The load
  benchmark's servers found no cyclic garbage at all in their steady state, so what a
  server makes otherwise may wait minutes. A full collection whenever the heap had grown by
  half, doubled or grown fourfold came within most 20-second runs at 500 tables (the heap
  grows that much as the tables fill) and set their p99 (319-591 ms).

>>> collector = Collector(collect_after=500)
>>> collector.install()
>>> gc.get_threshold()[0], collector.installed
(500, True)
>>> kept = [[n] for n in range(2_000)]  # a young collection runs; the survivors are frozen
>>> gc.get_freeze_count() >= len(kept)
True
>>> collector.uninstall()
>>> collector.installed, gc.get_freeze_count()
(False, 0)
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time

log = logging.getLogger("folkdeck.server")

COLLECT_AFTER = 20_000
"""Allocations (less deallocations) of tracked objects between two young collections.
CPython's default is 700: a young collection came about every ten actions, and the
collector took 7-8 % of the server's CPU at 100 tables (1.5-2.3 % at 20,000). With the
survivors frozen, 10,000 gave shorter pauses at 500 tables (the longest 44-52 ms against
63-67) but 30 % more of them in all, and no better p99 (three runs each)."""
FULL_AFTER_GROWTH = 0.25
"""How much the heap grows, as a share of its size after the last full collection,
before the next one runs (the frozen objects' cycles are found only then)."""
FULL_EVERY_SECONDS = 600.0
"""The least time between two full collections (and between the first and the start)."""
_NEVER = 2**30
"""A threshold the middle and oldest generations never reach (their collections run here
only as the full collection above)."""


class Collector:
    """The collector's setting for one server process: :meth:`install` it once, after the
    imports and before the tables are served; :meth:`uninstall` gives CPython's own back."""

    def __init__(self, collect_after: int = COLLECT_AFTER, growth: float = FULL_AFTER_GROWTH,
                 every: float = FULL_EVERY_SECONDS) -> None:
        self.collect_after = collect_after
        self.growth = growth
        self.every = every
        self.installed = False
        self.full_collections = 0
        """Full collections run since :meth:`install` (the heap grew past its limit)."""
        self._saved: tuple[int, int, int] = gc.get_threshold()
        self._heap = 0
        self._last = 0.0
        self._due = False

    def install(self) -> None:
        """Collect and freeze what the process holds now, then collect as the module says."""
        if self.installed:
            return
        self._saved = gc.get_threshold()
        gc.collect()
        gc.freeze()
        self._rebase()
        gc.set_threshold(self.collect_after, _NEVER, _NEVER)
        gc.callbacks.append(self._after_collection)
        self.installed = True

    def uninstall(self) -> None:
        """CPython's setting as it was, every frozen object back in the oldest generation."""
        if not self.installed:
            return
        gc.callbacks.remove(self._after_collection)
        gc.set_threshold(*self._saved)
        gc.unfreeze()
        self.installed = False

    def collect_full(self) -> float:
        """A full collection now (the frozen objects included); the seconds it took."""
        self._due = False
        start = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        seconds = time.perf_counter() - start
        self._rebase()
        self.full_collections += 1
        log.info("full collection: %d objects of cyclic garbage freed in %.0f ms", found, 1e3 * seconds)
        return seconds

    def _rebase(self) -> None:
        self._heap = sys.getallocatedblocks()
        self._last = time.monotonic()

    def full_due(self) -> bool:
        """Whether the heap has grown enough, for long enough, for a full collection."""
        if time.monotonic() - self._last < self.every:
            return False
        return sys.getallocatedblocks() >= self._heap * (1 + self.growth)

    def _after_collection(self, phase: str, info: dict[str, int]) -> None:
        # Runs inside the collector, which may not run a collection of its own: a full
        # one is only asked of the event loop (about a millisecond to count the blocks).
        if phase != "stop" or info["generation"] != 0:
            return
        gc.freeze()
        if self._due or not self.full_due():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not the event loop's thread: the next young collection there asks
            return
        self._due = True
        loop.call_soon(self.collect_full)


_PROCESS = Collector()
"""The setting of this process, once :func:`tune_collector` installed it."""


def tune_collector() -> Collector:
    """Set the collector for a server process (``folkdeck serve`` calls it once, after
    the imports and after its tables are loaded, so that they are frozen with the modules)."""
    _PROCESS.install()
    return _PROCESS


__all__ = ["COLLECT_AFTER", "FULL_AFTER_GROWTH", "FULL_EVERY_SECONDS", "Collector", "tune_collector"]
